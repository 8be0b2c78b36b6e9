#include "tests/support/golden.h"

#include <QDir>
#include <QFile>

namespace gpuplan::testing {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void addGoldenRows(const QString& dir, int minimum)
{
    QTest::addColumn<QString>("folder");
    const QDir folder(dir);
    const auto cases = folder.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    if (cases.size() < minimum)
        QFAIL(qPrintable(QStringLiteral("%1 golden cases in %2, expected at least %3")
                             .arg(cases.size())
                             .arg(dir)
                             .arg(minimum)));
    for (const auto& name : cases)
        QTest::newRow(qPrintable(name)) << folder.filePath(name);
}

QByteArray expectedGolden(const QByteArray& actual, const QString& expectedPath)
{
    if (qEnvironmentVariableIsSet("GPUPLAN_UPDATE_GOLDEN")) {
        QFile out(expectedPath);
        if (out.open(QIODevice::WriteOnly))
            out.write(actual);
    }
    return readAll(expectedPath);
}

} // namespace gpuplan::testing

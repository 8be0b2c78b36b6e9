#include "app/common/unique_file_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace gpuplan::views {

namespace {
// Beyond this many files with the same name, something is wrong.
constexpr int kMaxNameSuffix = 1000;

QString freeName(const QDir& dir, const QString& fileName)
{
    if (!QFileInfo::exists(dir.filePath(fileName)))
        return fileName;
    const QString stem = QFileInfo(fileName).completeBaseName();
    const QString suffix = QFileInfo(fileName).suffix();
    for (int n = 2; n < kMaxNameSuffix; ++n) {
        const QString candidate = suffix.isEmpty()
            ? QStringLiteral("%1-%2").arg(stem).arg(n)
            : QStringLiteral("%1-%2.%3").arg(stem).arg(n).arg(suffix);
        if (!QFileInfo::exists(dir.filePath(candidate)))
            return candidate;
    }
    return {};
}
} // namespace

StoredFile storeUniqueCopy(
    const QString& sourcePath, const QString& dirPath, const QString& fileName)
{
    QFile source(sourcePath);
    if (!source.open(QIODevice::ReadOnly))
        return { {},
            QStringLiteral("Could not read %1: %2").arg(sourcePath, source.errorString()) };
    const QByteArray contents = source.readAll();

    if (!QDir().mkpath(dirPath))
        return { {}, QStringLiteral("Could not create the folder %1.").arg(dirPath) };
    const QDir dir(dirPath);
    const QString name = freeName(dir, fileName);
    if (name.isEmpty())
        return { {}, QStringLiteral("Too many files named like %1 in %2.").arg(fileName, dirPath) };

    QSaveFile target(dir.filePath(name));
    if (!target.open(QIODevice::WriteOnly) || target.write(contents) != contents.size()
        || !target.commit())
        return { {},
            QStringLiteral("Could not save %1: %2").arg(target.fileName(), target.errorString()) };
    return { dir.filePath(name), {} };
}

} // namespace gpuplan::views

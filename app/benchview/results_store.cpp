#include "app/benchview/results_store.h"

#include "app/benchview/result_summary.h"
#include "app/benchview/run_request.h"
#include "app/common/format.h"
#include "app/common/user_data.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace gpuplan::benchview {

namespace {
// Beyond this many files with the same name in one second, something is wrong.
constexpr int kMaxNameSuffix = 1000;

QString freeName(const QDir& dir, const QString& fileName)
{
    if (!QFileInfo::exists(dir.filePath(fileName)))
        return fileName;
    const QString stem = QFileInfo(fileName).completeBaseName();
    const QString suffix = QFileInfo(fileName).suffix();
    for (int n = 2; n < kMaxNameSuffix; ++n) {
        const QString candidate = QStringLiteral("%1-%2.%3").arg(stem).arg(n).arg(suffix);
        if (!QFileInfo::exists(dir.filePath(candidate)))
            return candidate;
    }
    return {};
}
} // namespace

StoredResults storeResultsFile(const QString& sourcePath, const QString& fileName)
{
    QFile source(sourcePath);
    if (!source.open(QIODevice::ReadOnly))
        return { {},
            QStringLiteral("Could not read %1: %2").arg(sourcePath, source.errorString()) };
    const QByteArray contents = source.readAll();

    const QString dirPath = views::userDataDir() + QStringLiteral("/results");
    if (!QDir().mkpath(dirPath))
        return { {}, QStringLiteral("Could not create the results folder %1.").arg(dirPath) };
    const QDir dir(dirPath);
    const QString name = freeName(dir, fileName);
    if (name.isEmpty())
        return { {},
            QStringLiteral("Too many results files named like %1 in %2.").arg(fileName, dirPath) };

    QSaveFile target(dir.filePath(name));
    if (!target.open(QIODevice::WriteOnly) || target.write(contents) != contents.size()
        || !target.commit())
        return { {},
            QStringLiteral("Could not save %1: %2").arg(target.fileName(), target.errorString()) };
    return { dir.filePath(name), {} };
}

StoredResults importResultsFile(const QString& path, const Catalog& catalog)
{
    const ResultSummary summary = summarizeResultsFile(path, catalog);
    if (!summary.readable)
        return { {},
            QStringLiteral("%1 is not a usable gpuplan-bench results file:\n%2")
                .arg(path, summary.error) };
    const std::string& device
        = summary.best.gpuId.empty() ? summary.best.deviceName : summary.best.gpuId;
    return storeResultsFile(path,
        resultsFileName(views::toQString(summary.best.modelId), views::toQString(device),
            QDateTime::currentDateTimeUtc()));
}

} // namespace gpuplan::benchview

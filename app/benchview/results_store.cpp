#include "app/benchview/results_store.h"

#include "app/benchview/result_summary.h"
#include "app/benchview/run_request.h"
#include "app/common/format.h"
#include "app/common/user_data.h"

#include <QDateTime>

namespace gpuplan::benchview {

StoredResults storeResultsFile(const QString& sourcePath, const QString& fileName)
{
    return views::storeUniqueCopy(
        sourcePath, views::userDataDir() + QStringLiteral("/results"), fileName);
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

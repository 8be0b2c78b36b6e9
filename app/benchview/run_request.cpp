#include "app/benchview/run_request.h"

#include <QRegularExpression>

namespace gpuplan::benchview {

namespace {
// Keeps file names readable in a directory listing.
constexpr qsizetype kMaxPartLength = 48;

// Lower case letters, digits, '.', '_' and '-'; every other run of characters becomes one '-'.
QString fileNamePart(const QString& text, const QString& fallback)
{
    static const QRegularExpression unsafe(QStringLiteral("[^a-z0-9._]+"));
    QString part = text.toLower().replace(unsafe, QStringLiteral("-"));
    while (part.startsWith(QLatin1Char('-')) || part.startsWith(QLatin1Char('.')))
        part.remove(0, 1);
    part.truncate(kMaxPartLength);
    while (part.endsWith(QLatin1Char('-')))
        part.chop(1);
    return part.isEmpty() ? fallback : part;
}
} // namespace

QStringList benchRunArguments(const RunRequest& request)
{
    QStringList args { QStringLiteral("run") };
    if (request.configFile.isEmpty())
        args << QStringLiteral("--model") << request.modelId;
    else
        args << QStringLiteral("--config") << request.configFile;
    // Several GPUs: every rank takes its own (rank r on cuda:r), so the device is just "cuda".
    const bool multiProcess = request.processes > 1;
    const QString device = multiProcess && request.device.startsWith(QLatin1String("cuda"))
        ? QStringLiteral("cuda")
        : request.device;
    args << QStringLiteral("--device") << device << QStringLiteral("--methods") << request.methods;
    if (multiProcess)
        args << QStringLiteral("--nproc-per-node") << QString::number(request.processes)
             << QStringLiteral("--parallelism") << request.parallelism;
    if (request.reducedRecipe)
        args << QStringLiteral("--batch-size") << QString::number(kTrialGlobalBatch)
             << QStringLiteral("--seq-len") << QString::number(kTrialSequenceLength);
    if (request.validationSteps > 0)
        args << QStringLiteral("--validate") << QString::number(request.validationSteps);
    return args;
}

QString resultsFileName(const QString& model, const QString& device, const QDateTime& when)
{
    return fileNamePart(model, QStringLiteral("model")) + QLatin1Char('-')
        + fileNamePart(device, QStringLiteral("device")) + QLatin1Char('-')
        + when.toUTC().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'")) + QStringLiteral(".yaml");
}

} // namespace gpuplan::benchview

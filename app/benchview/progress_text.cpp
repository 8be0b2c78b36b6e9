#include "app/benchview/progress_text.h"

#include <QHash>

namespace gpuplan::benchview {

QString describeProgress(const benchrun::ProgressLine& progress)
{
    // The phases of docs/results-format.md, in words.
    static const QHash<QString, QString> phases {
        { QStringLiteral("start"), QStringLiteral("Starting") },
        { QStringLiteral("build"), QStringLiteral("Building the model") },
        { QStringLiteral("search"), QStringLiteral("Searching the largest micro-batch") },
        { QStringLiteral("warmup"), QStringLiteral("Warming up") },
        { QStringLiteral("measure"), QStringLiteral("Measuring") },
        { QStringLiteral("validate"), QStringLiteral("Validating with full optimizer steps") },
        { QStringLiteral("configuration_done"), QStringLiteral("Configuration measured") },
        { QStringLiteral("done"), QStringLiteral("Done") },
        { QStringLiteral("error"), QStringLiteral("Error") },
        { QStringLiteral("launch"), QStringLiteral("Starting one process per GPU") },
        { QStringLiteral("comm_probe"), QStringLiteral("Measuring the bandwidth between GPUs") },
    };
    QString text = phases.value(progress.phase, progress.phase);
    QStringList details;
    if (!progress.configuration.isEmpty())
        details << progress.configuration;
    if (progress.microBatchSize)
        details << QStringLiteral("micro-batch %1").arg(*progress.microBatchSize);
    if (!details.isEmpty())
        text += QStringLiteral(": ") + details.join(QStringLiteral(", "));
    return text;
}

QString formatDuration(std::chrono::milliseconds duration)
{
    const qint64 total = std::max<qint64>(0, duration.count() / 1000);
    const qint64 hours = total / 3600;
    const qint64 minutes = (total / 60) % 60;
    const qint64 seconds = total % 60;
    const auto two = [](qint64 n) { return QStringLiteral("%1").arg(n, 2, 10, QLatin1Char('0')); };
    if (hours > 0)
        return QStringLiteral("%1:%2:%3").arg(hours).arg(two(minutes), two(seconds));
    return QStringLiteral("%1:%2").arg(minutes).arg(two(seconds));
}

} // namespace gpuplan::benchview

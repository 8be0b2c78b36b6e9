#include "app/benchview/progress_text.h"

#include <QStringList>

namespace gpuplan::benchview {

QString phaseText(ProgressPhase phase)
{
    switch (phase) {
    case ProgressPhase::Start:
        return QStringLiteral("Starting");
    case ProgressPhase::Build:
        return QStringLiteral("Building the model");
    case ProgressPhase::Launch:
        return QStringLiteral("Starting one process per GPU");
    case ProgressPhase::CommProbe:
        return QStringLiteral("Measuring the bandwidth between GPUs");
    case ProgressPhase::Search:
        return QStringLiteral("Searching the largest micro-batch");
    case ProgressPhase::Warmup:
        return QStringLiteral("Warming up");
    case ProgressPhase::Measure:
        return QStringLiteral("Measuring");
    case ProgressPhase::Validate:
        return QStringLiteral("Validating with full optimizer steps");
    case ProgressPhase::ConfigurationDone:
        return QStringLiteral("Configuration measured");
    case ProgressPhase::Done:
        return QStringLiteral("Done");
    case ProgressPhase::Error:
        return QStringLiteral("Error");
    }
    return {};
}

QString describeProgress(const benchrun::ProgressLine& progress)
{
    QString text = phaseText(progress.phase);
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

#include "app/benchview/result_summary.h"

#include "app/common/format.h"
#include "pricing/measured_results.h"

#include <QLocale>

namespace gpuplan::benchview {

namespace {
constexpr double kSecondsPerDay = 86400.0;

const QLocale& numbers()
{
    static const QLocale locale(QLocale::English, QLocale::UnitedStates);
    return locale;
}

QString formatStepTime(double seconds)
{
    if (seconds < 1.0)
        return numbers().toString(seconds * 1000.0, 'f', 1) + QStringLiteral(" ms");
    return numbers().toString(seconds, 'f', seconds < 100.0 ? 2 : 0) + QStringLiteral(" s");
}

QString issueText(const LoadIssue& issue)
{
    return views::toQString(issue.message);
}
} // namespace

ResultSummary summarizeResultsFile(const QString& path, const Catalog& catalog)
{
    ResultSummary summary;
    const MeasuredLoad load = loadMeasuredResultsFiles({ path.toStdString() }, catalog);
    QStringList errors;
    for (const auto& issue : load.issues) {
        if (issue.severity == LoadIssue::Severity::Error)
            errors << views::toQString(issue.toString());
        else
            summary.warnings << issueText(issue);
    }
    if (!errors.isEmpty() || load.results.empty() || load.workloads.empty()) {
        summary.error = errors.isEmpty()
            ? QStringLiteral("%1 holds no measured configuration.").arg(path)
            : errors.join(QLatin1Char('\n'));
        return summary;
    }
    summary.readable = true;
    summary.best = load.results.front();
    summary.workload = load.workloads.front();
    if (summary.workload.steps > 0)
        summary.stepSeconds = summary.best.trainingDays * kSecondsPerDay
            / static_cast<double>(summary.workload.steps);
    return summary;
}

QString ResultSummary::validationText() const
{
    if (best.validationError) {
        const QString percent
            = numbers().toString(100.0 * *best.validationError, 'f', 1) + QLatin1Char('%');
        // As the planner's note says it: a whole step timed leaves nothing extrapolated.
        return best.validationExtrapolated
            ? QStringLiteral("%1 (extrapolated vs measured step time)").arg(percent)
            : QStringLiteral("%1 (whole steps timed: a repeat of the same work, nothing "
                             "extrapolated)")
                  .arg(percent);
    }
    if (validationStepsAsked <= 0)
        return QStringLiteral("not checked (set validation steps above 0)");
    return runStoppedEarly ? QStringLiteral("not measured (the run stopped before validation)")
                           : QStringLiteral("not measured yet (it runs after the estimate)");
}

QString ResultSummary::text() const
{
    if (!readable)
        return error;
    const QString gpuCount
        = best.gpuCount > 1 ? QStringLiteral(" x%1").arg(best.gpuCount) : QString();
    QStringList lines;
    lines << QStringLiteral("Model: %1 (%2)")
                 .arg(views::toQString(workload.name), views::toQString(workload.id));
    lines << QStringLiteral("Device: %1%2").arg(views::toQString(best.deviceName), gpuCount);
    lines << QStringLiteral("Best configuration: %1").arg(views::toQString(best.configuration));
    lines << QStringLiteral("Step time: %1 per optimizer step (global batch %2)")
                 .arg(formatStepTime(stepSeconds))
                 .arg(workload.globalBatch);
    lines << QStringLiteral("Training time for %1 steps: %2 (%3 to %4)")
                 .arg(numbers().toString(static_cast<qlonglong>(workload.steps)),
                     views::formatDays(best.trainingDays), views::formatDays(best.trainingDaysLow),
                     views::formatDays(best.trainingDaysHigh));
    lines << (best.impliedUtilization
            ? QStringLiteral("Implied utilisation: %1 of the device's peak")
                  .arg(views::formatPercent(*best.impliedUtilization))
            : QStringLiteral("Implied utilisation: unknown (no peak is known for this device)"));
    lines << QStringLiteral("Validation error: ") + validationText();
    for (const auto& warning : warnings)
        lines << QStringLiteral("Note: ") + warning;
    return lines.join(QLatin1Char('\n'));
}

} // namespace gpuplan::benchview

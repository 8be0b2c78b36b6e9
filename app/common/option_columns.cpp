#include "app/common/option_columns.h"

#include "app/common/format.h"

#include <QStringList>

namespace gpuplan::views {

QString header(OptionColumn c)
{
    switch (c) {
    case OptionColumn::Gpu:
        return QStringLiteral("GPU");
    case OptionColumn::GpuCount:
        return QStringLiteral("GPUs");
    case OptionColumn::Days:
        return QStringLiteral("Training days");
    case OptionColumn::Source:
        return QStringLiteral("Source");
    case OptionColumn::MachineCost:
        return QStringLiteral("Machine cost");
    case OptionColumn::ExperimentCost:
        return QStringLiteral("Per experiment");
    case OptionColumn::EnergyCost:
        return QStringLiteral("Energy per run");
    case OptionColumn::Utilization:
        return QStringLiteral("Implied utilisation");
    case OptionColumn::Flags:
        return QStringLiteral("Flags");
    case OptionColumn::Pareto:
        return QStringLiteral("Pareto");
    }
    return {};
}

QString daysText(const TrainingEstimate& e)
{
    // An extrapolation's range is wide enough to matter; the paper's rounding and a measured
    // spread are in the tooltip and JSON.
    if (e.source != EstimateSource::Extrapolated || !(e.daysHigh > e.daysLow))
        return formatDays(e.days);
    const int decimals = e.days < 10.0 ? 1 : 0;
    return formatDays(e.days)
        + QStringLiteral(" (%1-%2)")
              .arg(QString::number(e.daysLow, 'f', decimals),
                  QString::number(e.daysHigh, 'f', decimals));
}

QString flagList(const TrainingEstimate& e, const PriceAge& age)
{
    QStringList names;
    for (auto flag : e.flags)
        names << toQString(toString(flag));
    if (age.stale)
        names << QStringLiteral("stale_price");
    return names.join(QStringLiteral(", "));
}

QString flagExplanations(const TrainingEstimate& e)
{
    QStringList lines;
    for (auto flag : e.flags)
        lines << toQString(describe(flag));
    return lines.join(QLatin1Char('\n'));
}

QString displayText(const OwnedOption& o, OptionColumn c)
{
    switch (c) {
    case OptionColumn::Gpu:
        return QString::fromStdString(o.gpu->name);
    case OptionColumn::GpuCount:
        return QString::number(o.gpuCount);
    case OptionColumn::Days:
        return daysText(o.estimate);
    case OptionColumn::Source:
        return toQString(toString(o.estimate.source));
    case OptionColumn::MachineCost:
        return formatUsd(o.machineCostUsd);
    case OptionColumn::ExperimentCost:
        return formatUsd(o.experimentCostUsd);
    case OptionColumn::EnergyCost:
        return formatUsd(o.energyCostUsd);
    case OptionColumn::Utilization:
        return o.estimate.impliedUtilization ? formatPercent(*o.estimate.impliedUtilization)
                                             : QStringLiteral("unknown");
    case OptionColumn::Flags:
        return flagList(o.estimate, o.priceAge);
    case OptionColumn::Pareto:
        return o.paretoHardware ? QStringLiteral("yes") : QString();
    }
    return {};
}

QVariant sortValue(const OwnedOption& o, OptionColumn c)
{
    switch (c) {
    case OptionColumn::GpuCount:
        return o.gpuCount;
    case OptionColumn::Days:
        return o.estimate.days;
    case OptionColumn::MachineCost:
        return o.machineCostUsd;
    case OptionColumn::ExperimentCost:
        return o.experimentCostUsd;
    case OptionColumn::EnergyCost:
        return o.energyCostUsd;
    case OptionColumn::Utilization:
        return o.estimate.impliedUtilization ? QVariant(*o.estimate.impliedUtilization)
                                             : QVariant();
    case OptionColumn::Pareto:
        return o.paretoHardware ? 1 : 0;
    case OptionColumn::Gpu:
    case OptionColumn::Source:
    case OptionColumn::Flags:
        return displayText(o, c);
    }
    return {};
}

} // namespace gpuplan::views

#include "app/common/cloud_columns.h"

#include "app/common/format.h"
#include "app/common/option_columns.h"
#include "app/common/wording.h"
#include "core/costing/indirect.h"

namespace gpuplan::views {

namespace {
QString optionalUsd(const std::optional<double>& usd)
{
    return usd ? formatUsd(*usd) : QStringLiteral("-");
}
// "$1,234", "$1,234 ($1,100-$1,400)", and with a note "$1,234 ($1,100-$1,400, on-demand)" or
// "$1,234 (on-demand)" where there is no range.
QString usdWithRange(const std::optional<double>& usd, const std::optional<Interval>& range,
    const QString& note = QString())
{
    if (!usd)
        return QStringLiteral("-");
    const QString withRange
        = range ? formatUsdWithRange(*usd, range->low, range->high) : formatUsd(*usd);
    if (note.isEmpty())
        return withRange;
    if (withRange.endsWith(QLatin1Char(')'))) // a range: the note goes inside its brackets
        return withRange.chopped(1) + QStringLiteral(", ") + note + QLatin1Char(')');
    return withRange + QStringLiteral(" (") + note + QLatin1Char(')');
}
QVariant optionalNumber(const std::optional<double>& value)
{
    return value ? QVariant(*value) : QVariant(); // empty sorts first, exports blank
}
} // namespace

QString header(CloudColumn c)
{
    switch (c) {
    case CloudColumn::Provider:
        return QStringLiteral("Provider");
    case CloudColumn::Offer:
        return QStringLiteral("Offer");
    case CloudColumn::Gpu:
        return QStringLiteral("GPU");
    case CloudColumn::GpuCount:
        return QStringLiteral("GPUs");
    case CloudColumn::Instances:
        return QStringLiteral("Instances");
    case CloudColumn::Days:
        return QStringLiteral("Training days");
    case CloudColumn::OnDemandRate:
        return QStringLiteral("On-demand $/h");
    case CloudColumn::SpotRate:
        return QStringLiteral("Spot $/h");
    case CloudColumn::OnDemandCost:
        return QStringLiteral("On-demand per run");
    case CloudColumn::SpotCost:
        return QStringLiteral("Spot per run");
    case CloudColumn::CheapestCost:
        return QStringLiteral("Cheapest per run");
    case CloudColumn::RateDate:
        return QStringLiteral("Rate date");
    case CloudColumn::Flags:
        return QStringLiteral("Flags");
    }
    return {};
}

QString displayHeader(CloudColumn c, const Results* results)
{
    const double indirectRate = results ? indirectRateOn(BudgetCategory::ComputingServices,
                                    results->indirectRules, results->assumptions)
                                        : 0.0;
    switch (c) {
    case CloudColumn::OnDemandRate:
    case CloudColumn::SpotRate:
        // As the offer lists it, for the GPUs one rate buys (Instances says how many times a
        // run pays it): "per instance" read as a whole pod's where RunPod's rate is per GPU.
        return header(c) + QStringLiteral(" as listed");
    case CloudColumn::OnDemandCost:
    case CloudColumn::SpotCost:
    case CloudColumn::CheapestCost:
        return header(c) + (indirectRate > 0.0 ? QStringLiteral(" (with F&A)") : QString());
    default:
        return header(c);
    }
}

QString displayText(const CloudOption& o, CloudColumn c)
{
    switch (c) {
    case CloudColumn::Provider:
        return QString::fromStdString(o.offer->provider);
    case CloudColumn::Offer:
        return QString::fromStdString(o.offer->instance);
    case CloudColumn::Gpu:
        return QString::fromStdString(o.gpu->name);
    case CloudColumn::GpuCount:
        return QString::number(o.gpuCount);
    case CloudColumn::Instances:
        // A pod of 8 at the per-GPU rate is one instance that pays the rate 8 times.
        return o.ratesBilled == o.instances
            ? QString::number(o.instances)
            : QStringLiteral("%1 (rate \u00D7 %2)").arg(o.instances).arg(o.ratesBilled);
    case CloudColumn::Days:
        return daysText(o.estimate);
    case CloudColumn::OnDemandRate:
        return optionalUsd(o.offer->onDemandUsdPerHour);
    case CloudColumn::SpotRate:
        return optionalUsd(o.offer->spotUsdPerHour);
    case CloudColumn::OnDemandCost:
        return usdWithRange(o.onDemandCostUsd, o.onDemandCostRange);
    case CloudColumn::SpotCost:
        return usdWithRange(o.spotCostUsd, o.spotCostRange);
    case CloudColumn::CheapestCost:
        // Reservations only: a planned run's share of the whole terms, not the term's rate.
        if (o.termsPerPlannedRunUsd)
            return usdWithRange(o.termsPerPlannedRunUsd,
                o.planTotalRange.high > 0.0 ? std::optional(cheapestPerRunShownRange(o))
                                            : std::nullopt,
                pricingLabel(o.cheapestPricing, o.cheapestReservedYears)
                    + QStringLiteral(", whole terms over the planned runs"));
        return usdWithRange(o.cheapestCostUsd, o.cheapestCostRange,
            pricingLabel(o.cheapestPricing, o.cheapestReservedYears));
    case CloudColumn::RateDate:
        return priceDateText(o.offer->source.date, o.rateAge);
    case CloudColumn::Flags:
        return flagList(o.estimate, o.rateAge);
    }
    return {};
}

QVariant sortValue(const CloudOption& o, CloudColumn c)
{
    switch (c) {
    case CloudColumn::GpuCount:
        return o.gpuCount;
    case CloudColumn::Instances:
        return o.instances;
    case CloudColumn::Days:
        return o.estimate.days;
    case CloudColumn::OnDemandRate:
        return optionalNumber(o.offer->onDemandUsdPerHour);
    case CloudColumn::SpotRate:
        return optionalNumber(o.offer->spotUsdPerHour);
    case CloudColumn::OnDemandCost:
        return optionalNumber(o.onDemandCostUsd);
    case CloudColumn::SpotCost:
        return optionalNumber(o.spotCostUsd);
    case CloudColumn::CheapestCost:
        return optionalNumber(
            o.termsPerPlannedRunUsd ? o.termsPerPlannedRunUsd : o.cheapestCostUsd);
    case CloudColumn::Provider:
    case CloudColumn::Offer:
    case CloudColumn::Gpu:
    case CloudColumn::RateDate:
    case CloudColumn::Flags:
        return displayText(o, c);
    }
    return {};
}

Interval cheapestPerRunShownRange(const CloudOption& o)
{
    if (!o.termsPerPlannedRunUsd)
        return o.cheapestCostRange;
    if (!(o.planTotalUsd > 0.0)) // no total to scale: no range, rather than the rate's
        return { *o.termsPerPlannedRunUsd, *o.termsPerPlannedRunUsd };
    const double perRun = *o.termsPerPlannedRunUsd / o.planTotalUsd;
    return { o.planTotalRange.low * perRun, o.planTotalRange.high * perRun };
}

double rankingCostPerRunUsd(const CloudOption& o, int plannedRuns)
{
    if (o.cheapestIsCommitment && plannedRuns > 0)
        return o.planTotalUsd / plannedRuns;
    return o.cheapestCostUsd.value_or(0.0);
}

} // namespace gpuplan::views

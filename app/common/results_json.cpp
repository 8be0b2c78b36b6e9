#include "app/common/results_json.h"

#include "app/common/cloud_columns.h"
#include "app/common/option_columns.h"
#include "app/common/wording.h"

#include "app/common/format.h"
#include "core/costing/plan_verdict.h"

#include <QJsonArray>

#include <cmath>

namespace gpuplan::views {

namespace {
QJsonValue optionalNumber(const std::optional<double>& value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QJsonArray flags(const TrainingEstimate& e)
{
    QJsonArray list;
    for (auto flag : e.flags)
        list.append(toQString(toString(flag)));
    return list;
}

void addEstimate(QJsonObject& json, const TrainingEstimate& e)
{
    json[QStringLiteral("training_days")] = e.days;
    json[QStringLiteral("training_days_low")] = e.daysLow;
    json[QStringLiteral("training_days_high")] = e.daysHigh;
    json[QStringLiteral("source")] = toQString(toString(e.source));
    json[QStringLiteral("configuration")] = QString::fromStdString(e.configuration);
    json[QStringLiteral("implied_utilization")] = optionalNumber(e.impliedUtilization);
    json[QStringLiteral("validation_error")] = optionalNumber(e.validationError);
    json[QStringLiteral("flags")] = flags(e);
    json[QStringLiteral("note")] = QString::fromStdString(e.note);
}

// A price's date, its age in months on the plan's day and whether that is over the limit.
void addAge(QJsonObject& json, const std::string& date, const PriceAge& age)
{
    json[QStringLiteral("price_date")] = QString::fromStdString(date);
    json[QStringLiteral("price_age_months")]
        = age.months ? QJsonValue(*age.months) : QJsonValue(QJsonValue::Null);
    json[QStringLiteral("stale_price")] = age.stale;
}

// "<key>_low" and "<key>_high" beside a figure.
void addRange(QJsonObject& json, const QString& key, const Interval& range)
{
    json[key + QStringLiteral("_low")] = range.low;
    json[key + QStringLiteral("_high")] = range.high;
}

void addRange(QJsonObject& json, const QString& key, const BreakEvenRange& range)
{
    json[key + QStringLiteral("_low")] = optionalNumber(range.low);
    json[key + QStringLiteral("_high")] = optionalNumber(range.high);
}

// Break-even runs that never happen sort last and are written as null.
QJsonValue finiteOrNull(double value)
{
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

void addPercentiles(QJsonObject& json, const QString& key, const Percentiles& p)
{
    json[key + QStringLiteral("_p10")] = finiteOrNull(p.p10);
    json[key + QStringLiteral("_p50")] = finiteOrNull(p.p50);
    json[key + QStringLiteral("_p90")] = finiteOrNull(p.p90);
}

// Keyed as in price tables and scenario files (the assumption table).
QJsonObject assumptions(const Assumptions& a)
{
    QJsonObject json;
    for (const auto& spec : kAssumptionSpecs)
        json[toQString(spec.key)] = assumptionValue(a, spec.id);
    return json;
}

// Buying against renting for the planned runs, on the break-even's terms; null without a way
// to rent the same GPUs.
QJsonValue planVerdictJson(const Results& r, const OwnedOption& o)
{
    const auto v = planVerdict(r, static_cast<std::size_t>(&o - r.options.data()));
    if (!v)
        return QJsonValue();
    return QJsonObject {
        { QStringLiteral("runs"), v->runs },
        { QStringLiteral("buy_usd"), v->buyUsd },
        { QStringLiteral("rent_usd"), v->rentUsd },
        { QStringLiteral("cloud_offer"), QString::fromStdString(r.cloud[v->cloudIndex].offer->id) },
        { QStringLiteral("buying_cheaper"), v->buyingCheaper },
        { QStringLiteral("firm"), v->firm ? QJsonValue(*v->firm) : QJsonValue() },
        { QStringLiteral("months"), v->months },
        { QStringLiteral("outlasts_life"), v->outlastsLife },
    };
}

QString powerSupplyFitCode(PowerSupplyFit fit)
{
    switch (fit) {
    case PowerSupplyFit::NotChecked:
        return QStringLiteral("not_checked");
    case PowerSupplyFit::Fits:
        return QStringLiteral("fits");
    case PowerSupplyFit::NoSpare:
        return QStringLiteral("no_spare");
    case PowerSupplyFit::Short:
        return QStringLiteral("short");
    }
    return {};
}
} // namespace

// `results` is needed to name the offer each break-even is against.
QJsonObject toJson(const Results& r, const OwnedOption& o)
{
    QJsonArray breakEvens;
    for (const auto& b : o.breakEvens) {
        QJsonObject entry {
            { QStringLiteral("cloud_offer"),
                QString::fromStdString(r.cloud[b.cloudIndex].offer->id) },
            { QStringLiteral("pricing"), pricingLabel(b.pricing) },
            { QStringLiteral("cost_per_run_usd"), b.costPerRunUsd },
            { QStringLiteral("runs"), optionalNumber(b.runs) },
            { QStringLiteral("months"), optionalNumber(b.months) },
            { QStringLiteral("months_within_lifespan"),
                b.months ? QJsonValue(b.withinLifespan) : QJsonValue() },
        };
        if (r.hasRanges)
            addRange(entry, QStringLiteral("runs"), b.runsRange);
        breakEvens.append(entry);
    }
    const CloudOption* cheapest = o.cheapestCloudIndex ? &r.cloud[*o.cheapestCloudIndex] : nullptr;
    QJsonObject json {
        { QStringLiteral("gpu"), QString::fromStdString(o.gpu->name) },
        { QStringLiteral("gpu_id"), QString::fromStdString(o.gpu->id) },
        { QStringLiteral("gpu_count"), o.gpuCount },
        { QStringLiteral("chassis"),
            o.chassis ? QJsonValue(QString::fromStdString(o.chassis->id)) : QJsonValue() },
        { QStringLiteral("system"),
            o.system ? QJsonValue(QString::fromStdString(o.system->id)) : QJsonValue() },
        { QStringLiteral("hardware_cost_usd"), o.machineCostUsd },
        { QStringLiteral("experiment_cost_usd"), o.experimentCostUsd },
        { QStringLiteral("energy_cost_usd"), o.energyCostUsd },
        { QStringLiteral("power_kw"), o.powerKw },
        // "fits", "no_spare", "short", or "not_checked" (a system sold whole, or a chassis
        // whose supplies are not listed).
        { QStringLiteral("power_supply_fit"), powerSupplyFitCode(o.powerSupplyFit) },
        // Which of its costs carry F&A ("the machine", "electricity", "owning costs"): a
        // machine's price carries it only below the equipment threshold.
        { QStringLiteral("f_and_a_on"), QJsonArray::fromStringList(indirectOnBuying(r, o)) },
        { QStringLiteral("pareto"), o.paretoHardware },
        { QStringLiteral("pareto_experiment"), o.paretoExperiment },
        { QStringLiteral("within_budget"), o.withinBudget },
        { QStringLiteral("within_deadline"), o.withinDeadline },
        { QStringLiteral("plan_total_usd"), o.planTotalUsd },
        { QStringLiteral("plan_amortized_usd"), o.planAmortizedUsd },
        { QStringLiteral("plan_calendar_days"), o.planCalendarDays },
        { QStringLiteral("break_even_runs"), optionalNumber(o.breakEvenRuns) },
        { QStringLiteral("break_even_months"), optionalNumber(o.breakEvenMonths) },
        { QStringLiteral("break_even_months_within_lifespan"),
            o.breakEvenMonths ? QJsonValue(o.breakEvenWithinLifespan) : QJsonValue() },
        { QStringLiteral("plan_verdict"), planVerdictJson(r, o) },
        { QStringLiteral("break_even_cloud_offer"),
            cheapest ? QJsonValue(QString::fromStdString(cheapest->offer->id)) : QJsonValue() },
        { QStringLiteral("break_even_pricing"),
            cheapest ? QJsonValue(pricingLabel(cheapest->cheapestPricing)) : QJsonValue() },
        { QStringLiteral("runs_per_month"), o.runsPerMonth },
        { QStringLiteral("break_evens"), breakEvens },
        { QStringLiteral("net_capex_usd"), o.netCapexUsd },
        { QStringLiteral("owning_usd_per_month"), o.owning.monthlyUsd },
        { QStringLiteral("resale_usd"), o.owning.resaleUsd },
    };
    addEstimate(json, o.estimate);
    addAge(json, o.priceDate, o.priceAge);
    if (r.hasRanges) {
        addRange(json, QStringLiteral("hardware_cost_usd"), o.machineCostRange);
        addRange(json, QStringLiteral("experiment_cost_usd"), o.experimentCostRange);
        addRange(json, QStringLiteral("energy_cost_usd"), o.energyCostRange);
        addRange(json, QStringLiteral("plan_total_usd"), o.planTotalRange);
        addRange(json, QStringLiteral("plan_amortized_usd"), o.planAmortizedRange);
        addRange(json, QStringLiteral("break_even_runs"), o.breakEvenRunsRange);
        addRange(json, QStringLiteral("break_even_months"), o.breakEvenMonthsRange);
    }
    if (r.monteCarlo) {
        const auto index = static_cast<std::size_t>(&o - r.options.data());
        if (index < r.monteCarlo->options.size()) {
            const OptionSamples& s = r.monteCarlo->options[index];
            addPercentiles(json, QStringLiteral("training_days"), s.trainingDays);
            addPercentiles(json, QStringLiteral("hardware_cost_usd"), s.machineCostUsd);
            addPercentiles(json, QStringLiteral("experiment_cost_usd"), s.experimentCostUsd);
            addPercentiles(json, QStringLiteral("break_even_runs"), s.breakEvenRuns);
            // null where there is no share to state: no offer rents the same GPUs (0 read as
            // "never pays off"), or no budget or deadline recommends anything (review).
            json[QStringLiteral("pays_off_share")]
                = o.cheapestCloudIndex ? QJsonValue(s.paysOffShare) : QJsonValue();
            json[QStringLiteral("recommended_share")]
                = r.recommendationRule != RecommendationRule::None
                ? QJsonValue(r.monteCarlo->recommendedShare[index])
                : QJsonValue();
        }
    }
    return json;
}

QJsonObject toJson(const CloudOption& c, bool ranges)
{
    QJsonArray reserved;
    for (std::size_t i = 0; i < c.reservedCostUsd.size(); ++i)
        reserved.append(QJsonObject {
            { QStringLiteral("years"), c.offer->reserved[i].years },
            { QStringLiteral("usd_per_hour"), c.offer->reserved[i].usdPerHour },
            { QStringLiteral("experiment_cost_usd"), c.reservedCostUsd[i] },
        });
    QJsonArray commitments;
    for (const Commitment& m : c.commitments) {
        QJsonObject commitment {
            { QStringLiteral("years"), m.years },
            { QStringLiteral("term_cost_usd"), m.termCostUsd },
            { QStringLiteral("runs_in_term"), m.runsInTerm },
            { QStringLiteral("break_even_runs"), optionalNumber(m.breakEvenRuns) },
            // null where there is no on-demand rate to weigh the term against (not false).
            { QStringLiteral("beats_on_demand_for_plan"),
                m.breakEvenRuns ? QJsonValue(m.beatsOnDemandForPlan) : QJsonValue() },
            { QStringLiteral("terms_for_plan"), m.termsForPlan },
        };
        // The offer whose on-demand rate it is weighed against, where not its own.
        if (!m.onDemandOfferId.empty())
            commitment.insert(
                QStringLiteral("on_demand_offer"), QString::fromStdString(m.onDemandOfferId));
        if (ranges && m.breakEvenRunsRange)
            addRange(commitment, QStringLiteral("break_even_runs"), *m.breakEvenRunsRange);
        if (ranges && m.beatsOnDemandAtLowCost && m.beatsOnDemandAtHighCost) {
            commitment[QStringLiteral("beats_on_demand_for_plan_at_low_cost")]
                = *m.beatsOnDemandAtLowCost;
            commitment[QStringLiteral("beats_on_demand_for_plan_at_high_cost")]
                = *m.beatsOnDemandAtHighCost;
        }
        commitments.append(commitment);
    }
    QJsonObject json {
        { QStringLiteral("provider"), QString::fromStdString(c.offer->provider) },
        { QStringLiteral("kind"), toQString(toString(c.offer->kind)) },
        { QStringLiteral("region"), QString::fromStdString(c.offer->region) },
        { QStringLiteral("offer"), QString::fromStdString(c.offer->instance) },
        { QStringLiteral("offer_id"), QString::fromStdString(c.offer->id) },
        { QStringLiteral("gpu"), QString::fromStdString(c.gpu->name) },
        { QStringLiteral("gpu_id"), QString::fromStdString(c.gpu->id) },
        { QStringLiteral("gpu_count"), c.gpuCount },
        // Machines rented, and the offer's hourly rates they pay: 1 and 8 for a pod of 8
        // GPUs at the per-GPU rate.
        { QStringLiteral("instances"), c.instances },
        { QStringLiteral("rates_billed"), c.ratesBilled },
        { QStringLiteral("usd_per_hour"), optionalNumber(c.offer->onDemandUsdPerHour) },
        { QStringLiteral("spot_usd_per_hour"), optionalNumber(c.offer->spotUsdPerHour) },
        // The on-demand cost of one run; the cheapest way to rent is beside it.
        { QStringLiteral("experiment_cost_usd"),
            optionalNumber(c.onDemandCostUsd ? c.onDemandCostUsd : c.cheapestCostUsd) },
        { QStringLiteral("on_demand_cost_usd"), optionalNumber(c.onDemandCostUsd) },
        { QStringLiteral("spot_cost_usd"), optionalNumber(c.spotCostUsd) },
        { QStringLiteral("reserved"), reserved },
        { QStringLiteral("cheapest_cost_usd"), optionalNumber(c.cheapestCostUsd) },
        // An offer of reservations only: a planned run's share of its whole terms.
        { QStringLiteral("terms_per_planned_run_usd"), optionalNumber(c.termsPerPlannedRunUsd) },
        { QStringLiteral("cheapest_pricing"),
            pricingLabel(c.cheapestPricing, c.cheapestReservedYears) },
        { QStringLiteral("plan_total_usd"), c.planTotalUsd },
        { QStringLiteral("plan_calendar_days"), c.planCalendarDays },
        { QStringLiteral("rate_date"), QString::fromStdString(c.offer->source.date) },
        { QStringLiteral("rate_source"), QString::fromStdString(c.offer->source.source) },
        { QStringLiteral("commitments"), commitments },
        { QStringLiteral("wait_days_per_run"), c.waitDaysPerRun },
        { QStringLiteral("application_lead_days"), c.offer->applicationLeadDays },
    };
    addEstimate(json, c.estimate);
    addAge(json, c.offer->source.date, c.rateAge);
    if (ranges) {
        addRange(json, QStringLiteral("experiment_cost_usd"),
            c.onDemandCostRange ? *c.onDemandCostRange : c.cheapestCostRange);
        if (c.onDemandCostRange)
            addRange(json, QStringLiteral("on_demand_cost_usd"), *c.onDemandCostRange);
        if (c.spotCostRange)
            addRange(json, QStringLiteral("spot_cost_usd"), *c.spotCostRange);
        addRange(json, QStringLiteral("cheapest_cost_usd"), c.cheapestCostRange);
        if (c.termsPerPlannedRunUsd)
            addRange(
                json, QStringLiteral("terms_per_planned_run_usd"), cheapestPerRunShownRange(c));
        addRange(json, QStringLiteral("plan_total_usd"), c.planTotalRange);
    }
    return json;
}

QJsonObject versioned(QJsonObject object)
{
    object.insert(QStringLiteral("schema_version"), kCliJsonSchemaVersion);
    return object;
}

QJsonObject toJson(const Results& r)
{
    QJsonArray options;
    for (const auto& o : r.options)
        options.append(toJson(r, o));
    QJsonArray cloud;
    for (const auto& c : r.cloud)
        cloud.append(toJson(c, r.hasRanges));
    QJsonArray unavailable;
    for (const auto& u : r.unavailable)
        unavailable.append(
            QJsonObject { { QStringLiteral("gpu_id"), QString::fromStdString(u.gpuId) },
                { QStringLiteral("gpu_count"), u.gpuCount },
                { QStringLiteral("reason"), unavailableReason(u, r.source) } });
    QJsonArray untimed;
    for (const auto& u : r.untimedOffers)
        untimed.append(
            QJsonObject { { QStringLiteral("offer"), QString::fromStdString(u.offer->id) },
                { QStringLiteral("gpu_id"), QString::fromStdString(u.gpu->id) } });
    QJsonArray warnings;
    for (const auto& w : r.warnings)
        warnings.append(warningText(w, r.source));
    QJsonValue monteCarlo;
    if (r.monteCarlo) {
        QJsonObject mc { { QStringLiteral("samples"), r.monteCarlo->samples },
            { QStringLiteral("seed"), QString::number(r.monteCarlo->seed) },
            { QStringLiteral("no_recommendation_share"), r.monteCarlo->noRecommendationShare } };
        if (const auto robust = recommendationRobustness(r)) {
            mc[QStringLiteral("recommended_share")] = robust->share;
            mc[QStringLiteral("alternative")] = robust->alternative
                ? QJsonValue(QJsonObject {
                    { QStringLiteral("gpu_id"),
                        QString::fromStdString(r.options[*robust->alternative].gpu->id) },
                    { QStringLiteral("gpu_count"), r.options[*robust->alternative].gpuCount },
                    { QStringLiteral("share"), robust->alternativeShare } })
                : QJsonValue(QJsonValue::Null);
            mc[QStringLiteral("robustness")] = robustnessText(r);
        }
        monteCarlo = mc;
    }
    return versioned({
        { QStringLiteral("monte_carlo"), monteCarlo },
        { QStringLiteral("model"),
            r.workload ? QString::fromStdString(r.workload->id) : QString() },
        { QStringLiteral("source"), toQString(toString(r.source)) },
        { QStringLiteral("price_set"), QString::fromStdString(r.priceSet) },
        { QStringLiteral("sponsor"), QString::fromStdString(r.indirectRules.id) },
        { QStringLiteral("today"), QString::fromStdString(r.today) },
        { QStringLiteral("assumptions"), assumptions(r.assumptions) },
        { QStringLiteral("options"), options },
        { QStringLiteral("cloud"), cloud },
        { QStringLiteral("unavailable"), unavailable },
        { QStringLiteral("untimed_offers"), untimed },
        { QStringLiteral("recommended"),
            r.recommended ? QJsonValue(toJson(r, r.options[*r.recommended])) : QJsonValue::Null },
        { QStringLiteral("recommendation_reason"), recommendationReason(r) },
        // "" where the whole range keeps within the budget and deadline.
        { QStringLiteral("recommendation_range_note"), recommendationRangeNote(r) },
        { QStringLiteral("recommendation_set_aside"),
            r.setAsideAbovePeak ? QJsonValue(toJson(r, r.options[*r.setAsideAbovePeak]))
                                : QJsonValue::Null },
        { QStringLiteral("warnings"), warnings },
    });
}

} // namespace gpuplan::views

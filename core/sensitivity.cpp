#include "core/sensitivity.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuplan {

namespace {

struct Input {
    std::string key;
    std::string label;
    double lowValue = 0.0;
    double highValue = 0.0;
    InputPositions low;
    InputPositions high;
};

InputPositions single(double InputPositions::*field, double position)
{
    InputPositions at;
    at.*field = position;
    return at;
}

std::optional<double> breakEvenAgainst(
    const OwnedOption& o, std::size_t cloudIndex, Pricing pricing)
{
    for (const auto& b : o.breakEvens)
        if (b.cloudIndex == cloudIndex && b.pricing == pricing)
            return b.runs;
    return std::nullopt;
}

// The pay-as-you-go rate of a cloud option at `pricing` (USD an hour for the GPUs one rate
// buys: gpus_per_instance).
std::optional<double> rateOf(const CloudOption& c, Pricing pricing)
{
    return pricing == Pricing::Spot ? c.offer->spotUsdPerHour : c.offer->onDemandUsdPerHour;
}

} // namespace

std::string_view toString(SensitivityMetric metric)
{
    switch (metric) {
    case SensitivityMetric::BreakEvenRuns:
        return "break_even_runs";
    case SensitivityMetric::ExperimentCostUsd:
        return "experiment_cost_usd";
    }
    return "";
}

double SensitivityRow::swing() const
{
    if (metricLow && metricHigh)
        return std::abs(*metricHigh - *metricLow);
    if (metricLow || metricHigh)
        return std::numeric_limits<double>::infinity();
    return 0.0;
}

std::optional<Pricing> sensitivityPricing(const CloudOption& c)
{
    if (!c.onDemandCostUsd && !c.spotCostUsd)
        return std::nullopt;
    return c.spotCostUsd && (!c.onDemandCostUsd || *c.spotCostUsd < *c.onDemandCostUsd)
        ? Pricing::Spot
        : Pricing::OnDemand;
}

std::optional<std::size_t> sensitivityOfferAmong(
    const Results& point, std::size_t optionIndex, const std::vector<std::size_t>& offers)
{
    if (optionIndex >= point.options.size())
        return std::nullopt;
    std::optional<std::size_t> against;
    for (const std::size_t i : offers) {
        if (i >= point.cloud.size())
            continue;
        const CloudOption& c = point.cloud[i];
        if (c.gpuCount != point.options[optionIndex].gpuCount || !c.cheapestCostUsd
            || c.cheapestIsCommitment || c.offer->kind == OfferKind::Allocation)
            continue;
        if (!against || *c.cheapestCostUsd < *point.cloud[*against].cheapestCostUsd)
            against = i;
    }
    return against;
}

std::vector<SensitivityRow> sensitivity(const Scenario& scenario, const Results& point,
    std::size_t optionIndex, std::optional<std::size_t> cloudIndex)
{
    std::vector<SensitivityRow> rows;
    if (optionIndex >= point.options.size())
        return rows;
    const OwnedOption& option = point.options[optionIndex];
    if (!cloudIndex)
        cloudIndex = option.cheapestCloudIndex;
    std::optional<Pricing> pricing;
    if (cloudIndex && *cloudIndex < point.cloud.size())
        pricing = sensitivityPricing(point.cloud[*cloudIndex]);

    std::vector<Input> inputs;
    inputs.push_back({ std::string(kTrainingDaysInput), "Training time", option.estimate.daysLow,
        option.estimate.daysHigh, single(&InputPositions::trainingDays, -1.0),
        single(&InputPositions::trainingDays, 1.0) });
    // The price's ends are read from the evaluations below.
    inputs.push_back({ std::string(kPurchasePriceInput), "Machine price", 0.0, 0.0,
        single(&InputPositions::purchasePrices, -1.0),
        single(&InputPositions::purchasePrices, 1.0) });
    if (pricing) {
        const CloudOption& rented = point.cloud[*cloudIndex];
        const double rate = *rateOf(rented, *pricing);
        const Interval range = rateRange(rate, *pricing == Pricing::Spot);
        // The rate as the offer lists it, for the GPUs one rate buys: "$2.08/h" alone read as
        // per GPU where it was an 8-GPU instance's, and "per instance" as a whole pod's where
        // RunPod's is per GPU.
        const int perRate = rented.offer->gpusPerInstance;
        inputs.push_back({ std::string(kCloudRateInput),
            perRate > 1 ? "Cloud rate (per instance of " + std::to_string(perRate) + " GPUs)"
                        : std::string("Cloud rate (per GPU)"),
            range.low, range.high, single(&InputPositions::cloudRates, -1.0),
            single(&InputPositions::cloudRates, 1.0) });
    }
    for (const auto& spec : kAssumptionSpecs) {
        if (!movedAsAssumption(spec.id))
            continue;
        const double value = assumptionValue(scenario.assumptions, spec.id);
        const Interval range = assumptionRange(spec.id, value);
        if (range.low == range.high)
            continue;
        Input in { std::string(spec.key), std::string(spec.label), range.low, range.high, {}, {} };
        in.low.assumption(spec.id) = -1.0;
        in.high.assumption(spec.id) = 1.0;
        inputs.push_back(std::move(in));
    }

    Scenario moved = scenario;
    moved.ranges = false;
    moved.monteCarloSamples = 0;
    std::vector<SensitivityRow> breakEvenRows;
    std::vector<SensitivityRow> costRows;
    for (auto& in : inputs) {
        moved.positions = in.low;
        const Results low = evaluate(moved);
        moved.positions = in.high;
        const Results high = evaluate(moved);
        if (low.options.size() != point.options.size()
            || high.options.size() != point.options.size())
            continue;
        const OwnedOption& l = low.options[optionIndex];
        const OwnedOption& h = high.options[optionIndex];
        if (in.key == kPurchasePriceInput) {
            in.lowValue = l.machineCostUsd;
            in.highValue = h.machineCostUsd;
        }
        SensitivityRow row { in.key, in.label, in.lowValue, in.highValue,
            SensitivityMetric::ExperimentCostUsd, l.experimentCostUsd, h.experimentCostUsd };
        if (*row.metricLow != *row.metricHigh)
            costRows.push_back(row);
        if (pricing) {
            row.metric = SensitivityMetric::BreakEvenRuns;
            row.metricLow = breakEvenAgainst(l, *cloudIndex, *pricing);
            row.metricHigh = breakEvenAgainst(h, *cloudIndex, *pricing);
            if (row.metricLow != row.metricHigh)
                breakEvenRows.push_back(row);
        }
    }
    auto bySwing
        = [](const SensitivityRow& a, const SensitivityRow& b) { return a.swing() > b.swing(); };
    std::stable_sort(breakEvenRows.begin(), breakEvenRows.end(), bySwing);
    std::stable_sort(costRows.begin(), costRows.end(), bySwing);
    rows = std::move(breakEvenRows);
    rows.insert(rows.end(), costRows.begin(), costRows.end());
    return rows;
}

} // namespace gpuplan

#pragma once

// Which assumption would flip the decision: each uncertain input moved across its range alone,
// the others at their stated values, through evaluate() — the tornado chart's rows.

#include "core/evaluate.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan {

enum class SensitivityMetric {
    BreakEvenRuns, // buying the machine against the offer
    ExperimentCostUsd, // the machine's per-experiment cost
};

std::string_view toString(SensitivityMetric metric); // "break_even_runs", "experiment_cost_usd"

// The inputs that are not assumptions, by key.
inline constexpr std::string_view kTrainingDaysInput = "training_days";
inline constexpr std::string_view kPurchasePriceInput = "purchase_price";
inline constexpr std::string_view kCloudRateInput = "cloud_rate";

struct SensitivityRow {
    std::string input; // an assumption's key, or one of the k*Input keys above
    std::string label; // "Electricity price", "Training time"
    double lowValue = 0.0; // the input at the low end of its range...
    double highValue = 0.0; // ... and at the high end (days, USD, USD/hour, or the assumption's)
    SensitivityMetric metric = SensitivityMetric::BreakEvenRuns;
    // The metric with the input at its low and at its high end; nullopt: buying never pays off.
    std::optional<double> metricLow;
    std::optional<double> metricHigh;
    // |metricHigh - metricLow|; +infinity when buying pays off at one end only.
    double swing() const;
};

// The rows for option `optionIndex` of `point` (= evaluate(scenario)) against cloud option
// `cloudIndex` at its cheapest pay-as-you-go pricing (nullopt: the option's cheapest way to
// rent the same GPUs; no break-even rows when there is none). Break-even rows first, then
// per-experiment cost rows, each sorted by swing, largest first; inputs that do not move a
// metric give no row for it.
std::vector<SensitivityRow> sensitivity(const Scenario& scenario, const Results& point,
    std::size_t optionIndex, std::optional<std::size_t> cloudIndex);

// The pay-as-you-go pricing sensitivity() breaks even against for a cloud option: the cheaper
// of on-demand and spot; nullopt where it rents by neither.
std::optional<Pricing> sensitivityPricing(const CloudOption& c);

// Of `offers` (indices into point.cloud), the one a view's tornado breaks even against for
// option `optionIndex`: the cheapest per run that rents the same number of GPUs by the hour,
// paid (an allocation's $0 is granted, not bought; a reservation's per-run share is no price
// to break even against); nullopt where none does.
std::optional<std::size_t> sensitivityOfferAmong(
    const Results& point, std::size_t optionIndex, const std::vector<std::size_t>& offers);

} // namespace gpuplan

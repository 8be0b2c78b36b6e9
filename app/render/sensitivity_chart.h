#pragma once

// The tornado chart of core/sensitivity.h's rows, as chart data: one row per input, named on the
// axis, largest swing at the top; from the line at the stated value a bar to the metric with the
// input at its low end and one to the metric at its high end, each labelled with the input's
// value there. Nothing is computed here but the layout.

#include "app/render/chart_data.h"
#include "core/sensitivity.h"

#include <optional>
#include <vector>

namespace gpuplan::render {

struct SensitivityChartOptions {
    SensitivityMetric metric = SensitivityMetric::BreakEvenRuns;
    QString machine; // "8×H100 SXM", for the title
    QString against; // the offer, for the title; empty for per-experiment cost
    std::optional<double> statedValue; // the metric at the stated values: a vertical line
};

ChartData sensitivityChart(
    const std::vector<SensitivityRow>& rows, const SensitivityChartOptions& options);

// The tornado of machine `optionIndex` of `point` (= evaluate(scenario)) against cloud option
// `cloudIndex` (nullopt: the machine's cheapest way to rent the same GPUs), as the CLI, the GUI
// and the report draw it: core's sensitivity rows, titled, with the stated value's line at the
// pricing core compares with. nullopt, with *error, for a break-even with nothing to rent.
std::optional<ChartData> machineSensitivityChart(const Scenario& scenario, const Results& point,
    std::size_t optionIndex, std::optional<std::size_t> cloudIndex, SensitivityMetric metric,
    QString* error);

} // namespace gpuplan::render

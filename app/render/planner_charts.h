#pragma once

// The paper's Fig. 7 as chart data, built from Results only (no cost is computed here).

#include "app/render/chart_data.h"
#include "app/render/rental_series.h"
#include "core/evaluate.h"

#include <map>
#include <optional>
#include <vector>

namespace gpuplan::render {

struct PlannerChartOptions {
    bool logX = true;
    bool logY = true;
    std::optional<double> budgetUsd; // vertical line on the hardware-cost chart
    std::optional<double> deadlineDays; // horizontal (hardware) or vertical (experiment) line
    std::optional<std::size_t> highlightOption; // index into Results::options
    // Estimates of the same model from another source (e.g. measured by gpuplan-bench), drawn
    // beside the main ones as hollow markers of their own style.
    std::vector<const Results*> comparisons;
    CloudFilter cloud; // which rental offers the experiment-cost chart draws
};

// Fig. 7 top: training days (y) against machine cost (x), one series per GPU type, labelled
// points ("8×A100 SXM"), the Pareto frontier, budget and deadline lines.
ChartData hardwareCostChart(const Results& results, const PlannerChartOptions& options);

// Fig. 7 bottom: per-experiment cost (y) against training days (x) for the owned options under
// the amortisation setting, and the ways to rent (rental_series.h), each with its own marker.
ChartData experimentCostChart(const Results& results, const PlannerChartOptions& options);

// "8×A100 SXM": the GPU name without its memory size, for point labels.
QString shortMachineLabel(const OwnedOption& option);
QString withoutMemorySize(const std::string& gpuName); // "A100 SXM 80GB" -> "A100 SXM"
// "RunPod 2×RTX 3090": who rents it and what, for titles, tooltips and the report.
QString rentalLabel(const CloudOption& option);

// Colour of the n-th GPU type (colour-blind-safe palette, stable across both charts).
QColor gpuColor(std::size_t index);
// The colour each GPU type of `results` is drawn in on both charts (in the order its options
// come): the options table's key to them, which holds where the legend has no room for theirs.
std::map<const GpuSpec*, QColor> gpuColors(const Results& results);

} // namespace gpuplan::render

#pragma once

// Buying one machine against renting the same GPUs: cumulative cost after k runs.

#include "app/render/chart_data.h"
#include "core/evaluate.h"

#include <vector>

namespace gpuplan::render {

struct BuyVsRentOptions {
    std::size_t optionIndex = 0; // the machine (index into Results::options)
    // Cloud options to compare (indices into Results::cloud); empty = every offer of the same
    // GPU type and count.
    std::vector<std::size_t> cloudIndices;
    int maxRuns = 0; // 0 = enough to show the break-even and the planned runs
    // x axis in months at the core's run rate (OwnedOption::runsPerMonth) instead of runs.
    bool months = false;
};

// Offers of the same GPU type and count as the machine.
std::vector<std::size_t> matchingCloudOffers(const Results& results, std::size_t optionIndex);

// Buy = machine + energy per run, one line; rent = runs × cost per run, one line per offer and
// pricing (on-demand solid, spot dashed, reservations at their per-run share). The break-even
// against the cheapest pay-as-you-go offer is a vertical line.
ChartData buyVsRentChart(const Results& results, const BuyVsRentOptions& options);

// The break-even in words, from the core's numbers: "Buying 8×A100 SXM pays off from run 7
// (break-even at 6.2 runs, about 9 months), against RunPod on-demand at $1,234 per run."
QString buyVsRentConclusion(const Results& results, std::size_t optionIndex);

} // namespace gpuplan::render

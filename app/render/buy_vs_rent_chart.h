#pragma once

// Buying one machine against renting the same GPUs: cumulative cost after k runs.

#include "app/render/chart_data.h"
#include "core/evaluate.h"

#include <QString>

#include <optional>
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

// Core's break-evens of the machine (OwnedOption::breakEvens) against the offers in
// `cloudIndices`, in that order; out-of-range indices are skipped.
std::vector<OfferBreakEven> offerBreakEvens(
    const Results& results, std::size_t optionIndex, const std::vector<std::size_t>& cloudIndices);

// "RunPod 2×A100 SXM, on-demand": the offer and price a break-even is against.
// `shown`: the offers named beside it; one of the same provider and GPUs adds the instance.
QString breakEvenOfferName(const Results& results, const OfferBreakEven& breakEven,
    const std::vector<std::size_t>& shown = {});

// "1 run", "2 runs", "6.2 runs": a count with its noun in the right number.
QString countOf(double value, int decimals, const QString& singular, const QString& plural);

// A run rate: "1 run a month", "1.50 runs a month", "0.56", "0.013 runs a month" (whole rates
// without decimals, two significant digits below one).
QString runRateText(double runsPerMonth);

// Buy = machine + energy per run, one line; rent = runs × cost per run, one line per offer and
// pricing (on-demand solid, spot dashed, reservations as steps: a whole term paid up front, the
// next when the runs outgrow it, core/costing/reservation.h). Where the buy line
// crosses each chosen on-demand or spot line, a labelled break-even marker.
ChartData buyVsRentChart(const Results& results, const BuyVsRentOptions& options);

// The break-even in words, from the core's numbers: "Buying 8×A100 SXM pays off from run 7
// (break-even after 6.2 runs, about 9 months at 1 run a month) against RunPod 8×A100 SXM,
// on-demand at $1,234 per run." With `cloudIndices` empty, against the cheapest matching offer;
// otherwise one sentence per chosen offer and price. Without `inMonths`, the break-even in runs
// only (the budget justification places it in the grant's own years instead of at the planner's run
// rate).
QString buyVsRentConclusion(const Results& results, std::size_t optionIndex,
    const std::vector<std::size_t>& cloudIndices = {}, bool inMonths = true);

// Which costs less for the planned runs (core's planVerdict, on the break-even's terms): both
// totals, the cheaper way and by how much, whether the ranges can turn it, and whether the runs
// outlast the machine's life; against the cheapest of `chosenOffers` where some are chosen (the
// offers the break-even sentences are against). Empty when nothing rents the same GPUs.
QString planVerdictText(const Results& results, std::size_t optionIndex,
    const std::vector<std::size_t>& chosenOffers = {});

} // namespace gpuplan::render

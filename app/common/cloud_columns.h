#pragma once

#include "core/evaluate.h"

#include <QString>
#include <QVariant>

namespace gpuplan::views {

// The columns of the cloud-offers table (GUI, CLI, CSV).
enum class CloudColumn {
    Provider,
    Offer,
    Gpu,
    GpuCount,
    Instances,
    Days,
    OnDemandRate,
    SpotRate,
    OnDemandCost,
    SpotCost,
    CheapestCost,
    RateDate,
    Flags,
};
inline constexpr int kCloudColumnCount = 13;

// The column's name: stable, as the CSV's header reads it.
QString header(CloudColumn c);
// The name a table shows: rates say they are per instance (an instance may hold 8 GPUs), and
// where the results' sponsor's rules put an indirect rate on cloud spend the per-run costs say
// that they include it. header(c) where no results are planned yet.
QString displayHeader(CloudColumn c, const Results* results);
QString displayText(const CloudOption& o, CloudColumn c);
QVariant sortValue(const CloudOption& o, CloudColumn c);

// The range of the "Cheapest per run" cell: an offer of reservations only is shown at a planned
// run's share of its whole terms (termsPerPlannedRunUsd), and its range is the plan total's, per
// run; otherwise the cheapest cost's own.
Interval cheapestPerRunShownRange(const CloudOption& option);

// What one planned run costs where offers are ranked against each other ("the cheapest way to
// rent"): the cheapest pay-as-you-go cost per run, or, for an offer of reservations only, its
// plan total (whole terms) over the planned runs: ranked by a run's share of its term, a $650k
// five-year reservation came first for a one-run plan.
double rankingCostPerRunUsd(const CloudOption& o, int plannedRuns);

} // namespace gpuplan::views

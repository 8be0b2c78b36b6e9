#pragma once

#include "core/catalog.h"
#include "core/costing.h"
#include "core/training_estimate.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

// What the user set. The catalog is shared and immutable; a scenario is cheap to copy.
struct Scenario {
    std::shared_ptr<const Catalog> catalog;
    std::string modelId;
    SourcePolicy source = SourcePolicy::Best;
    std::vector<int> gpuCounts { 1, 2, 4, 8 };
    std::vector<std::string> gpuIds; // empty = every GPU with a purchase price
    Assumptions assumptions; // usually catalog->defaults, edited by the user
    std::optional<double> budgetUsd; // hardware budget for "fastest within budget"
    std::optional<double> deadlineDays; // for "cheapest within deadline"
};

// One machine the user could buy.
struct OwnedOption {
    const GpuSpec* gpu = nullptr;
    const ChassisSpec* chassis = nullptr;
    int gpuCount = 0;
    TrainingEstimate estimate;
    double machineCostUsd = 0.0;
    double experimentCostUsd = 0.0; // amortised (the paper's Fig. 7 bottom)
    double energyCostUsd = 0.0; // per run
    double powerKw = 0.0;
    bool paretoHardware = false; // on the days-vs-machine-cost frontier
    bool paretoExperiment = false; // on the days-vs-per-experiment-cost frontier
    bool withinBudget = true;
    bool withinDeadline = true;
    // The project plan: plannedRuns back to back.
    double planTotalUsd = 0.0; // machine + energy for all runs
    double planAmortizedUsd = 0.0; // per-experiment + energy, for all runs
    double planCalendarDays = 0.0;
    // Against the cheapest on-demand cloud offer of the same GPU and count, if any.
    std::optional<std::size_t> cheapestCloudIndex;
    std::optional<double> breakEvenRuns;
    // At assumptions.runsPerMonth, or as fast as the machine can run them back to back.
    std::optional<double> breakEvenMonths;
    // The run rate the months are counted at: assumptions.runsPerMonth, capped at what the
    // machine fits back to back.
    double runsPerMonth = 0.0;
};

// One way to rent the same work.
struct CloudOption {
    const CloudOffer* offer = nullptr;
    const GpuSpec* gpu = nullptr;
    int gpuCount = 0; // GPUs used for the run
    int instances = 0;
    TrainingEstimate estimate;
    std::optional<double> onDemandCostUsd;
    std::optional<double> spotCostUsd;
    std::vector<double> reservedCostUsd; // one per offer->reserved, same order
    // The lowest pay-as-you-go cost (on-demand or spot). A reservation is paid for its whole
    // term whether used or not, so its per-run cost only counts when nothing else is offered.
    std::optional<double> cheapestCostUsd;
    std::string cheapestPricing; // "on-demand", "spot", "reserved 5-yr"
    bool cheapestIsCommitment = false; // only a reservation: not pay-as-you-go
    double planTotalUsd = 0.0; // plannedRuns at the cheapest rate
    double planCalendarDays = 0.0;
};

// An (GPU, count) the source knows to be infeasible, or has no estimate for.
struct Unavailable {
    std::string gpuId;
    int gpuCount = 0;
    std::string reason;
};

struct Results {
    const Workload* workload = nullptr;
    SourcePolicy source = SourcePolicy::Best;
    Assumptions assumptions;
    std::vector<OwnedOption> options; // feasible, sorted by GPU then count
    std::vector<CloudOption> cloud; // sorted by provider then offer then count
    std::vector<Unavailable> unavailable;
    std::optional<std::size_t> recommended; // index into options
    std::string recommendationReason; // "fastest within $40,000 budget"
    std::vector<std::string> warnings;
};

// The only place costs are computed. Pure: same scenario, same results. An unknown model id
// yields Results with workload == nullptr and a warning.
Results evaluate(const Scenario& scenario);

} // namespace gpuplan

#pragma once

// When buying beats renting: break-even runs and months, and the cumulative cost curves.

#include "core/assumptions.h"
#include "core/sponsor.h"

#include <optional>
#include <vector>

namespace gpuplan {

// Runs after which buying (capex + its cost per run: electricity, and the owning costs of the
// months a run takes where any are set) is cheaper than renting (cost per run):
// capex / (cloud per run - buy per run). nullopt when renting is never dearer per run.
std::optional<double> breakEvenRuns(
    double capexUsd, double cloudCostPerRunUsd, double buyCostPerRunUsd);

// Cumulative cost of buying vs renting after k runs, for the buy-vs-rent chart.
struct BuyVsRentPoint {
    int runs = 0;
    double buyUsd = 0.0; // capex + runs * energy
    double rentUsd = 0.0; // runs * cloud cost per run
};
std::vector<BuyVsRentPoint> buyVsRentCurve(
    double capexUsd, double energyPerRunUsd, double cloudPerRunUsd, int maxRuns);

// Buying a machine against renting at one hourly rate, from the figures a user has at hand
// (gpuplan-cli breakeven). The same rules as the planner: energy at the machine's draw * PUE,
// F&A where the sponsor's rules put each cost in the base, amortisation over the lifespan.
struct BreakEvenInput {
    double hardwareCostUsd = 0.0;
    double cloudUsdPerHour = 0.0; // for all the GPUs of one run
    double hoursPerRun = 0.0;
    double itPowerKw = 0.0; // what the machine draws, before the facility's PUE
};

struct BreakEven {
    double cloudCostPerRunUsd = 0.0;
    double energyCostPerRunUsd = 0.0;
    double purchaseUsd = 0.0; // the price with F&A where the machine is in the base (supplies)
    double experimentCostUsd = 0.0; // the machine's amortised share of one run
    std::optional<double> runs;
    // Months of back-to-back runs until the break-even.
    std::optional<double> monthsContinuous;
    // Whether that happens within the amortisation period.
    bool withinLifespan = false;
    // The planner's run rate (assumptions.runsPerMonth, capped at what fits back to back), the
    // months to the break-even at it, and whether they fall within the machine's life: what
    // `plan` states per option.
    double runsPerMonth = 0.0;
    std::optional<double> monthsAtRunRate;
    bool withinLifespanAtRunRate = false;
};

BreakEven breakEven(const BreakEvenInput& input, const Assumptions& a, const SponsorRules& sponsor);

} // namespace gpuplan

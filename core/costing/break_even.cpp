#include "core/costing/break_even.h"

#include "core/costing/calendar.h"
#include "core/costing/indirect.h"
#include "core/costing/owning.h"
#include "core/costing/plan.h"
#include "core/costing/renting.h"

#include <cmath>

namespace gpuplan {

std::optional<double> breakEvenRuns(
    double capexUsd, double cloudCostPerRunUsd, double buyCostPerRunUsd)
{
    const double savingPerRun = cloudCostPerRunUsd - buyCostPerRunUsd;
    if (savingPerRun <= 0.0 || !std::isfinite(savingPerRun))
        return std::nullopt;
    return capexUsd / savingPerRun;
}

std::vector<BuyVsRentPoint> buyVsRentCurve(
    double capexUsd, double energyPerRunUsd, double cloudPerRunUsd, int maxRuns)
{
    std::vector<BuyVsRentPoint> curve;
    for (int runs = 0; runs <= maxRuns; ++runs)
        curve.push_back({ runs, capexUsd + runs * energyPerRunUsd, runs * cloudPerRunUsd });
    return curve;
}

BreakEven breakEven(const BreakEvenInput& in, const Assumptions& a, const SponsorRules& sponsor)
{
    const double days = in.hoursPerRun / calendar::kHoursPerDay;
    BreakEven out;
    out.purchaseUsd = withIndirectUsd(
        in.hardwareCostUsd, machineCategory(in.hardwareCostUsd, sponsor), sponsor, a);
    out.cloudCostPerRunUsd
        = cloudCostUsd(in.cloudUsdPerHour, /*rates=*/1, days, Pricing::OnDemand, a, sponsor);
    out.energyCostPerRunUsd
        = withIndirectUsd(energyCostUsd(facilityPowerKw(in.itPowerKw, a), days, a),
            BudgetCategory::Energy, sponsor, a);
    out.experimentCostUsd = experimentCostUsd(out.purchaseUsd, days, a);
    out.runs = breakEvenRuns(out.purchaseUsd, out.cloudCostPerRunUsd, out.energyCostPerRunUsd);
    out.runsPerMonth = cappedRunsPerMonth(days, a);
    if (out.runs) {
        out.monthsContinuous = monthsAtRunRate(*out.runs, runCapacityPerMonth(days));
        out.withinLifespan = out.monthsContinuous && withinLifespan(*out.monthsContinuous, a);
        out.monthsAtRunRate = monthsAtRunRate(*out.runs, out.runsPerMonth);
        out.withinLifespanAtRunRate
            = out.monthsAtRunRate && withinLifespan(*out.monthsAtRunRate, a);
    }
    return out;
}

} // namespace gpuplan

#include "core/costing/plan_verdict.h"

#include "core/costing/plan.h"

namespace gpuplan {

std::optional<PlanVerdict> planVerdict(const Results& r, std::size_t optionIndex)
{
    if (optionIndex >= r.options.size() || !r.options[optionIndex].cheapestCloudIndex)
        return std::nullopt;
    const OwnedOption& o = r.options[optionIndex];
    const CloudOption& c = r.cloud[*o.cheapestCloudIndex];
    PlanVerdict v;
    v.cloudIndex = *o.cheapestCloudIndex;
    v.runs = r.assumptions.plannedRuns;
    v.buyUsd = o.netCapexUsd + v.runs * o.buyCostPerRunUsd;
    v.rentUsd = v.runs * c.cheapestCostUsd.value_or(0.0);
    v.buyingCheaper = v.buyUsd < v.rentUsd;
    if (r.hasRanges) {
        // Buying is cheaper past the break-even; firm past its high end (which, nullopt, means
        // it may never pay off), renting firm before its low end (nullopt: never pays off).
        const BreakEvenRange& range = o.breakEvenRunsRange;
        v.firm = v.buyingCheaper ? range.high && v.runs > *range.high
                                 : !range.low || v.runs < *range.low;
    }
    if (const auto months = monthsAtRunRate(v.runs, o.runsPerMonth)) {
        v.months = *months;
        v.outlastsLife = !withinLifespan(*months, r.assumptions);
    }
    return v;
}

} // namespace gpuplan

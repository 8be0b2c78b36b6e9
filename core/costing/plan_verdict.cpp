#include "core/costing/plan_verdict.h"

#include "core/costing/plan.h"

#include <algorithm>

namespace gpuplan {

std::optional<PlanVerdict> planVerdict(
    const Results& r, std::size_t optionIndex, const std::vector<std::size_t>& chosenOffers)
{
    if (optionIndex >= r.options.size())
        return std::nullopt;
    const OwnedOption& o = r.options[optionIndex];
    PlanVerdict v;
    double costPerRun = 0.0;
    const BreakEvenRange* range = &o.breakEvenRunsRange;
    if (chosenOffers.empty()) {
        if (!o.cheapestCloudIndex)
            return std::nullopt;
        const CloudOption& c = r.cloud[*o.cheapestCloudIndex];
        v.cloudIndex = *o.cheapestCloudIndex;
        v.pricing = c.cheapestPricing;
        costPerRun = c.cheapestCostUsd.value_or(0.0);
    } else {
        // The break-evens against the chosen offers are per price; the cheapest decides.
        const OfferBreakEven* cheapest = nullptr;
        for (const OfferBreakEven& b : o.breakEvens)
            if (std::find(chosenOffers.begin(), chosenOffers.end(), b.cloudIndex)
                    != chosenOffers.end()
                && (!cheapest || b.costPerRunUsd < cheapest->costPerRunUsd))
                cheapest = &b;
        if (!cheapest)
            return std::nullopt;
        v.cloudIndex = cheapest->cloudIndex;
        v.pricing = cheapest->pricing;
        costPerRun = cheapest->costPerRunUsd;
        range = &cheapest->runsRange;
    }
    v.runs = r.assumptions.plannedRuns;
    v.buyUsd = o.netCapexUsd + v.runs * o.buyCostPerRunUsd;
    v.rentUsd = v.runs * costPerRun;
    v.buyingCheaper = v.buyUsd < v.rentUsd;
    if (r.hasRanges) {
        // Buying is cheaper past the break-even; firm past its high end (which, nullopt, means
        // it may never pay off), renting firm before its low end (nullopt: never pays off).
        v.firm = v.buyingCheaper ? range->high && v.runs > *range->high
                                 : !range->low || v.runs < *range->low;
    }
    if (const auto months = monthsAtRunRate(v.runs, o.runsPerMonth))
        v.months = *months;
    v.outlastsLife = planOutlastsLife(v.runs, o.runsPerMonth, r.assumptions);
    return v;
}

} // namespace gpuplan

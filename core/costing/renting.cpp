#include "core/costing/renting.h"

#include "core/costing/calendar.h"
#include "core/costing/indirect.h"

#include <algorithm>
#include <vector>

namespace gpuplan {

namespace {
int groupsOf(int gpuCount, int perGroup)
{
    perGroup = std::max(1, perGroup);
    return (gpuCount + perGroup - 1) / perGroup;
}
} // namespace

int ratesBilled(const CloudOffer& offer, int gpuCount)
{
    return groupsOf(gpuCount, offer.gpusPerInstance);
}

int mostGpusInOneInstance(const CloudOffer& offer)
{
    const int listed = offer.instanceGpuCounts.empty() ? 0 : offer.instanceGpuCounts.back();
    return std::max({ 1, offer.gpusPerInstance, offer.maxGpusPerInstance, listed });
}

std::vector<int> gpuCountsInOneInstance(const CloudOffer& offer)
{
    if (!offer.instanceGpuCounts.empty())
        return offer.instanceGpuCounts;
    const int step = std::max(1, offer.gpusPerInstance);
    std::vector<int> counts;
    for (int n = step; n <= mostGpusInOneInstance(offer); n += step)
        counts.push_back(n);
    return counts;
}

int instancesNeeded(const CloudOffer& offer, int gpuCount)
{
    if (offer.instanceGpuCounts.empty())
        return groupsOf(gpuCount, mostGpusInOneInstance(offer));
    // The fewest instances whose sizes add up to the rates billed, in units of gpusPerInstance
    // (a change-making problem: greedy is not the fewest for every list, {1, 3, 4} making 6).
    // The reader makes the smallest size one unit, so every count is reachable.
    const int perUnit = std::max(1, offer.gpusPerInstance);
    const int units = ratesBilled(offer, gpuCount);
    if (units <= 0)
        return 0;
    std::vector<int> fewest(static_cast<std::size_t>(units) + 1, units);
    fewest[0] = 0;
    for (int u = 1; u <= units; ++u)
        for (const int gpus : offer.instanceGpuCounts)
            if (const int size = gpus / perUnit; size >= 1 && size <= u)
                fewest[static_cast<std::size_t>(u)] = std::min(fewest[static_cast<std::size_t>(u)],
                    fewest[static_cast<std::size_t>(u - size)] + 1);
    return fewest[static_cast<std::size_t>(units)];
}

double spotRunDays(double trainingDays, const Assumptions& a)
{
    return trainingDays * (1.0 + a.spotRestartOverhead);
}

double runDays(double trainingDays, Pricing pricing, const Assumptions& a)
{
    return pricing == Pricing::Spot ? spotRunDays(trainingDays, a) : trainingDays;
}

double cloudSpendUsd(double usdPerInstanceHour, int rates, double trainingDays, Pricing pricing,
    const Assumptions& a)
{
    const double hours = runDays(trainingDays, pricing, a) * calendar::kHoursPerDay;
    return usdPerInstanceHour * hours * rates;
}

double cloudCostUsd(double usdPerInstanceHour, int rates, double trainingDays, Pricing pricing,
    const Assumptions& a, const SponsorRules& sponsor)
{
    return withIndirectUsd(cloudSpendUsd(usdPerInstanceHour, rates, trainingDays, pricing, a),
        BudgetCategory::ComputingServices, sponsor, a);
}

double commitmentCostUsd(double usdPerInstanceHour, int rates, double termYears,
    const Assumptions& a, const SponsorRules& sponsor)
{
    const double hours = termYears * calendar::kDaysPerYear * calendar::kHoursPerDay;
    return withIndirectUsd(
        usdPerInstanceHour * hours * rates, BudgetCategory::ComputingServices, sponsor, a);
}

} // namespace gpuplan

#include "core/costing/renting.h"

#include "core/costing/calendar.h"
#include "core/costing/indirect.h"

#include <algorithm>

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
    return std::max({ 1, offer.gpusPerInstance, offer.maxGpusPerInstance });
}

int instancesNeeded(const CloudOffer& offer, int gpuCount)
{
    return groupsOf(gpuCount, mostGpusInOneInstance(offer));
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

#include "core/costing/renting.h"

#include "core/costing/calendar.h"
#include "core/costing/indirect.h"

namespace gpuplan {

int instancesNeeded(const CloudOffer& offer, int gpuCount)
{
    const int perInstance = offer.gpusPerInstance > 0 ? offer.gpusPerInstance : 1;
    return (gpuCount + perInstance - 1) / perInstance;
}

double spotRunDays(double trainingDays, const Assumptions& a)
{
    return trainingDays * (1.0 + a.spotRestartOverhead);
}

double runDays(double trainingDays, Pricing pricing, const Assumptions& a)
{
    return pricing == Pricing::Spot ? spotRunDays(trainingDays, a) : trainingDays;
}

double cloudSpendUsd(double usdPerInstanceHour, int instances, double trainingDays, Pricing pricing,
    const Assumptions& a)
{
    const double hours = runDays(trainingDays, pricing, a) * calendar::kHoursPerDay;
    return usdPerInstanceHour * hours * instances;
}

double cloudCostUsd(double usdPerInstanceHour, int instances, double trainingDays, Pricing pricing,
    const Assumptions& a, const SponsorRules& sponsor)
{
    return withIndirectUsd(cloudSpendUsd(usdPerInstanceHour, instances, trainingDays, pricing, a),
        BudgetCategory::ComputingServices, sponsor, a);
}

double commitmentCostUsd(double usdPerInstanceHour, int instances, double termYears,
    const Assumptions& a, const SponsorRules& sponsor)
{
    const double hours = termYears * calendar::kDaysPerYear * calendar::kHoursPerDay;
    return withIndirectUsd(
        usdPerInstanceHour * hours * instances, BudgetCategory::ComputingServices, sponsor, a);
}

} // namespace gpuplan

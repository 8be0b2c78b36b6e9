#include "core/costing/plan.h"

#include "core/costing/calendar.h"

#include <algorithm>

namespace gpuplan {

double runCapacityPerMonth(double trainingDays)
{
    return trainingDays > 0.0 ? calendar::kDaysPerMonth / trainingDays : 0.0;
}

double cappedRunsPerMonth(double trainingDays, const Assumptions& a)
{
    return std::min(a.runsPerMonth, runCapacityPerMonth(trainingDays));
}

std::optional<double> monthsAtRunRate(double runs, double runsPerMonth)
{
    if (runsPerMonth <= 0.0)
        return std::nullopt;
    return runs / runsPerMonth;
}

OwnedPlan ownedPlan(double machineCostUsd, double experimentCostUsd, double energyPerRunUsd,
    double trainingDays, const Assumptions& a)
{
    const double runs = a.plannedRuns;
    return { machineCostUsd + runs * energyPerRunUsd, runs * (experimentCostUsd + energyPerRunUsd),
        runs * trainingDays };
}

RentedPlan rentedPlan(double costPerRunUsd, double daysPerRun, const Assumptions& a)
{
    const double runs = a.plannedRuns;
    return { runs * costPerRunUsd, runs * daysPerRun };
}

} // namespace gpuplan

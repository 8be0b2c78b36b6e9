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

bool withinLifespan(double months, const Assumptions& a)
{
    return months <= a.amortizationYears * calendar::kMonthsPerYear;
}

bool planOutlastsLife(double runs, double runsPerMonth, const Assumptions& a)
{
    const auto months = monthsAtRunRate(runs, runsPerMonth);
    return months && !withinLifespan(*months, a);
}

double lifeDays(const Assumptions& a)
{
    return a.amortizationYears * calendar::kDaysPerYear;
}

bool runOutlastsLife(double trainingDays, const Assumptions& a)
{
    return trainingDays > lifeDays(a);
}

OwnedPlan ownedPlan(double netMachineUsd, double monthlyOwningUsd, double experimentCostUsd,
    double energyPerRunUsd, double trainingDays, double runsPerMonth, const Assumptions& a)
{
    const double runs = a.plannedRuns;
    return { netMachineUsd + runs * energyPerRunUsd
            + runs * owningCostPerRunUsd(monthlyOwningUsd, runsPerMonth),
        runs * (experimentCostUsd + energyPerRunUsd), runs * trainingDays };
}

RentedPlan rentedPlan(double costPerRunUsd, double daysPerRun, double waitDaysPerRun,
    double leadDays, const Assumptions& a)
{
    const double runs = a.plannedRuns;
    return { runs * costPerRunUsd, leadDays + runs * (daysPerRun + waitDaysPerRun) };
}

double owningCostPerRunUsd(double monthlyOwningUsd, double runsPerMonth)
{
    return monthlyOwningUsd > 0.0 && runsPerMonth > 0.0 ? monthlyOwningUsd / runsPerMonth : 0.0;
}

} // namespace gpuplan

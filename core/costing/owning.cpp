#include "core/costing/owning.h"

#include "core/costing/calendar.h"

namespace gpuplan {

namespace {
constexpr double kWattsPerKw = 1000.0;
} // namespace

double machineCostUsd(const Machine& machine)
{
    if (machine.system)
        return machine.system->priceUsd;
    const double gpuPrice = machine.gpu && machine.gpu->priceUsd ? *machine.gpu->priceUsd : 0.0;
    const double chassisPrice = machine.chassis ? machine.chassis->priceUsd : 0.0;
    return chassisPrice + machine.gpuCount * gpuPrice;
}

MonthlyOwningCosts monthlyOwningCosts(double machineCost, double itPowerKw, const Assumptions& a)
{
    MonthlyOwningCosts m;
    m.hostingUsd = a.hostingUsdPerKwMonth * itPowerKw + a.machineRoomUsdPerMonth;
    m.supportUsd = a.supportRate * machineCost / calendar::kMonthsPerYear;
    m.staffUsd = a.staffUsdPerYear / calendar::kMonthsPerYear;
    return m;
}

OwningCosts owningCosts(double machineCost, double itPowerKw, const Assumptions& a)
{
    OwningCosts c;
    c.monthlyUsd = monthlyOwningCosts(machineCost, itPowerKw, a).totalUsd();
    c.resaleUsd = a.resaleFraction * machineCost;
    c.lifetimeUsd
        = machineCost - c.resaleUsd + a.amortizationYears * calendar::kMonthsPerYear * c.monthlyUsd;
    return c;
}

double experimentCostUsd(double lifetimeCost, double trainingDays, const Assumptions& a)
{
    const double usefulDays = a.amortizationYears * calendar::kDaysPerYear * a.machineUtilization;
    if (usefulDays <= 0.0)
        return 0.0;
    return lifetimeCost * trainingDays / usefulDays;
}

double machineItPowerKw(const Machine& machine)
{
    const double gpuWatts = machine.gpu ? machine.gpuCount * machine.gpu->boardPowerWatts : 0.0;
    const double baseWatts = machine.system ? machine.system->basePowerWatts
        : machine.chassis                   ? machine.chassis->basePowerWatts
                                            : 0.0;
    return (gpuWatts + baseWatts) / kWattsPerKw;
}

double facilityPowerKw(double itPowerKw, const Assumptions& a)
{
    return itPowerKw * a.pue;
}

double machinePowerKw(const Machine& machine, const Assumptions& a)
{
    return facilityPowerKw(machineItPowerKw(machine), a);
}

double energyCostUsd(double powerKw, double trainingDays, const Assumptions& a)
{
    return powerKw * trainingDays * calendar::kHoursPerDay * a.electricityUsdPerKwh;
}

} // namespace gpuplan

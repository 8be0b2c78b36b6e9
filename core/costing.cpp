#include "core/costing.h"

#include <cmath>

namespace gpuplan {

namespace {
constexpr double kDaysPerYear = 365.0; // the paper's formula uses 365
constexpr double kHoursPerDay = 24.0;
constexpr double kWattsPerKw = 1000.0;
} // namespace

double machineCostUsd(const Machine& machine)
{
    const double gpuPrice = machine.gpu && machine.gpu->priceUsd ? *machine.gpu->priceUsd : 0.0;
    const double chassisPrice = machine.chassis ? machine.chassis->priceUsd : 0.0;
    return chassisPrice + machine.gpuCount * gpuPrice;
}

double experimentCostUsd(double machineCost, double trainingDays, const Assumptions& a)
{
    const double usefulDays = a.amortizationYears * kDaysPerYear * a.machineUtilization;
    if (usefulDays <= 0.0)
        return 0.0;
    return machineCost * trainingDays / usefulDays;
}

double machinePowerKw(const Machine& machine, const Assumptions& a)
{
    const double gpuWatts = machine.gpu ? machine.gpuCount * machine.gpu->boardPowerWatts : 0.0;
    const double baseWatts = machine.chassis ? machine.chassis->basePowerWatts : 0.0;
    return (gpuWatts + baseWatts) * a.pue / kWattsPerKw;
}

double energyCostUsd(double powerKw, double trainingDays, const Assumptions& a)
{
    return powerKw * trainingDays * kHoursPerDay * a.electricityUsdPerKwh;
}

int instancesNeeded(const CloudOffer& offer, int gpuCount)
{
    const int perInstance = offer.gpusPerInstance > 0 ? offer.gpusPerInstance : 1;
    return (gpuCount + perInstance - 1) / perInstance;
}

double spotRunDays(double trainingDays, const Assumptions& a)
{
    return trainingDays * (1.0 + a.spotRestartOverhead);
}

double cloudCostUsd(
    double usdPerInstanceHour, int instances, double trainingDays, bool spot, const Assumptions& a)
{
    const double hours = (spot ? spotRunDays(trainingDays, a) : trainingDays) * kHoursPerDay;
    return usdPerInstanceHour * hours * instances * (1.0 + a.indirectRate);
}

std::optional<double> breakEvenRuns(
    double capexUsd, double cloudCostPerRunUsd, double energyCostPerRunUsd)
{
    const double savingPerRun = cloudCostPerRunUsd - energyCostPerRunUsd;
    if (savingPerRun <= 0.0 || !std::isfinite(savingPerRun))
        return std::nullopt;
    return capexUsd / savingPerRun;
}

} // namespace gpuplan

#include "core/costing/owning.h"

#include "core/costing/calendar.h"
#include "core/costing/indirect.h"

namespace gpuplan {

namespace {
constexpr double kWattsPerKw = 1000.0;
} // namespace

std::string priceKey(const GpuSpec& gpu)
{
    return "price gpu " + gpu.id;
}

std::string priceKey(const ChassisSpec& chassis)
{
    return "price chassis " + chassis.id;
}

std::string priceKey(const SystemSpec& system)
{
    return "price system " + system.id;
}

double machineCostUsd(const Machine& machine, const InputPositions& at)
{
    const bool stated = !at.itemSeed && at.purchasePrices == 0.0;
    auto moved = [&at, stated](double usd, const auto& item) {
        return stated ? usd
                      : atPosition(priceRange(usd, item.priceSource), usd,
                          at.itemSeed ? at.price(priceKey(item)) : at.purchasePrices);
    };
    if (machine.system)
        return moved(machine.system->priceUsd, *machine.system);
    const double gpuPrice
        = machine.gpu && machine.gpu->priceUsd ? moved(*machine.gpu->priceUsd, *machine.gpu) : 0.0;
    const double chassisPrice
        = machine.chassis ? moved(machine.chassis->priceUsd, *machine.chassis) : 0.0;
    return chassisPrice + machine.gpuCount * gpuPrice;
}

MonthlyOwningCosts monthlyOwningCosts(double machineCost, double itPowerKw, const Assumptions& a)
{
    MonthlyOwningCosts m;
    m.hostingUsd = a.hostingUsdPerKwMonth * itPowerKw + a.machineRoomUsdPerMonth;
    m.supportUsd = a.supportRate * machineCost / calendar::kMonthsPerYear;
    m.staffUsd = a.staffUsdPerYear / calendar::kMonthsPerYear;
    m.fringeUsd = a.fringeRate * m.staffUsd;
    return m;
}

OwningCosts owningCosts(double machineCost, double itPowerKw, const Assumptions& a,
    const SponsorRules& sponsor, std::optional<BudgetCategory> category)
{
    const MonthlyOwningCosts direct = monthlyOwningCosts(machineCost, itPowerKw, a);
    auto toGrant
        = [&](double usd, BudgetCategory kind) { return withIndirectUsd(usd, kind, sponsor, a); };
    OwningCosts c;
    c.purchaseUsd = toGrant(machineCost, category.value_or(machineCategory(machineCost, sponsor)));
    c.monthlyUsd = toGrant(direct.hostingUsd, BudgetCategory::Hosting)
        + toGrant(direct.supportUsd, BudgetCategory::Support)
        + toGrant(direct.staffUsd, BudgetCategory::Staff)
        + toGrant(direct.fringeUsd, BudgetCategory::Fringe);
    c.resaleUsd = a.resaleFraction * machineCost;
    c.lifetimeUsd
        = c.netPurchaseUsd() + a.amortizationYears * calendar::kMonthsPerYear * c.monthlyUsd;
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

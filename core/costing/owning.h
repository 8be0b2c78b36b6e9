#pragma once

// What owning a machine costs: its price, its amortised share per run, and its electricity.

#include "core/assumptions.h"
#include "core/hardware.h"
#include "core/sponsor.h"
#include "core/uncertainty.h"

#include <optional>
#include <string>

namespace gpuplan {

// A system's price, or chassis(n) + n * GPU price (requires machine.gpu->priceUsd and
// machine.chassis); each price moved to its position in its range (priceRange) by `at`.
double machineCostUsd(const Machine& machine, const InputPositions& at = {});

// The keys a machine's prices are drawn by in Monte Carlo (InputPositions::price).
std::string priceKey(const GpuSpec& gpu);
std::string priceKey(const ChassisSpec& chassis);
std::string priceKey(const SystemSpec& system);

// The monthly costs of owning by kind, for budgets that put them in different categories:
// hosting (colocation per kW of the machine's own draw + a machine-room fee), support (a yearly
// share of the price), staff time (salary) and the fringe benefits on it.
struct MonthlyOwningCosts {
    double hostingUsd = 0.0;
    double supportUsd = 0.0;
    double staffUsd = 0.0;
    double fringeUsd = 0.0;
    double totalUsd() const { return hostingUsd + supportUsd + staffUsd + fringeUsd; }
};
MonthlyOwningCosts monthlyOwningCosts(
    double machineCostUsd, double itPowerKw, const Assumptions& a);

// What owning costs the grant (all beyond the price 0 with the paper's assumptions): the price,
// hosting (colocation per kW of the machine's own draw, or a machine-room fee), support (a
// yearly share of the price), staff time and its fringe benefits, each with the indirect (F&A) rate
// where the sponsor's rules put its category in the base (a machine below the equipment threshold
// is supplies), and the resale value recovered at the end of the amortisation period.
struct OwningCosts {
    double purchaseUsd = 0.0; // the price, with F&A where the machine is in the base
    double monthlyUsd = 0.0; // hosting + machine room + (support + staff + fringe) / 12, with F&A
    double resaleUsd = 0.0; // recovered at the end of the amortisation period
    // Purchase - resale + every month of the amortisation period: what the machine costs over
    // its life before electricity, and what the per-experiment cost spreads over its runs.
    double lifetimeUsd = 0.0;
    double netPurchaseUsd() const { return purchaseUsd - resaleUsd; }
};
// `category`: equipment or supplies, decided once on the machine's stated price as its budget
// decides it (default: on this price). Ranges and samples move the price but keep the category:
// a cheaper machine must not cost more by crossing the threshold, or a range that takes its
// ends at the cheapest and dearest inputs would miss its own centre.
OwningCosts owningCosts(double machineCostUsd, double itPowerKw, const Assumptions& a,
    const SponsorRules& sponsor, std::optional<BudgetCategory> category = std::nullopt);

// The amortised cost of one run: lifetime cost * days / (years * 365 * utilisation). With the
// owning costs off, the lifetime cost is the machine's price: exactly the paper's formula.
double experimentCostUsd(double lifetimeCostUsd, double trainingDays, const Assumptions& a);

// What the machine's own parts draw while training: n * GPU board power + chassis base power.
double machineItPowerKw(const Machine& machine);

// Power drawn from the grid: the machine's own draw * PUE.
double facilityPowerKw(double itPowerKw, const Assumptions& a);

// facilityPowerKw(machineItPowerKw(machine)): what the machine draws from the grid, in kW.
double machinePowerKw(const Machine& machine, const Assumptions& a);

// Electricity for one run: facility power * hours * price.
double energyCostUsd(double facilityPowerKw, double trainingDays, const Assumptions& a);

} // namespace gpuplan

#pragma once

// What owning a machine costs: its price, its amortised share per run, and its electricity.

#include "core/assumptions.h"
#include "core/hardware.h"

namespace gpuplan {

// chassis(n) + n * GPU price. Requires machine.gpu->priceUsd and machine.chassis.
double machineCostUsd(const Machine& machine);

// The paper's amortised cost of one run: machine cost * days / (years * 365 * utilisation).
double experimentCostUsd(double machineCostUsd, double trainingDays, const Assumptions& a);

// What the machine's own parts draw while training: n * GPU board power + chassis base power.
double machineItPowerKw(const Machine& machine);

// Power drawn from the grid: the machine's own draw * PUE.
double facilityPowerKw(double itPowerKw, const Assumptions& a);

// facilityPowerKw(machineItPowerKw(machine)): what the machine draws from the grid, in kW.
double machinePowerKw(const Machine& machine, const Assumptions& a);

// Electricity for one run: facility power * hours * price.
double energyCostUsd(double facilityPowerKw, double trainingDays, const Assumptions& a);

} // namespace gpuplan

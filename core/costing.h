#pragma once

#include "core/assumptions.h"
#include "core/cloud_offer.h"
#include "core/hardware.h"

#include <optional>

namespace gpuplan {

// Every cost rule of the model lives in this file and costing.cpp.

// chassis(n) + n * GPU price. Requires machine.gpu->priceUsd and machine.chassis.
double machineCostUsd(const Machine& machine);

// The paper's amortised cost of one run: machine cost * days / (years * 365 * utilisation).
double experimentCostUsd(double machineCostUsd, double trainingDays, const Assumptions& a);

// (n * GPU board power + chassis base power) * PUE, in kW, while training.
double machinePowerKw(const Machine& machine, const Assumptions& a);

// Electricity for one run: power * hours * price.
double energyCostUsd(double powerKw, double trainingDays, const Assumptions& a);

// Instances needed to provide `gpuCount` GPUs of an offer: ceil(n / GPUs per instance).
int instancesNeeded(const CloudOffer& offer, int gpuCount);

// How long a run takes on spot instances: the training days lengthened by the restart overhead
// (time lost to pre-emptions and restarts from the last checkpoint).
double spotRunDays(double trainingDays, const Assumptions& a);

// Cloud cost of one run at one hourly rate: rate * hours * instances, spot runs lengthened by
// the restart overhead, and the indirect (F&A) rate added on top (equipment is exempt from it,
// cloud spend is not).
double cloudCostUsd(
    double usdPerInstanceHour, int instances, double trainingDays, bool spot, const Assumptions& a);

// Runs after which buying (capex + energy per run) is cheaper than renting (cost per run):
// capex / (cloud per run - energy per run). nullopt when renting is never dearer per run.
std::optional<double> breakEvenRuns(
    double capexUsd, double cloudCostPerRunUsd, double energyCostPerRunUsd);

} // namespace gpuplan

#pragma once

// A project of several runs: totals, calendar time, and months at a run rate.

#include "core/assumptions.h"

#include <optional>

namespace gpuplan {

// Runs a machine fits into a month back to back.
double runCapacityPerMonth(double trainingDays);

// The rate break-even months are counted at: the planned rate (assumptions.runsPerMonth),
// capped at what fits back to back.
double cappedRunsPerMonth(double trainingDays, const Assumptions& a);

// Months it takes to do `runs` runs at `runsPerMonth`; nullopt at a rate of 0.
std::optional<double> monthsAtRunRate(double runs, double runsPerMonth);

// Buying: the machine once plus electricity for every planned run, run back to back.
struct OwnedPlan {
    double totalUsd = 0.0; // machine + energy for all runs
    double amortizedUsd = 0.0; // per-experiment share + energy, for all runs
    double calendarDays = 0.0;
};
OwnedPlan ownedPlan(double machineCostUsd, double experimentCostUsd, double energyPerRunUsd,
    double trainingDays, const Assumptions& a);

// Renting: every planned run at one price, each occupying `daysPerRun`.
struct RentedPlan {
    double totalUsd = 0.0;
    double calendarDays = 0.0;
};
RentedPlan rentedPlan(double costPerRunUsd, double daysPerRun, const Assumptions& a);

} // namespace gpuplan

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

// Whether `months` from now fall within the machine's life (assumptions.amortizationYears):
// a break-even after it is one the machine is retired before reaching.
bool withinLifespan(double months, const Assumptions& a);

// Whether `runs` at `runsPerMonth` (OwnedOption::runsPerMonth: the planned rate, capped at what
// fits back to back) take longer than the machine's life: the plan then needs a second machine.
bool planOutlastsLife(double runs, double runsPerMonth, const Assumptions& a);

// Whether one run of `trainingDays` is longer than the machine's life: it then has no share of
// that life to amortise (the share would exceed the machine's price). The life in the
// per-experiment formula's 365-day years, which this guards (in 30.44-day months a run of
// 1,826 days had fitted a 5-year life yet cost 1826/1825 of the machine), as the grant budget
// counts it.
double lifeDays(const Assumptions& a);
bool runOutlastsLife(double trainingDays, const Assumptions& a);

// Buying: the machine once (`netMachineUsd`: its price less what it is sold for at the end of
// its life), electricity for every planned run, and the owning costs of the months the plan
// takes at `runsPerMonth`; the runs back to back. No month after the runs is owed: the resale
// fraction is what the machine fetches at the end of its life, so sold when the plan ends, a
// younger machine, it fetches at least that, and keeping it to the end of its life to sell it
// then would only add months of hosting and staff to the same resale.
struct OwnedPlan {
    double totalUsd = 0.0; // net machine + energy + monthly owning costs, for all runs
    double amortizedUsd = 0.0; // per-experiment share + energy, for all runs
    double calendarDays = 0.0;
};
OwnedPlan ownedPlan(double netMachineUsd, double monthlyOwningUsd, double experimentCostUsd,
    double energyPerRunUsd, double trainingDays, double runsPerMonth, const Assumptions& a);

// Renting: every planned run at one price, each occupying `daysPerRun` plus `waitDaysPerRun`
// in a queue, after `leadDays` of applying for it.
struct RentedPlan {
    double totalUsd = 0.0;
    double calendarDays = 0.0;
};
RentedPlan rentedPlan(double costPerRunUsd, double daysPerRun, double waitDaysPerRun,
    double leadDays, const Assumptions& a);

// What owning adds to each run when runs come at `runsPerMonth`: the monthly owning costs of
// the months one run takes up.
double owningCostPerRunUsd(double monthlyOwningUsd, double runsPerMonth);

} // namespace gpuplan

#pragma once

#include "core/assumption_table.h"
#include "core/provenance.h"

#include <array>

namespace gpuplan {

// Every knob of the cost model. Built-in defaults come from the assumption table and reproduce
// the paper's Fig. 7 (5-year lifespan, machine busy all the time, no energy in the
// per-experiment cost); the shipped tables replace them with dated, sourced values.
struct Assumptions {
    double amortizationYears = assumptionSpec(AssumptionId::AmortizationYears).fallback;
    // Fraction of the lifespan the machine runs experiments.
    double machineUtilization = assumptionSpec(AssumptionId::MachineUtilization).fallback;
    double electricityUsdPerKwh = assumptionSpec(AssumptionId::ElectricityUsdPerKwh).fallback;
    double pue = assumptionSpec(AssumptionId::Pue).fallback; // 1.0 = no facility overhead
    // Extra run time lost to pre-emptions on spot instances.
    double spotRestartOverhead = assumptionSpec(AssumptionId::SpotRestartOverhead).fallback;
    // The institution's F&A rate; 0 = off. The sponsor's rules say which costs carry it
    // (core/costing/indirect.h).
    double indirectRate = assumptionSpec(AssumptionId::IndirectRate).fallback;
    // Fraction of peak the analytic estimator assumes.
    double analyticUtilization = assumptionSpec(AssumptionId::AnalyticUtilization).fallback;
    int plannedRuns = static_cast<int>(assumptionSpec(AssumptionId::PlannedRuns).fallback);
    // For stating break-even in months.
    double runsPerMonth = assumptionSpec(AssumptionId::RunsPerMonth).fallback;
    // The cost of owning beyond the paper, all 0 (off) by default.
    double hostingUsdPerKwMonth = assumptionSpec(AssumptionId::HostingUsdPerKwMonth).fallback;
    double machineRoomUsdPerMonth = assumptionSpec(AssumptionId::MachineRoomUsdPerMonth).fallback;
    double supportRate = assumptionSpec(AssumptionId::SupportRate).fallback; // of price, per year
    double staffUsdPerYear = assumptionSpec(AssumptionId::StaffUsdPerYear).fallback;
    // Fringe benefits on that staff time, as a fraction of it.
    double fringeRate = assumptionSpec(AssumptionId::FringeRate).fallback;
    double resaleFraction = assumptionSpec(AssumptionId::ResaleFraction).fallback;
    // Prices older than this are flagged as a stale price.
    int staleMonths = static_cast<int>(assumptionSpec(AssumptionId::StaleMonths).fallback);

    // Where each value came from, by AssumptionId: the table's citation, kUserSupplied for a
    // value the user chose (chooseAssumptionValue), empty for built-in defaults.
    std::array<Provenance, kAssumptionCount> sources;

    const Provenance& source(AssumptionId id) const
    {
        return sources[static_cast<std::size_t>(id)];
    }
    Provenance& source(AssumptionId id) { return sources[static_cast<std::size_t>(id)]; }
};

// The value of one assumption by id (plannedRuns as a double), for code that loops over the
// assumption table.
double assumptionValue(const Assumptions& a, AssumptionId id);
// Sets one assumption; whole-number assumptions are rounded to the nearest integer.
void setAssumptionValue(Assumptions& a, AssumptionId id, double value);

// The citation of a value the user chose: a proposal must not credit a figure the PI typed to the
// source that states another.
inline constexpr std::string_view kUserSupplied = "user-supplied";
// Sets an assumption to a value the user chose (a gpuplan-cli option, the Assumptions dock, a
// scenario file). Where it differs from the value it replaces, that value's source no longer
// states it: the source becomes kUserSupplied, or the table's suggested source where the value is
// the one the table suggests (assumptionSpec(id).suggested), or, given the price tables' own
// values (`tables`: the catalog's defaults), their source where the value is theirs again (a
// Sourced value or a typo undone).
void chooseAssumptionValue(
    Assumptions& a, AssumptionId id, double value, const Assumptions* tables = nullptr);

} // namespace gpuplan

#pragma once

// Every assumption of the cost model in one table: its key in files, its gpuplan-cli option, its
// label, unit, built-in default and bounds. Readers, scenario files, the CLI and the Assumptions
// panel loop over this table instead of listing assumptions themselves; the shipped
// pricing/data/assumptions.yaml then sets dated, sourced defaults within these bounds.

#include "core/limits.h"

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace gpuplan {

enum class AssumptionId : std::size_t {
    AmortizationYears,
    MachineUtilization,
    ElectricityUsdPerKwh,
    Pue,
    SpotRestartOverhead,
    IndirectRate,
    AnalyticUtilization,
    PlannedRuns,
    RunsPerMonth,
};

struct AssumptionSpec {
    AssumptionId id;
    std::string_view key; // in price tables, scenario files and JSON: "electricity_usd_per_kwh"
    std::string_view option; // gpuplan-cli option: "electricity-price"
    std::string_view label; // "Electricity price"
    std::string_view help; // one sentence for tooltips and --help
    Unit unit;
    double fallback; // when no table sets it; the paper's value where it has one
    Bounds bounds;
    bool wholeNumber;
    std::string_view why; // where the fallback and the bounds come from
};

inline constexpr std::array kAssumptionSpecs {
    AssumptionSpec { AssumptionId::AmortizationYears, "amortization_years", "years",
        "Amortisation period", "Lifespan over which the machine's price is spread.", Unit::Years,
        5.0, { 0.1, 50.0 }, false, "the paper, Sec. 4.1: a five-year hardware lifespan" },
    AssumptionSpec { AssumptionId::MachineUtilization, "machine_utilization", "utilization",
        "Machine in use", "Share of the lifespan the machine trains experiments.", Unit::Fraction,
        1.0, { 0.01, 1.0 }, false, "the paper's per-experiment formula: busy all the time" },
    AssumptionSpec { AssumptionId::ElectricityUsdPerKwh, "electricity_usd_per_kwh",
        "electricity-price", "Electricity price", "What your institution pays per kWh.",
        Unit::UsdPerKwh, 0.13, { 0.0, 10.0 }, false,
        "EIA 2024 U.S. commercial average; bound: no tariff reaches $10/kWh" },
    AssumptionSpec { AssumptionId::Pue, "pue", "pue", "PUE (facility overhead)",
        "Power usage effectiveness: 1.0 for a desktop, about 1.6 in a data centre.", Unit::Ratio,
        1.58, { 1.0, 5.0 }, false,
        "Uptime Institute 2023 survey average 1.58; bound: 1.0 is no overhead, 5 a very poor "
        "room" },
    AssumptionSpec { AssumptionId::SpotRestartOverhead, "spot_restart_overhead", "spot-overhead",
        "Spot restart overhead", "Run time lost to pre-emptions on spot instances.", Unit::Fraction,
        0.10, { 0.0, 10.0 }, false,
        "gpuplan assumption: 10% of run time lost restarting from checkpoints" },
    AssumptionSpec { AssumptionId::IndirectRate, "indirect_rate", "indirect-rate",
        "Indirect (F&A) rate on cloud",
        "Applied to cloud spend only; equipment is exempt from the base.", Unit::Fraction, 0.0,
        { 0.0, 2.0 }, false,
        "off by default; negotiated F&A rates run up to about 70%, bound 200%" },
    AssumptionSpec { AssumptionId::AnalyticUtilization, "analytic_utilization",
        "analytic-utilization", "Analytic utilisation",
        "Fraction of peak the analytic estimate assumes training reaches.", Unit::Fraction, 0.4,
        { 0.01, 1.0 }, false, "PaLM reported 46% model-FLOPs utilisation; 0.4 allows for less" },
    AssumptionSpec { AssumptionId::PlannedRuns, "planned_runs", "runs", "Planned runs",
        "Planned number of training runs in the project.", Unit::Runs, 1.0, { 1.0, 1e5 }, true,
        "one run by default" },
    AssumptionSpec { AssumptionId::RunsPerMonth, "runs_per_month", "runs-per-month", "Run rate",
        "Runs a month, for stating the break-even in months.", Unit::RunsPerMonth, 1.0,
        { 0.01, 1e4 }, false, "one run a month by default" },
};

inline constexpr std::size_t kAssumptionCount = kAssumptionSpecs.size();

constexpr const AssumptionSpec& assumptionSpec(AssumptionId id)
{
    return kAssumptionSpecs[static_cast<std::size_t>(id)];
}

// The table is indexed by id: a spec out of order would silently describe another assumption.
constexpr bool assumptionTableInOrder()
{
    for (std::size_t i = 0; i < kAssumptionCount; ++i)
        if (static_cast<std::size_t>(kAssumptionSpecs[i].id) != i)
            return false;
    return true;
}
static_assert(assumptionTableInOrder(), "kAssumptionSpecs must list assumptions in id order");

std::optional<AssumptionId> assumptionFromKey(std::string_view key);
// Every key, in table order: the keys an `assumptions` map may hold.
std::vector<std::string_view> assumptionKeys();

} // namespace gpuplan

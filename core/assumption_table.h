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
    HostingUsdPerKwMonth,
    MachineRoomUsdPerMonth,
    SupportRate,
    StaffUsdPerYear,
    FringeRate,
    ResaleFraction,
    StaleMonths,
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
    // A sourced value the views offer for an assumption that is off by default (the owning
    // costs beyond the paper): set it to count that cost. Absent where no public figure exists.
    std::optional<double> suggested = std::nullopt;
    std::string_view suggestedSource = {};
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
        "Indirect (F&A) rate",
        "Added to each cost the sponsor's rules put in the base, per run, in the plan and in a "
        "grant budget alike (US federal: cloud, a machine below the equipment threshold, "
        "electricity, hosting, support, staff and its fringe benefits; not equipment).",
        Unit::Fraction, 0.0, { 0.0, 2.0 }, false,
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
    // The cost of owning beyond the paper: each off (0) by default, so that the paper's
    // per-experiment costs still reproduce, each with a sourced value to offer where one exists.
    AssumptionSpec { AssumptionId::HostingUsdPerKwMonth, "hosting_usd_per_kw_month",
        "hosting-usd-per-kw-month", "Hosting (colocation)",
        "Colocation price per kW of the machine's own draw, per month.", Unit::UsdPerKwMonth, 0.0,
        { 0.0, 5000.0 }, false, "off by default; bound: 25x the wholesale rate", 184.06,
        "CBRE North America Data Center Trends H2 2024 (2025-02-26): average asking rate, "
        "primary markets, 250-500 kW; retail space for one server costs more" },
    AssumptionSpec { AssumptionId::MachineRoomUsdPerMonth, "machine_room_usd_per_month",
        "machine-room-usd-per-month", "Machine-room fee",
        "A campus machine room's flat fee per machine, per month.", Unit::UsdPerMonth, 0.0,
        { 0.0, 1e5 }, false, "off by default", 61.92,
        "University of Michigan ARC Lighthouse service cost $743.07 per node-year (FY2021-22 "
        "rates page)" },
    AssumptionSpec { AssumptionId::SupportRate, "support_rate", "support-rate", "Support contract",
        "Yearly hardware support as a fraction of the machine's price.", Unit::FractionPerYear, 0.0,
        { 0.0, 1.0 }, false,
        "off by default; no public figure for hardware support contracts was found (vendors "
        "quote them per deal): enter your quote" },
    AssumptionSpec { AssumptionId::StaffUsdPerYear, "staff_usd_per_year", "staff-usd-per-year",
        "Staff time", "Share of an administrator's salary the machine takes, per year.",
        Unit::UsdPerYear, 0.0, { 0.0, 1e6 }, false, "off by default", 9052.0,
        "a tenth of a full-time systems administrator at the U.S. median salary of $90,520 "
        "(BLS Occupational Outlook Handbook, SOC 15-1244, May 2022)" },
    // A grant budget lists fringe benefits beside the salary they fall on (US federal budgets:
    // line B under line A), at the institution's negotiated rate, and they are in the F&A base.
    AssumptionSpec { AssumptionId::FringeRate, "fringe_rate", "fringe-rate", "Fringe benefits",
        "Fringe benefits on the staff time, as a fraction of its salary (the institution's "
        "negotiated rate for staff).",
        Unit::Fraction, 0.0, { 0.0, 1.0 }, false,
        "off by default, like the staff time it falls on; negotiated staff rates run from about "
        "25% to 65%, bound 100%",
        0.323,
        "University of Minnesota, FY2026 fringe benefit rate for non-academic staff, 32.3% "
        "(DHHS rate agreement; https://research.umn.edu/units/oca/fa-costs/fringe-benefit-rates)" },
    AssumptionSpec { AssumptionId::ResaleFraction, "resale_fraction", "resale-fraction",
        "Resale value",
        "Fraction of the price recovered by selling the machine at the end of "
        "its amortisation period.",
        Unit::Fraction, 0.0, { 0.0, 0.95 }, false, "off by default", 0.35,
        "SpotWire GPU valuator (2026-06-04): its depreciation curve leaves 35% of the price "
        "after four years (an assumed curve; its eBay comparables put a 3-4-year-old H100 PCIe "
        "at 67%)" },
    AssumptionSpec { AssumptionId::StaleMonths, "stale_months", "stale-months", "Price age limit",
        "Prices older than this many months are flagged as a stale price.", Unit::Months, 12.0,
        { 1.0, 240.0 }, true, "GPU and cloud prices move within a year" },
};

inline constexpr std::size_t kAssumptionCount = kAssumptionSpecs.size();

// How far each assumption may lie from its value, relative to it (clamped to its bounds): the
// ranges that evaluate() propagates and the sensitivity view moves one at a time. In id order,
// like kAssumptionSpecs. A spread of 0 is a choice the user makes, not a figure to estimate.
struct AssumptionSpread {
    AssumptionId id;
    Spread spread;
};

inline constexpr std::array<AssumptionSpread, kAssumptionCount> kAssumptionSpreads { {
    { AssumptionId::AmortizationYears,
        { 0.4, 0.2,
            "gpuplan assumption: GPU servers are retired after 3 to 6 years (the paper's 5 is "
            "the middle)" } },
    { AssumptionId::MachineUtilization,
        { 0.5, 0.0,
            "gpuplan assumption: a lab machine may sit idle up to half its life; it cannot be "
            "busier than all the time" } },
    { AssumptionId::ElectricityUsdPerKwh,
        { 0.35, 0.5,
            "gpuplan assumption: about the spread of U.S. state commercial averages around the "
            "national one (EIA Electric Power Monthly, table 5.6.A)" } },
    { AssumptionId::Pue,
        { 0.3, 0.15,
            "Uptime Institute 2023: efficient hyperscale rooms reach about 1.1, older rooms 1.8 "
            "or more" } },
    { AssumptionId::SpotRestartOverhead,
        { 0.8, 2.0, "gpuplan assumption: 2% to 30% of run time lost, by pre-emption rate" } },
    { AssumptionId::IndirectRate, { 0.0, 0.0, "the institution's negotiated rate: known" } },
    { AssumptionId::AnalyticUtilization,
        { 0.375, 0.375,
            "0.25 to 0.55 of peak: below PaLM's 46% model-FLOPs utilisation to Megatron-LM's "
            "about 55%" } },
    { AssumptionId::PlannedRuns, { 0.0, 0.0, "the plan: the user's choice" } },
    { AssumptionId::RunsPerMonth, { 0.0, 0.0, "the plan: the user's choice" } },
    { AssumptionId::HostingUsdPerKwMonth,
        { 0.3, 0.3, "gpuplan assumption: colocation rates vary about 30% between markets" } },
    { AssumptionId::MachineRoomUsdPerMonth,
        { 0.3, 0.3, "gpuplan assumption: campus fees vary about 30% between institutions" } },
    { AssumptionId::SupportRate,
        { 0.3, 0.3, "gpuplan assumption: support quotes vary per deal (no public figure)" } },
    { AssumptionId::StaffUsdPerYear,
        { 0.3, 0.3, "gpuplan assumption: the share of an administrator's time is a guess" } },
    { AssumptionId::FringeRate, { 0.0, 0.0, "the institution's negotiated rate: known" } },
    { AssumptionId::ResaleFraction,
        { 0.5, 0.5,
            "gpuplan assumption: SpotWire's assumed curve (35%) against its eBay comparables "
            "(up to 67%) differ by about half" } },
    { AssumptionId::StaleMonths, { 0.0, 0.0, "a display threshold, not a cost" } },
} };

constexpr const Spread& assumptionSpread(AssumptionId id)
{
    return kAssumptionSpreads[static_cast<std::size_t>(id)].spread;
}

constexpr bool assumptionSpreadsInOrder()
{
    for (std::size_t i = 0; i < kAssumptionCount; ++i)
        if (static_cast<std::size_t>(kAssumptionSpreads[i].id) != i)
            return false;
    return true;
}
static_assert(assumptionSpreadsInOrder(), "kAssumptionSpreads must list assumptions in id order");

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

#pragma once

// The one home of every field's limits: the unit and plausible range of each price, spec and
// scenario field. The YAML readers, scenario files, CLI options, the Assumptions panel and the
// price editor all take their bounds from here, so a value one of them accepts is never
// rejected, or silently clamped, by another. Assumptions (with defaults) are in
// assumption_table.h, on the same Bounds.

#include <string_view>

namespace gpuplan {

enum class Unit {
    Usd,
    UsdPerHour,
    UsdPerKwh,
    UsdPerKwMonth,
    UsdPerMonth,
    UsdPerYear,
    Years,
    Months,
    Days,
    Fraction, // 0-1, shown as a percentage
    FractionPerYear, // 0-1 of a price, every year
    Ratio, // dimensionless, e.g. PUE
    Runs,
    RunsPerMonth,
    Count,
    Gigabytes,
    TflopsPerSecond,
    Watts,
    Flops,
    GigabitsPerSecond,
};

// "USD/kWh", "years", "% (fraction)": for tables of limits and help texts.
std::string_view unitName(Unit unit);

// Inclusive bounds. `positive`: zero is outside too (a price of 0 means "no price": the field
// is left out instead).
struct Bounds {
    double min = 0.0;
    double max = 0.0;
    bool positive = false;

    constexpr bool contains(double v) const
    {
        return v >= min && v <= max && !(positive && v == 0.0);
    }
};

// How far a value may lie from its stated figure, relative to it: in
// [value * (1 - below), value * (1 + above)]. Ranges of prices and assumptions
// (core/uncertainty.h, assumption_table.h).
struct Spread {
    double below = 0.0;
    double above = 0.0;
    std::string_view why;
};

// A field of a price table, model or scenario file.
struct FieldSpec {
    std::string_view key; // as written in files: "usd", "memory_gb"
    std::string_view label; // "Purchase price"
    Unit unit;
    Bounds bounds;
    std::string_view why; // where the bounds come from
};

namespace limits {

// Plausibility bounds: wide enough for any real product, narrow enough to catch a typo that
// turns $30,000 into $30,000,000,000 or a unit mix-up (MB for GB, W for kW).
inline constexpr std::string_view kPlausible
    = "plausibility bound: wide enough for any product, narrow enough to catch a typo or a unit "
      "mix-up";

inline constexpr FieldSpec kPriceUsd { "usd", "Purchase price", Unit::Usd, { 0.0, 1e8, true },
    kPlausible };
// From a tenth of a cent an hour: no GPU rents for less, and 1e-300 (a rate that then showed
// as "$0.00" and "never pays off") or 0 is a typo, not a price.
inline constexpr FieldSpec kHourlyUsd { "usd_per_hour", "Hourly rate", Unit::UsdPerHour,
    { 0.001, 1e4, true }, kPlausible };
inline constexpr FieldSpec kReservedYears { "years", "Reservation term", Unit::Years, { 0.1, 10.0 },
    "cloud commitments run 1 to 5 years" };
inline constexpr FieldSpec kMemoryGb { "memory_gb", "Memory", Unit::Gigabytes, { 0.5, 4096.0 },
    kPlausible };
inline constexpr FieldSpec kPeakTflops { "peak_tflops", "Dense peak", Unit::TflopsPerSecond,
    { 0.01, 1e5 }, kPlausible };
inline constexpr FieldSpec kPowerWatts { "watts", "Power", Unit::Watts, { 1.0, 1e5 }, kPlausible };
inline constexpr FieldSpec kPowerSupplies { "count", "Power supplies", Unit::Count, { 1.0, 16.0 },
    kPlausible };
inline constexpr FieldSpec kGpuSlots { "gpu_slots", "GPU slots", Unit::Count, { 1.0, 64.0 },
    kPlausible };
inline constexpr FieldSpec kGpusPerInstance { "gpus_per_instance", "GPUs per instance", Unit::Count,
    { 1.0, 64.0 }, kPlausible };
inline constexpr FieldSpec kMaxGpusPerInstance { "max_gpus_per_instance", "Most GPUs per instance",
    Unit::Count, { 1.0, 64.0 }, kPlausible };
// A provider's listed TCP/IP network per instance (not an RDMA fabric's rate): RunPod's 100
// Mbit/s between pods to 400 Gbit/s Ethernet, with room either way for a typo to stand out.
inline constexpr FieldSpec kNetworkGbps { "gbps", "Network per instance", Unit::GigabitsPerSecond,
    { 0.01, 1e5, true }, kPlausible };
inline constexpr FieldSpec kGpuCount { "gpu_count", "GPU count", Unit::Count, { 1.0, 4096.0 },
    "largest single job a planner is asked about" };
inline constexpr FieldSpec kParameters { "parameters", "Parameters", Unit::Count, { 1.0, 1e14 },
    kPlausible };
inline constexpr FieldSpec kTrainingFlops { "training_flops", "Training FLOPs", Unit::Flops,
    { 1.0, 1e30 }, kPlausible };
inline constexpr FieldSpec kBatch { "global_batch", "Global batch", Unit::Count, { 1.0, 1e8 },
    kPlausible };
inline constexpr FieldSpec kSteps { "steps", "Optimizer steps", Unit::Count, { 1.0, 1e10 },
    kPlausible };
inline constexpr FieldSpec kTokensOrPixels { "sequence_length", "Sequence or image size",
    Unit::Count, { 1.0, 1e7 }, kPlausible };
inline constexpr FieldSpec kTrainingDays { "days", "Training days", Unit::Days, { 0.0, 1e6, true },
    kPlausible };
inline constexpr FieldSpec kWaitDays { "queue_wait_days", "Waiting time", Unit::Days,
    { 0.0, 3650.0 }, "an application or queue longer than ten years is a typo" };
inline constexpr FieldSpec kBudgetUsd { "budget_usd", "Hardware budget", Unit::Usd, { 1.0, 1e10 },
    kPlausible };
inline constexpr FieldSpec kDeadlineDays { "deadline_days", "Deadline", Unit::Days, { 0.01, 1e6 },
    kPlausible };
// A grant's budget by year: US federal awards run up to five years, ERC grants up to six;
// ten leaves room for renewals without letting a typo make a 300-column table.
inline constexpr FieldSpec kGrantYears { "years_of_grant", "Grant length", Unit::Years,
    { 1.0, 10.0 }, "grants run 1-6 years; renewals aside, more than ten is a typo" };
// The calendar year a grant starts: labels only, but 0000-05 had opened as whatever the
// budget's date box kept (review); the CLI's --start and scenario files' grant.start share it.
inline constexpr Bounds kGrantStartYear { 1900.0, 2200.0 };
inline constexpr FieldSpec kRunsPerYear { "runs_per_year", "Runs in a grant year", Unit::Runs,
    { 0.0, 100000.0 }, kPlausible };
inline constexpr FieldSpec kEquipmentThresholdUsd { "equipment_threshold_usd",
    "Equipment threshold", Unit::Usd, { 0.0, 1e7 }, kPlausible };

// Seeded Monte Carlo (core/uncertainty.h): more than 100,000 samples adds nothing a planner
// can see; seeds are whole numbers a double holds exactly.
inline constexpr FieldSpec kMonteCarloSamples { "samples", "Monte Carlo samples", Unit::Count,
    { 0.0, 1e5 }, "0 (none) to 100,000" };
inline constexpr FieldSpec kSeed { "seed", "Monte Carlo seed", Unit::Count,
    { 0.0, 9007199254740992.0 }, "whole numbers up to 2^53" };

} // namespace limits

} // namespace gpuplan

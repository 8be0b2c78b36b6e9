#pragma once

// How far each input of the cost model may lie from its stated value, in one place: the default
// spread of a price by the kind of its source, of a cloud rate by its pricing, and where an
// uncertain input sits within its range when evaluate() is asked to move it. The assumptions'
// own spreads live beside their defaults and bounds in assumption_table.h.
//
// Propagation (evaluate.h): every cost rule is monotone in each of its inputs, so the ends of a
// cost's interval are the same rule evaluated with each input at the end that lowers (raises)
// that cost — exact bounds, where naive interval arithmetic would count an input that appears
// twice (training days in both the cloud bill and the electricity) once per appearance and
// overstate the range. Seeded Monte Carlo, on request, adds p10/p50/p90 and how often the
// recommendation holds: a share of sampled cases is a question intervals cannot answer.

#include "core/assumption_table.h"
#include "core/provenance.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gpuplan {

// A closed interval of one figure.
struct Interval {
    double low = 0.0;
    double high = 0.0;

    bool contains(double v) const { return v >= low && v <= high; }
};

// The default spread of a purchase price by the kind of its source, where the price table gives
// no range of its own (price: {usd, usd_low, usd_high}).
Spread priceSpread(PriceKind kind);

// The default spread of a cloud rate: on-demand and campus rates are published list rates,
// spot rates float with demand.
Spread onDemandRateSpread();
Spread spotRateSpread();

// The range of a purchase price: the table's own usd_low/usd_high where it gives them, else the
// default spread of its kind.
Interval priceRange(double usd, const Provenance& source);
Interval rateRange(double usdPerHour, bool spot);

// The range of one assumption at its current value: its spread from the assumption table,
// clamped to its bounds. A value of 0 (an owning cost that is off) has no range.
Interval assumptionRange(AssumptionId id, double value);

// Where uncertain inputs sit in their ranges: -1 the low end, 0 the stated value, +1 the high
// end, linear in between on each side (a range need not be symmetric).
double atPosition(double low, double value, double high, double position);
double atPosition(const Interval& range, double value, double position);

// The inputs evaluate() can move, by kind; all 0 (the default) is the stated scenario.
struct InputPositions {
    double trainingDays = 0.0; // every estimate across its daysLow..daysHigh
    double purchasePrices = 0.0; // every GPU, chassis and system price
    double cloudRates = 0.0; // every on-demand, spot and reserved rate
    std::array<double, kAssumptionCount> assumptions {};
    // Monte Carlo: when set, each estimate (per GPU and count), price and rate draws its own
    // position from this seed and its key instead of taking the shared one above.
    std::optional<std::uint64_t> itemSeed;

    double days(std::string_view key) const;
    double price(std::string_view key) const;
    double rate(std::string_view key) const;
    double assumption(AssumptionId id) const { return assumptions[static_cast<std::size_t>(id)]; }
    double& assumption(AssumptionId id) { return assumptions[static_cast<std::size_t>(id)]; }
};

// A reproducible stream of numbers (splitmix64): the same seed gives the same draws on every
// platform, unlike the standard library's distributions.
class SeededDraws {
public:
    explicit SeededDraws(std::uint64_t seed)
        : m_state(seed)
    {
    }
    std::uint64_t next();
    double uniform(); // [0, 1)
    // Triangular on [-1, 1] with its mode at 0: the stated value is the most likely, the ends
    // of the range possible but rare.
    double position();

private:
    std::uint64_t m_state;
};

// The position an item draws from a seed and its key (a triangular draw, as above).
double itemPosition(std::uint64_t seed, std::string_view key);

// Assumptions whose uncertainty evaluate() moves on its own: not the plan itself (runs, run
// rate), not the stale-price limit, and not the analytic utilisation, whose range reaches the
// results through the analytic estimate's training days.
bool movedAsAssumption(AssumptionId id);

} // namespace gpuplan

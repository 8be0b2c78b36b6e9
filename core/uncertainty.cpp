#include "core/uncertainty.h"

#include <algorithm>

namespace gpuplan {

namespace {

// The default spreads of prices, by the kind of source. The shipped tables themselves show the
// order of magnitude: two street prices of one A100 80GB PCIe on one day differ by 13%
// ($16,339 and $18,500), the RTX A6000's street price sits 11% under the paper's ($4,281 and
// $4,800), and the RTX 5090 sold well above its $1,999 launch (list) price through 2026.
constexpr Spread kQuoteSpread { 0.10, 0.05,
    "gpuplan assumption: a vendor quote is firm for its term; negotiation lowers it up to 10%, "
    "a lapsed quote rises about 5%" };
constexpr Spread kListSpread { 0.10, 0.30,
    "gpuplan assumption: a list price (MSRP) is undercut up to 10% by discounts and exceeded up "
    "to 30% by street prices in shortages (the RTX 5090 in 2025-2026)" };
constexpr Spread kStreetSpread { 0.15, 0.15,
    "gpuplan assumption: street prices of one card differ about 15% between shops on one day "
    "(A100 80GB PCIe: $16,339 and $18,500 on 2025-03-03)" };
constexpr Spread kResaleSpread { 0.25, 0.25,
    "gpuplan assumption: used prices depend on condition and warranty, about 25% either way" };
constexpr Spread kUnstatedSpread { 0.20, 0.20,
    "gpuplan assumption: a price of unstated kind may be any of the above" };
constexpr Spread kOnDemandSpread { 0.10, 0.10,
    "gpuplan assumption: published on-demand rates move about 10% between a table's date and "
    "the run (regions, price changes)" };
constexpr Spread kSpotSpread { 0.30, 0.50,
    "gpuplan assumption: spot rates float with demand, from 30% under to 50% over a quoted "
    "figure" };

Interval spreadAround(double value, const Spread& s)
{
    return { value * (1.0 - s.below), value * (1.0 + s.above) };
}

// FNV-1a: a stable hash of an item's key, the same on every platform.
std::uint64_t hashKey(std::string_view key)
{
    std::uint64_t h = 1469598103934665603ULL;
    for (char c : key) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ULL;
    }
    return h;
}

} // namespace

Spread priceSpread(PriceKind kind)
{
    switch (kind) {
    case PriceKind::Quote:
        return kQuoteSpread;
    case PriceKind::List:
        return kListSpread;
    case PriceKind::Street:
        return kStreetSpread;
    case PriceKind::Resale:
        return kResaleSpread;
    case PriceKind::Unstated:
        return kUnstatedSpread;
    }
    return kUnstatedSpread;
}

Spread onDemandRateSpread()
{
    return kOnDemandSpread;
}

Spread spotRateSpread()
{
    return kSpotSpread;
}

Interval priceRange(double usd, const Provenance& source)
{
    if (source.lowUsd && source.highUsd)
        return { std::min(*source.lowUsd, usd), std::max(*source.highUsd, usd) };
    return spreadAround(usd, priceSpread(source.kind));
}

Interval rateRange(double usdPerHour, bool spot)
{
    return spreadAround(usdPerHour, spot ? kSpotSpread : kOnDemandSpread);
}

Interval assumptionRange(AssumptionId id, double value)
{
    const AssumptionSpec& spec = assumptionSpec(id);
    const Interval r = spreadAround(value, assumptionSpread(id));
    return { std::clamp(r.low, spec.bounds.min, spec.bounds.max),
        std::clamp(r.high, spec.bounds.min, spec.bounds.max) };
}

double atPosition(double low, double value, double high, double position)
{
    const double p = std::clamp(position, -1.0, 1.0);
    return p < 0.0 ? value + p * (value - low) : value + p * (high - value);
}

double atPosition(const Interval& range, double value, double position)
{
    return atPosition(range.low, value, range.high, position);
}

double InputPositions::days(std::string_view key) const
{
    return itemSeed ? itemPosition(*itemSeed, key) : trainingDays;
}

double InputPositions::price(std::string_view key) const
{
    return itemSeed ? itemPosition(*itemSeed, key) : purchasePrices;
}

double InputPositions::rate(std::string_view key) const
{
    return itemSeed ? itemPosition(*itemSeed, key) : cloudRates;
}

std::uint64_t SeededDraws::next()
{
    std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double SeededDraws::uniform()
{
    constexpr double kTwoToMinus53 = 1.0 / 9007199254740992.0;
    return static_cast<double>(next() >> 11) * kTwoToMinus53;
}

double SeededDraws::position()
{
    return uniform() + uniform() - 1.0;
}

double itemPosition(std::uint64_t seed, std::string_view key)
{
    SeededDraws draws(seed ^ hashKey(key));
    return draws.position();
}

bool movedAsAssumption(AssumptionId id)
{
    return id != AssumptionId::AnalyticUtilization
        && assumptionSpread(id).below + assumptionSpread(id).above > 0.0;
}

} // namespace gpuplan

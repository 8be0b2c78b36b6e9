#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuplan {

// What kind of figure a purchase price is: it decides how far the real price may lie from it.
enum class PriceKind {
    Unstated,
    Quote, // a configured-system quote from a vendor
    List, // the vendor's or a reseller's list price (MSRP)
    Street, // a shop's or marketplace's asking price
    Resale, // the used market
};

std::string_view toString(PriceKind kind); // "", "quote", "list", "street", "resale"
std::optional<PriceKind> priceKindFromString(std::string_view text);

// Where a number came from. Every price, rate and reference measurement carries one, so that
// views can show "as of <date>, <source>" next to it and the report can list them all.
struct Provenance {
    std::string date; // ISO 8601 (YYYY-MM-DD or YYYY-MM); empty only for derived values
    std::string source; // human-readable citation or URL
    std::string note; // caveats, e.g. "the paper's text rounds this to $1,000"
    PriceKind kind = PriceKind::Unstated; // prices only
    // Prices only: the range the sources give (usd_low, usd_high); absent: the default spread of
    // the price's kind (core/uncertainty.h).
    std::optional<double> lowUsd = std::nullopt;
    std::optional<double> highUsd = std::nullopt;
};

} // namespace gpuplan

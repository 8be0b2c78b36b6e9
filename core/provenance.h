#pragma once

#include <string>

namespace gpuplan {

// Where a number came from. Every price, rate and reference measurement carries one, so that
// views can show "as of <date>, <source>" next to it and the report can list them all.
struct Provenance {
    std::string date; // ISO 8601 (YYYY-MM-DD or YYYY-MM); empty only for derived values
    std::string source; // human-readable citation or URL
    std::string note; // caveats, e.g. "the paper's text rounds this to $1,000"
};

} // namespace gpuplan

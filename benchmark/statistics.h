#pragma once

#include <vector>

namespace gpuplan::bench {

// Median, fastest and slowest of repeated timings (seconds, days, ...).
struct Spread {
    double median = 0.0;
    double min = 0.0;
    double max = 0.0;
};

Spread spreadOf(std::vector<double> samples); // samples must not be empty

// a * factor + b, element by element (median with median, min with min, max with max).
Spread combine(const Spread& a, double factor, const Spread& b);
Spread scaled(const Spread& a, double factor);

} // namespace gpuplan::bench

#pragma once

#include <vector>

namespace gpuplan::render {

struct Range {
    double min = 0.0;
    double max = 1.0;
};

// The range an axis needs so that no marker at an edge is cut in half (Qt Charts' automatic
// ranges put extreme points on the frame). Linear: 8% of the span each side. Log: only values > 0
// count, padded by a fraction of a decade, and the result is always > 0. Empty input gives [0, 1]
// (linear) or [1, 10] (log).
Range paddedRange(const std::vector<double>& values, bool log);

} // namespace gpuplan::render

#include "app/render/axis_range.h"

#include <algorithm>
#include <cmath>

namespace gpuplan::render {

namespace {
constexpr double kLinearPadFraction = 0.08;
constexpr double kLogPadDecades = 0.12;
} // namespace

Range paddedRange(const std::vector<double>& values, bool log)
{
    std::vector<double> usable;
    for (double v : values)
        if (std::isfinite(v) && (!log || v > 0.0))
            usable.push_back(v);
    if (usable.empty())
        return log ? Range { 1.0, 10.0 } : Range { 0.0, 1.0 };

    const auto [lo, hi] = std::minmax_element(usable.begin(), usable.end());
    if (log) {
        const double a = std::log10(*lo) - kLogPadDecades;
        const double b = std::log10(*hi) + kLogPadDecades;
        return { std::pow(10.0, a), std::pow(10.0, b) };
    }
    double span = *hi - *lo;
    if (span <= 0.0)
        span = std::max(std::abs(*hi), 1.0);
    // No clamping at 0: a cheap option near 0 would lose half its marker to the frame.
    return { *lo - kLinearPadFraction * span, *hi + kLinearPadFraction * span };
}

} // namespace gpuplan::render

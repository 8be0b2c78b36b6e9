#include "benchmark/statistics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace gpuplan::bench {

Spread spreadOf(std::vector<double> samples)
{
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    const double median = n % 2 == 1 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
    return { median, samples.front(), samples.back() };
}

Spread scaled(const Spread& a, double factor)
{
    return { a.median * factor, a.min * factor, a.max * factor };
}

double studentT975(int degreesOfFreedom)
{
    // Tabulated to 30 degrees of freedom (any statistics table; e.g. NIST/SEMATECH e-Handbook,
    // 1.3.6.7.2); beyond, the Cornish-Fisher expansion about the normal quantile, within 0.001
    // of the table at 30 and closer above.
    static constexpr std::array<double, 30> kTable { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447,
        2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093,
        2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
    const int dof = std::max(degreesOfFreedom, 1);
    if (dof <= static_cast<int>(kTable.size()))
        return kTable[static_cast<std::size_t>(dof - 1)];
    constexpr double z = 1.959963984540054;
    const double v = dof;
    const double z3 = z * z * z;
    const double z5 = z3 * z * z;
    return z + (z3 + z) / (4.0 * v) + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v);
}

namespace {

// The mean of `values` and the standard error of that mean, treating them as independent.
std::pair<double, double> meanAndStandardError(const std::vector<double>& values)
{
    const double n = static_cast<double>(values.size());
    double sum = 0.0;
    for (const double x : values)
        sum += x;
    const double mean = sum / n;
    double squares = 0.0;
    for (const double x : values)
        squares += (x - mean) * (x - mean);
    return { mean, std::sqrt(squares / (n - 1.0) / n) };
}

// The means of `batches` contiguous runs of `samples`, their lengths as even as whole samples
// allow.
std::vector<double> batchMeans(const std::vector<double>& samples, int batches)
{
    std::vector<double> means;
    const std::size_t n = samples.size();
    const auto k = static_cast<std::size_t>(batches);
    for (std::size_t b = 0; b < k; ++b) {
        const std::size_t begin = b * n / k;
        const std::size_t end = (b + 1) * n / k;
        double sum = 0.0;
        for (std::size_t i = begin; i < end; ++i)
            sum += samples[i];
        means.push_back(sum / static_cast<double>(end - begin));
    }
    return means;
}

} // namespace

RunRange runRangeOf(const std::vector<double>& samples)
{
    const Spread spread = spreadOf(samples);
    if (samples.size() < 2)
        return { samples.front(), samples.front(), samples.front() };
    const bool batched = samples.size() >= static_cast<std::size_t>(kRunRangeBatchesFrom);
    const auto [plainMean, plainError] = meanAndStandardError(samples);
    const double standardError
        = batched ? meanAndStandardError(batchMeans(samples, kRunRangeBatches)).second : plainError;
    const int degreesOfFreedom
        = batched ? kRunRangeBatches - 1 : static_cast<int>(samples.size()) - 1;
    // A sum of equal samples can land an ulp outside them.
    const double mean = std::clamp(plainMean, spread.min, spread.max);
    const double half = studentT975(degreesOfFreedom) * standardError;
    const double low = std::max(spread.min, mean - half);
    const double high = mean + half;
    return { mean, std::min(low, spread.median), std::max(high, spread.median) };
}

RunRange scaled(const RunRange& a, double factor)
{
    return { a.mean * factor, a.low * factor, a.high * factor };
}

StepTiming stepTimingOf(const std::vector<StepSample>& samples, int accumulation)
{
    std::vector<double> micro, optimizer, step;
    for (const StepSample& s : samples) {
        const double perMicroStep = s.blockSeconds / std::max(s.blockLength, 1);
        micro.push_back(perMicroStep);
        // A multi-process close less a plain micro-step can time below zero (noise): the
        // step keeps it, the optimizer's own spread shows no negative time.
        optimizer.push_back(std::max(0.0, s.optimizerSeconds));
        step.push_back(perMicroStep * accumulation + s.optimizerSeconds);
    }
    return { spreadOf(micro), spreadOf(optimizer), spreadOf(step), runRangeOf(step) };
}

int blockLengthFor(int accumulation, int cap)
{
    return std::max(1, std::min(accumulation, cap));
}

} // namespace gpuplan::bench

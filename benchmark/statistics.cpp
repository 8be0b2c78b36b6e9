#include "benchmark/statistics.h"

#include <algorithm>

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

StepTiming stepTimingOf(const std::vector<StepSample>& samples, int accumulation)
{
    std::vector<double> micro, optimizer, step;
    for (const StepSample& s : samples) {
        const double perMicroStep = s.blockSeconds / std::max(s.blockLength, 1);
        micro.push_back(perMicroStep);
        optimizer.push_back(s.optimizerSeconds);
        step.push_back(perMicroStep * accumulation + s.optimizerSeconds);
    }
    return { spreadOf(micro), spreadOf(optimizer), spreadOf(step) };
}

int blockLengthFor(int accumulation, int cap)
{
    return std::max(1, std::min(accumulation, cap));
}

} // namespace gpuplan::bench

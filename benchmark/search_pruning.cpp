#include "benchmark/search_pruning.h"

#include <cmath>
#include <cstdio>

namespace gpuplan::bench {

namespace {

// X dominates C when C is X plus checkpointing and/or offload, same method and strategy.
bool dominates(const Configuration& x, const Configuration& c)
{
    return x.method == c.method && x.parallelism == c.parallelism
        && (!x.checkpointing || c.checkpointing) && (!x.offload || c.offload)
        && (x.checkpointing != c.checkpointing || x.offload != c.offload);
}

std::string gib(double bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    return text;
}

} // namespace

std::optional<MemoryModel> fitMemoryModel(const std::vector<MemorySample>& samples)
{
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const auto& s : samples) {
        const double x = s.microBatch, y = static_cast<double>(s.peakMemoryBytes);
        n += 1;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    const double denominator = n * sxx - sx * sx;
    if (n < 2 || std::abs(denominator) < 1e-9)
        return std::nullopt;
    MemoryModel m;
    m.bytesPerSample = (n * sxy - sx * sy) / denominator;
    m.fixedBytes = (sy - m.bytesPerSample * sx) / n;
    return m;
}

int largestFittingMicroBatch(const MemoryModel& model, std::int64_t capacityBytes, int target)
{
    int best = 0;
    for (int m = 1; m <= target; m *= 2)
        if (model.fixedBytes + model.bytesPerSample * m <= static_cast<double>(capacityBytes))
            best = m;
    return best;
}

SkipDecision decideSkip(const Configuration& candidate,
    const std::vector<ConfigurationResult>& measured, int target,
    std::optional<std::int64_t> capacityBytes)
{
    SkipDecision decision;
    for (const auto& x : measured) {
        if (!x.feasible() || x.skipped || !dominates(x.configuration, candidate))
            continue;
        if (x.microBatch >= target) {
            decision.skip = true;
            decision.dominatingMicroBatch = x.microBatch;
            decision.reason = "skipped: " + x.name()
                + " already runs the whole per-device batch in one micro-batch and is faster at "
                  "equal micro-batch";
            return decision;
        }
        const bool onlyOffloadAdded = candidate.offload && !x.configuration.offload
            && candidate.checkpointing == x.configuration.checkpointing;
        if (!onlyOffloadAdded || !capacityBytes)
            continue;
        auto model = fitMemoryModel(x.memorySamples);
        if (!model || model->bytesPerSample <= 0.0)
            continue;
        model->fixedBytes -= static_cast<double>(x.stateBytes.optimizerState);
        const int fits = largestFittingMicroBatch(*model, *capacityBytes, target);
        if (fits <= x.microBatch) {
            decision.skip = true;
            decision.dominatingMicroBatch = x.microBatch;
            decision.reason = "skipped: offloading frees "
                + gib(static_cast<double>(x.stateBytes.optimizerState))
                + " of optimizer state, and the memory model of " + x.name() + " ("
                + gib(model->fixedBytes) + " + " + gib(model->bytesPerSample)
                + " per sample) fits micro-batch " + std::to_string(fits)
                + " at most: no larger than measured";
            return decision;
        }
    }
    return decision;
}

} // namespace gpuplan::bench

#include "benchmark/search_pruning.h"

#include "core/micro_batch_model.h"

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
    std::vector<Point> points;
    for (const auto& s : samples)
        points.push_back(
            { static_cast<double>(s.microBatch), static_cast<double>(s.peakMemoryBytes) });
    const auto line = leastSquaresLine(points);
    if (!line)
        return std::nullopt;
    return MemoryModel { line->intercept, line->slope };
}

std::optional<MemoryModel> searchMemoryModel(
    const std::vector<MemorySample>& fitted, double stateBytes)
{
    std::optional<MemoryModel> model = fitMemoryModel(fitted);
    if (!model && !fitted.empty()) {
        const auto& only = fitted.front();
        model = MemoryModel { stateBytes,
            (static_cast<double>(only.peakMemoryBytes) - stateBytes) / only.microBatch };
    }
    if (!model || !(model->bytesPerSample > 0.0))
        return std::nullopt;
    return model;
}

std::optional<std::string> ruledOutByMemory(const std::vector<MemorySample>& fitted,
    double stateBytes, std::int64_t capacityBytes, CapacityIs capacityIs, int microBatch)
{
    const auto model = searchMemoryModel(fitted, stateBytes);
    if (!model || capacityBytes <= 0)
        return std::nullopt;
    const double predicted = model->fixedBytes + model->bytesPerSample * microBatch;
    const double capacity = static_cast<double>(capacityBytes);
    if (predicted < kRuledOutMargin * capacity)
        return std::nullopt;
    std::string measured;
    for (const auto& s : fitted)
        measured += (measured.empty() ? "" : ", ") + std::string("micro-batch ")
            + std::to_string(s.microBatch) + ": " + gib(static_cast<double>(s.peakMemoryBytes));
    char times[16];
    std::snprintf(times, sizeof times, "%g", kRuledOutMargin);
    return "micro-batch " + std::to_string(microBatch) + " not tried: the peaks so far (" + measured
        + (fitted.size() == 1 ? "; the state " + gib(stateBytes) : std::string()) + ") predict "
        + gib(predicted) + ", over " + times + " x "
        + (capacityIs == CapacityIs::DeviceMemory ? "the device's " : "the --memory-limit of ")
        + gib(capacity);
}

int largestFittingMicroBatch(const MemoryModel& model, std::int64_t capacityBytes, int target)
{
    return largestFittingPowerOfTwo(
        { model.fixedBytes, model.bytesPerSample }, static_cast<double>(capacityBytes), target);
}

SkipDecision decideSkip(const Configuration& candidate,
    const std::vector<ConfigurationResult>& measured, int target,
    std::optional<std::int64_t> capacityBytes)
{
    SkipDecision decision;
    for (const auto& x : measured) {
        if (!x.feasible() || x.skipped || !dominates(x.configuration, candidate))
            continue;
        if (x.fittedMicroBatch >= target) {
            decision.skip = true;
            decision.dominatingMicroBatch = x.fittedMicroBatch;
            // "The whole per-device batch" only where it is: in an uneven batch the largest
            // micro-batch tried fits and the step still takes two (48 with 32 fitting: 2 x 24).
            decision.reason = "skipped: " + x.name()
                + (x.accumulation == 1
                        ? std::string(" already runs the whole per-device batch in one micro-batch")
                        : " already fits the largest micro-batch the search tries ("
                            + std::to_string(target) + ")")
                + " and is faster at equal micro-batch";
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
        if (fits <= x.fittedMicroBatch) {
            decision.skip = true;
            decision.dominatingMicroBatch = x.fittedMicroBatch;
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

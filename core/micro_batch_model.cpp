#include "core/micro_batch_model.h"

#include <algorithm>
#include <cmath>

namespace gpuplan {

std::optional<Line> leastSquaresLine(const std::vector<Point>& points)
{
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const auto& p : points) {
        n += 1;
        sx += p.x;
        sy += p.y;
        sxx += p.x * p.x;
        sxy += p.x * p.y;
    }
    const double denominator = n * sxx - sx * sx;
    if (n < 2 || std::abs(denominator) < 1e-9)
        return std::nullopt;
    Line line;
    line.slope = (n * sxy - sx * sy) / denominator;
    line.intercept = (sy - line.slope * sx) / n;
    return line;
}

int largestFittingPowerOfTwo(const Line& peakBytes, double capacityBytes, int ceiling)
{
    int best = 0;
    for (int m = 1; m <= ceiling; m *= 2)
        if (peakBytes.at(m) <= capacityBytes)
            best = m;
    return best;
}

int largestPowerOfTwoAtMost(int n)
{
    int p = 1;
    while (p <= n / 2)
        p *= 2;
    return p;
}

MicroBatchSplit splitEvenly(int perDevice, int fits)
{
    MicroBatchSplit split;
    split.accumulation = (perDevice + fits - 1) / fits;
    split.microBatch = (perDevice + split.accumulation - 1) / split.accumulation;
    return split;
}

namespace {

// What one rank of `base` held (absent bytes as 0), and the same states as one GPU holds them
// unsharded.
TrainingStates measuredStates(const MeasuredResult& base)
{
    return { static_cast<double>(base.parameterBytes.value_or(0)),
        static_cast<double>(base.gradientBytes.value_or(0)),
        static_cast<double>(base.optimizerStateBytes.value_or(0)) };
}
TrainingStates wholeStatesOf(const MeasuredResult& base)
{
    return wholeStates(measuredStates(base), base.parallelism, base.gpuCount);
}

std::optional<Line> microStepTime(const MeasuredResult& m)
{
    std::vector<Point> points;
    for (const auto& s : m.microStepSamples)
        points.push_back({ static_cast<double>(s.microBatch), s.seconds });
    auto line = leastSquaresLine(points);
    // A time that does not grow with the micro-batch, or is not positive at one sample, is
    // noise, not a model to price other micro-batches with.
    if (!line || line->slope <= 0.0 || line->at(1.0) <= 0.0)
        return std::nullopt;
    return line;
}

// The peak-memory line and the per-GPU states of the measurement; nullopt if the file lacks
// either.
struct MemoryModel {
    Line peak;
    TrainingStates measured;
    TrainingStates whole; // as one GPU would hold them unsharded
};

std::optional<MemoryModel> memoryModel(const MeasuredResult& base)
{
    std::vector<Point> peaks;
    for (const auto& s : base.memorySamples)
        peaks.push_back({ static_cast<double>(s.microBatch), static_cast<double>(s.peakBytes) });
    const auto peak = leastSquaresLine(peaks);
    // A ZeRO-3 rank held a shard of the parameters: without its bytes the strategies that keep
    // them whole would seem to need no more room than the run had.
    const bool parametersKnown = base.parameterBytes || shardingLevel(base.parallelism) < 3;
    // Peak memory that does not grow with the micro-batch is noise, not a model: a flat line
    // had let every micro-batch up to 256 "fit" (the time line's slope is checked alike).
    if (!peak || !(peak->slope > 0.0) || !base.optimizerStateBytes || !base.gradientBytes
        || !parametersKnown)
        return std::nullopt;
    return MemoryModel { *peak, measuredStates(base), wholeStatesOf(base) };
}

} // namespace

double parameterToGradientBytes(const MeasuredResult& base)
{
    const TrainingStates whole = wholeStatesOf(base);
    if (!(whole.parameters > 0.0) || !(whole.gradients > 0.0))
        return 1.0;
    return whole.parameters / whole.gradients;
}

std::vector<MicroBatchAtCount> microBatchChoices(
    const MeasuredResult& base, int globalBatch, int gpuCount, double capacityBytes)
{
    if (base.microBatch <= 0 || base.accumulation <= 0 || globalBatch <= 0 || gpuCount <= 0)
        return {};
    const int perGpu = std::max(1, (globalBatch + gpuCount - 1) / gpuCount);
    const int ceiling = largestPowerOfTwoAtMost(perGpu);
    // The measured micro-batch ran, so it fits wherever each GPU holds no more state; fewer
    // samples per GPU than it can only shrink it. Not a power of two where gpuplan-bench split
    // an uneven batch (2 x 24 of 48).
    const int measuredFits = std::min(base.microBatch, perGpu);

    const auto time = microStepTime(base);
    // Past the largest micro-batch timed the line is an extrapolation: its intercept spread
    // over more samples makes each faster than any measured (ConvNeXt-XL at 256 from samples at
    // 64 and 128: 8 H200s 8.03x one, the range as narrow as the run's noise; review). The
    // slow end of the range takes a sample there as long as at the largest timed.
    double largestTimed = 0.0;
    for (const auto& s : base.microStepSamples)
        largestTimed = std::max(largestTimed, static_cast<double>(s.microBatch));
    const auto flatPastTimed = [&](double microBatch) {
        return microBatch <= largestTimed ? time->at(microBatch)
                                          : time->at(largestTimed) * microBatch / largestTimed;
    };
    // Per-sample time at the measured micro-batch, the rate that scaling days by k / N assumes.
    const double measuredPerSample = time ? time->at(base.microBatch) / base.microBatch : 1.0;
    // The largest micro-batch that fits, then the per-GPU share split evenly at that size.
    const auto choose = [&](Parallelism strategy, int fits, bool fitted) {
        MicroBatchAtCount at;
        at.strategy = strategy;
        const MicroBatchSplit split = splitEvenly(perGpu, fits);
        at.microBatch = split.microBatch;
        at.accumulation = split.accumulation;
        at.timed = time.has_value();
        at.memoryFitted = fitted;
        const double microStep
            = time ? time->at(at.microBatch) : static_cast<double>(at.microBatch);
        at.computeRatio = at.accumulation * microStep / (perGpu * measuredPerSample);
        at.computeRatioHigh = time ? std::max(at.computeRatio,
                                  at.accumulation * flatPastTimed(at.microBatch)
                                      / (perGpu * flatPastTimed(base.microBatch) / base.microBatch))
                                   : at.computeRatio;
        at.communication
            = stepCommunication(strategy, at.accumulation, parameterToGradientBytes(base));
        return at;
    };
    // The run's own strategy holds no more state per GPU on more GPUs, so its micro-batch fits
    // there: a ZeRO-3 run extrapolated as ddp had been priced one all-reduce a step for a model
    // whose states ddp could not hold (review).
    const Parallelism measured = onSeveralGpus(base.parallelism);

    const auto model = capacityBytes > 0.0 ? memoryModel(base) : std::nullopt;
    if (!model)
        return { choose(measured, measuredFits, false) };

    std::vector<MicroBatchAtCount> choices;
    for (const Parallelism strategy : kDataParallelStrategies) {
        const TrainingStates there = statesPerRank(model->whole, strategy, gpuCount);
        Line shifted = model->peak;
        shifted.intercept += there.total() - model->measured.total();
        int fits = largestFittingPowerOfTwo(shifted, capacityBytes, ceiling);
        if (there.total() <= model->measured.total())
            fits = std::max(fits, measuredFits);
        if (fits > 0)
            choices.push_back(choose(strategy, fits, true));
    }
    if (choices.empty()) // the fit says nothing fits, yet the measurement ran: trust the run
        choices.push_back(choose(measured, measuredFits, true));
    return choices;
}

} // namespace gpuplan

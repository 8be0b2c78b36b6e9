#pragma once

// How a training step's peak memory and micro-step time grow with the micro-batch: straight
// lines through what gpuplan-bench measured (a results file's memory_samples and
// micro_step_samples). The benchmark's search pruning and the planner's extrapolation to other
// GPU counts both fit them here, so the two never disagree on what fits; both split a per-GPU
// batch the fitted micro-batch does not divide into equal micro-batches.

#include "core/reference_data.h"
#include "core/step_communication.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

struct Line {
    double intercept = 0.0;
    double slope = 0.0;
    double at(double x) const { return intercept + slope * x; }
};

struct Point {
    double x = 0.0;
    double y = 0.0;
};

// Least squares; nullopt with fewer than two distinct x.
std::optional<Line> leastSquaresLine(const std::vector<Point>& points);

// The largest power of two <= ceiling whose predicted peak fits capacityBytes; 0 if none.
int largestFittingPowerOfTwo(const Line& peakBytes, double capacityBytes, int ceiling);

// The largest power of two <= n (1 for n < 1).
int largestPowerOfTwoAtMost(int n);

// A per-device batch run in micro-batches of at most `fits` samples: as few micro-steps as that
// takes, of equal size (48 with 32 fitting: 2 x 24, not 32 and a last one padded to 32), as a
// training stack splits it. gpuplan-bench runs it so, and the planner prices it so.
struct MicroBatchSplit {
    int microBatch = 0;
    int accumulation = 0;
};
MicroBatchSplit splitEvenly(int perDevice, int fits);

// One way to run the step on N GPUs, from a measurement on fewer: a strategy, the micro-batch
// it leaves room for, and what that costs per step against the measurement.
struct MicroBatchAtCount {
    Parallelism strategy = Parallelism::Ddp; // ddp, zero1, zero2 or zero3
    // Per GPU, at most the per-GPU share of the batch: the largest power of two that fits (or
    // the measured micro-batch), lowered to split the share into equal micro-batches.
    int microBatch = 0;
    int accumulation = 0; // micro-steps per optimizer step on each GPU
    // Per-GPU compute per step against the measured micro-batch's, per sample: from the
    // micro-step times measured at two or more micro-batches (timed), else 1 (every sample
    // takes as long as at the measured micro-batch) apart from a padded last micro-step.
    double computeRatio = 1.0;
    // The same with no gain past the largest micro-batch timed (a sample there as long as at
    // it): the slow end of the extrapolation's range. computeRatio where nothing is extrapolated.
    double computeRatioHigh = 1.0;
    // What the strategy exchanges per step at this accumulation, and how much of it can hide
    // behind the backward pass (core/step_communication.h).
    StepCommunication communication;
    bool timed = false;
    bool memoryFitted = false; // peaks at two micro-batches and the state bytes were measured
};

// The choices N GPUs offer: ddp and ZeRO-1, -2 and -3, each at the largest power-of-two
// micro-batch its memory model predicts to fit (one that leaves each GPU no more
// state than the measured run keeps at least the measured micro-batch, which ran), the per-GPU
// share split evenly at that size. Without peaks at
// two micro-batches or the state bytes, only the measured strategy (ddp for one GPU) at the
// measured micro-batch (fewer if the per-GPU share is smaller): more GPUs hold no more of its
// state than the run did. Empty when the measurement lacks its micro-batch or accumulation
// (older files).
std::vector<MicroBatchAtCount> microBatchChoices(
    const MeasuredResult& base, int globalBatch, int gpuCount, double capacityBytes);

// The whole model's parameter bytes over its gradient bytes, what an all-gather of the
// parameters moves against a reduce-scatter of the gradients: 1 where the file lacks either
// (both fp32, as gpuplan-bench keeps them).
double parameterToGradientBytes(const MeasuredResult& base);

} // namespace gpuplan

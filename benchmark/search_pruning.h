#pragma once

// Which configurations the search can skip without losing the best one. A configuration that
// adds activation checkpointing (a recomputed forward) or optimizer offload (the update on the
// CPU, states across PCIe) to one already measured is slower at the same micro-batch; it can
// only win by fitting a larger micro-batch. It is skipped when it cannot:
//   - the measured one already runs the whole per-device batch in one micro-batch, or
//   - (offload) the memory model fitted from the measured one's peaks, peak(m) = fixed +
//     per-sample x m, less the optimizer state offloading moves off the device, fits no larger
//     power of two in the device's memory.
// Parallel strategies are never skipped: their measurements feed estimates for other GPU
// counts, where their order changes. No LibTorch.

#include "benchmark/measurement.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::bench {

struct MemoryModel {
    double fixedBytes = 0.0;
    double bytesPerSample = 0.0;
};

// Least squares through the samples; nullopt with fewer than two distinct micro-batches.
std::optional<MemoryModel> fitMemoryModel(const std::vector<MemorySample>& samples);

// The largest power of two <= target whose predicted peak fits `capacityBytes`; 0 if none.
int largestFittingMicroBatch(const MemoryModel& model, std::int64_t capacityBytes, int target);

struct SkipDecision {
    bool skip = false;
    std::string reason; // why, naming the configuration that makes it pointless
    int dominatingMicroBatch = 0; // the measured configuration's micro-batch
};

// `target`: the per-device batch's largest power of two (the search's ceiling);
// `capacityBytes`: the device's memory (GPU) or the CPU memory limit; nullopt = unlimited.
SkipDecision decideSkip(const Configuration& candidate,
    const std::vector<ConfigurationResult>& measured, int target,
    std::optional<std::int64_t> capacityBytes);

} // namespace gpuplan::bench

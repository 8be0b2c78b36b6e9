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
// counts, where their order changes. Within a configuration's micro-batch search, a micro-batch
// whose predicted peak far exceeds the device's memory is not tried (ruledOutByMemory). No
// LibTorch.

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

// What the micro-batch search knows of a configuration's memory before it is measured: the
// peaks of the trials that fitted so far as a line (least squares) once two micro-batches
// fitted; after one, the line from the state alone (parameters, gradients and optimizer state,
// held whatever the micro-batch) through its peak. That one-point line is steeper than the truth
// by whatever else the step holds at a fixed size (workspaces, the head's chunk), so it predicts
// high. nullopt without a fitted trial, or where the peaks do not grow with the micro-batch.
std::optional<MemoryModel> searchMemoryModel(
    const std::vector<MemorySample>& fitted, double stateBytes);

// A micro-batch whose predicted peak is at least this many times the device's memory is not
// tried. What makes a prediction high must stay under what the margin absorbs: the fixed memory
// the state leaves out (kept casts, ZeRO's buckets and gathered groups, workspaces; Pythia-1B's
// peaks put it near 3 GB), which the one-point line multiplies by the ratio of the two
// micro-batches less one (7 to 15 at the search's second trial), and the spelled-out attention's
// scores, which a ruled-out micro-batch never gets to drop by the retry with the fused kernel
// (about a third of ViT-L's per-sample bytes: one that fits with the fused kernel is predicted
// under 1.5 x). With offload the state counts host memory too, so the one-point line predicts
// low and rules out less.
// ConvNeXt-XL's first trial on an H200 (micro-batch 64, 33.8 GiB) put 1024 at 453 GiB, over
// 2.5 x 139.8, and 256 at 118 GiB (tried); the fixed-128 run measured 61.6 GiB at 128. A
// micro-batch ruled out wrongly costs speed, not a wrong figure: a smaller one is measured, and
// the note names the one not tried (--micro-batch tries it).
inline constexpr double kRuledOutMargin = 2.5;

// What capacityBytes is, in the note: a GPU's own memory, or a CPU run's --memory-limit.
enum class CapacityIs { DeviceMemory, MemoryLimit };

// Why the search need not try `microBatch` (a note for the results), or nullopt where the
// memory model does not rule it out.
std::optional<std::string> ruledOutByMemory(const std::vector<MemorySample>& fitted,
    double stateBytes, std::int64_t capacityBytes, CapacityIs capacityIs, int microBatch);

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

#pragma once

// What a benchmark run measures, independent of LibTorch: configurations, their timings and
// the report the results file and the tables are written from.

#include "benchmark/device_info.h"
#include "benchmark/free_lunch_parts.h"
#include "benchmark/model_spec.h"
#include "benchmark/recipe.h"
#include "benchmark/statistics.h"
#include "benchmark/time_breakdown.h"
#include "core/parallelism.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::bench {

// naive: the paper's baseline, the recipe's precision (autocast) with explicit attention, a
// per-tensor optimizer, eager. free-lunch: that plus TF32 on Ampere+, fused attention, one
// weight cast per optimizer step, cuDNN's autotuner, channels-last convolutions on CUDA, fused
// Adam(W) where LibTorch has it, the micro-step captured as a CUDA graph where that works
// (training_setup.h, docs/benchmark.md "Method").
enum class Method { Naive, FreeLunch };
std::string_view toString(Method m);

// How the ranks of a multi-process run share the work: core's definition, which the results
// files and the planner read too.
using gpuplan::Parallelism;
using gpuplan::parallelismFromString;

struct Configuration {
    Method method = Method::FreeLunch;
    bool checkpointing = false;
    bool offload = false;
    Parallelism parallelism = Parallelism::None;
    // Free-lunch parts this configuration runs without (an ablation: --free-lunch-without).
    std::vector<FreeLunchPart> withheld {};
    // Whether this configuration's method uses `part`: the free lunch, less what it withholds.
    bool uses(FreeLunchPart part) const;
    // "free-lunch ckpt=off offload=off" (single process) or "free-lunch zero1 ckpt=off
    // offload=off", with " without=fused-rotary" for an ablation: names it before the
    // micro-batch is known.
    std::string label() const;
};

// Peak memory of one step at one micro-batch: two or more of these per configuration let a
// planner fit peak(m) = fixed + per-sample x m.
struct MemorySample {
    int microBatch = 0;
    std::int64_t peakMemoryBytes = 0;
};

// One eager, warm micro-step at one micro-batch (the planner fits time against micro-batch
// from two of them: core/micro_batch_model.h).
struct MicroStepSample {
    int microBatch = 0;
    double seconds = 0.0;
};

// What a multi-process configuration spent on communication, per rank and optimizer step.
struct CommunicationResult {
    Spread computeSeconds; // the step with every collective replaced by a local copy
    // Its optimizer step alone (the close less a plain micro-step, as optimizer_step_seconds):
    // the part of the compute that more GPUs shrink only where they shard the optimizer state.
    // ddp and ZeRO-3 only: a ZeRO-1 or -2 close also gathers the parameters, which local-only
    // makes a copy of (k - 1) / k of them, a stand-in for the gather, not part of the update.
    std::optional<Spread> optimizerComputeSeconds;
    Spread seconds; // the step's collectives alone, on the step's buffers
    std::int64_t bytes = 0; // algorithm bytes (nccl-tests' "size") summed over the collectives
    std::int64_t busBytes = 0; // bytes x the nccl-tests bus factor of each collective
    std::optional<double> busBandwidth; // busBytes / seconds.median, bytes per second
};

// Bytes one rank holds between steps (persistent state, not activations).
struct StateBytes {
    std::int64_t parameters = 0;
    std::int64_t gradients = 0;
    std::int64_t optimizerState = 0;
};

struct ConfigurationResult {
    Configuration configuration;
    int microBatch = 0; // 0: nothing fits
    // The largest power of two that fitted (the search's, halved where the timed run ran out
    // of memory); microBatch splits the per-device batch evenly, so it may be less. The search
    // and its pruning count in these.
    int fittedMicroBatch = 0;
    int accumulation = 0;
    Spread forwardBackward; // one micro-step, seconds
    Spread optimizerStep; // seconds
    Spread step; // forwardBackward x accumulation + optimizerStep
    Spread trainingDays;
    RunRange stepRun; // where a run's mean step lies (statistics.h): the range the planner prices
    RunRange trainingDaysRun;
    std::optional<double> utilization;
    std::int64_t peakMemoryBytes = 0;
    int trialSteps = 0;
    int timedSamples = 0; // samples behind `step` (statistics.h, StepSample)
    int blockMicroSteps = 0; // micro-steps each sample ran back to back (of `accumulation`)
    int validationSteps = 0; // full steps behind validatedStepSeconds
    std::optional<double> validationError;
    std::optional<double> validatedStepSeconds;
    std::vector<MemorySample> memorySamples; // ascending micro-batch, maximum over ranks
    std::vector<MicroStepSample> microStepSamples; // ascending micro-batch, slowest rank
    StateBytes stateBytes; // per rank
    std::optional<CommunicationResult> communication; // multi-process runs only
    // Where a step's time goes, by kind of work (run --time-breakdown on; single process).
    std::optional<TimeBreakdown> timeBreakdown;
    // Skipped by the search: a configuration it measured already fits at least as large a
    // micro-batch and is faster at equal micro-batch (the reason is the first note).
    bool skipped = false;
    // Set when the configuration ran but its loss or a gradient was not finite: its timings
    // would time garbage, so it is not feasible and not listed in the results file. Begins
    // with "failed: ".
    std::optional<std::string> failure;
    std::vector<std::string> notes;

    bool feasible() const { return microBatch > 0 && !failure; }
    // "free-lunch mbs=16 ckpt=off offload=off", with the strategy after the method in a
    // multi-process run: "free-lunch zero1 mbs=16 ckpt=off offload=off"
    // (docs/results-format.md).
    std::string name() const;
};

struct ToolInfo {
    std::string version;
    std::string libtorch;
    std::string cuda; // "" on CPU builds
    std::string cudaAllocator; // PYTORCH_CUDA_ALLOC_CONF of a CUDA run ("" = the defaults)
    std::string cpuAllocator; // glibc malloc's settings of a CPU run (cpu_allocator.h)
};

// Algorithm and bus bandwidth of one collective at one message size, as nccl-tests defines
// them (benchmark/distributed/bus_bandwidth.h).
struct CollectiveSample {
    std::string collective; // all_reduce | reduce_scatter | all_gather
    std::int64_t bytes = 0;
    double seconds = 0.0; // median over iterations of the slowest rank
    double algorithmBandwidth = 0.0; // bytes / seconds, bytes per second
    double busBandwidth = 0.0; // algorithmBandwidth x bus factor, bytes per second
};

struct Interconnect {
    std::string backend; // nccl | gloo
    int worldSize = 0;
    int nodeCount = 0;
    std::vector<std::string> notes; // e.g. a collective built from others
    std::vector<CollectiveSample> samples;
};

// How much the configuration search ran against what searching every configuration with the
// paper's doubling would have cost.
struct SearchAccount {
    int trialSteps = 0;
    int exhaustiveTrialSteps = 0;
    int configurationsSkipped = 0;
};

struct RunReport {
    ToolInfo tool;
    std::string measuredAt; // UTC, ISO 8601
    std::string host;
    bool complete = false;
    DeviceInfo device;
    int gpuCount = 1; // ranks (one per GPU; CPU processes in a CPU run)
    int nodeCount = 1;
    ModelSpec model;
    std::int64_t parameters = 0;
    double flopsPerStep = 0.0;
    Recipe recipe;
    std::vector<ConfigurationResult> configurations; // feasible and infeasible, in run order
    std::optional<Interconnect> interconnect; // multi-process runs
    SearchAccount search;

    // The feasible configuration with the shortest mean step (what the planner prices);
    // nullptr if none.
    const ConfigurationResult* best() const;
};

} // namespace gpuplan::bench

#pragma once

#include "core/parallelism.h"
#include "core/provenance.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

// One cell of a published table of training days (the paper's Tables 1 and 4).
struct ReferenceMeasurement {
    enum class Table { Optimal, Naive };
    Table table = Table::Optimal;
    std::string modelId;
    std::string gpuId;
    int gpuCount = 0;
    std::optional<double> days; // absent: published as infeasible ("—")
    std::string configuration; // e.g. "MBS 16, GAS 8, ZeRO-1" (Appendix J), may be empty
    Provenance source;
};

// Peak memory of one step at one micro-batch (two or more per configuration fit a memory
// model: peak = fixed + per-sample x micro-batch).
struct MeasuredMemorySample {
    int microBatch = 0;
    std::int64_t peakBytes = 0;
};

// Time of one micro-step at one micro-batch, measured eager and warm (two or more per
// configuration fit time = fixed + per-sample x micro-batch).
struct MeasuredMicroStepSample {
    int microBatch = 0;
    double seconds = 0.0;
};

// One point of a results file's `interconnect` section: a collective at one message size,
// nccl-tests' definitions (docs/results-format.md).
struct MeasuredCollective {
    std::string collective; // all_reduce | reduce_scatter | all_gather
    std::int64_t bytes = 0;
    double seconds = 0.0;
    double busBandwidth = 0.0; // bytes per second
};

// One configuration measured by gpuplan-bench and read back from its results file.
struct MeasuredResult {
    std::string modelId;
    std::string gpuId; // GpuSpec::id of the device, or empty if the device is unknown
    std::string deviceName;
    int gpuCount = 1;
    double trainingDays = 0.0;
    // The range of a run's mean step x steps (results files since 2026-11-28), else the fastest
    // and slowest single step x steps; 0: none recorded.
    double trainingDaysLow = 0.0;
    double trainingDaysHigh = 0.0;
    std::string configuration;
    std::optional<double> impliedUtilization;
    std::optional<double> validationError; // relative, from --validate
    // false where the timed block was the whole step (block_micro_steps = accumulation): the
    // validation then timed the same work again, which measures noise, not an extrapolation.
    bool validationExtrapolated = true;
    std::string file; // where it was read from
    Provenance source; // date of measurement, tool version, host

    // What a planner needs to extrapolate to other GPU counts (issue 11). Files written before
    // these fields existed leave them empty.
    Parallelism parallelism = Parallelism::None;
    int nodeCount = 1;
    int microBatch = 0;
    int accumulation = 0;
    double stepSeconds = 0.0; // one optimizer step: the mean where the file has it, else median
    double stepMedianSeconds = 0.0; // its median, what compute_seconds (a median) compares to
    std::vector<MeasuredMemorySample> memorySamples; // ascending micro-batch
    std::vector<MeasuredMicroStepSample> microStepSamples; // ascending micro-batch
    std::optional<std::int64_t> parameterBytes; // per rank, between steps
    std::optional<std::int64_t> gradientBytes;
    std::optional<std::int64_t> optimizerStateBytes;
    // Multi-process configurations: per rank and optimizer step.
    std::optional<double> computeSeconds; // the step with collectives replaced by local copies
    // One optimizer step alone, per rank (a median): optimizer_step_seconds of a one-GPU run,
    // optimizer_compute_seconds (collectives as local copies) of a multi-process one; absent in
    // multi-process files before 2026-12-03, whose optimizer_step_seconds holds the close's
    // collectives too.
    std::optional<double> optimizerComputeSeconds;
    std::optional<double> communicationSeconds; // the step's collectives alone
    std::optional<std::int64_t> communicationBytes; // algorithm bytes of those collectives
    std::optional<double> busBandwidth; // bytes per second the step's collectives achieved
    // The file's interconnect section (comm-probe between the same ranks); empty if none. Read
    // and checked, not priced: the estimates take busBandwidth, what the step's own collectives
    // reached beside its compute, over bare collectives at the probe's sizes.
    std::string interconnectBackend;
    std::vector<MeasuredCollective> interconnect;
};

} // namespace gpuplan

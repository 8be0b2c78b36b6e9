#pragma once

// Runs the benchmark: builds the model, and for each configuration searches the micro-batch,
// warms up, times blocks of back-to-back micro-steps each followed by the optimizer step,
// optionally validates against full steps, and extrapolates to the recipe's training time.

#include "benchmark/measurement.h"
#include "benchmark/progress.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::bench {

namespace distributed {
class Communicator;
}
class TrainableModel;

struct RunOptions {
    ModelSpec model;
    Recipe recipe;
    DeviceInfo device;
    std::vector<Configuration> configurations;
    std::optional<int> microBatch; // fixed micro-batch: no search
    int stepsMeasured = 3; // k timed samples of a step (statistics.h, StepSample)
    // Timed samples, and validation steps, go on past their counts until each adds up to this
    // many seconds (at most 1000 steps), so short steps are measured as precisely as long ones.
    double minMeasureSeconds = 0.0;
    // Micro-steps a timed sample runs back to back: the accumulation, at most this many, so a
    // sample of a step with hundreds of micro-steps stays bounded.
    int maxBlockMicroSteps = 8;
    int warmupSteps = 1; // discarded
    std::optional<std::int64_t> memoryLimitBytes; // CPU only
    int validateSteps = 0; // full optimizer steps to check the extrapolation against
    std::uint64_t seed = 0;
    // A multi-process run: the ranks' communicator (not owned). Every rank runs runBenchmark
    // with the same options; timings, fits and peaks are agreed across ranks (the slowest
    // rank's time, the largest peak), so every rank ends with the same report. nullptr: one
    // process, the single-GPU path.
    distributed::Communicator* communicator = nullptr;
    // After every configuration is timed, profile each (single-process) one's step and record
    // where its time goes (step_profile.h, time_breakdown.h).
    bool timeBreakdown = false;
    // Skip configurations that cannot win, and micro-batches the memory model rules out
    // (search_pruning.h); the first is off when the micro-batch is fixed.
    bool pruneSearch = true;
    // Called with the built model before any step: tests poison a weight with it.
    std::function<void(TrainableModel&)> prepareModel;
};

// Called with the report so far after every configuration (so a results file can be rewritten),
// and once more at the end with complete = true.
using ReportSink = std::function<void(const RunReport&)>;

RunReport runBenchmark(const RunOptions& options, RunReport report, const ProgressSink& progress,
    const ReportSink& onUpdate);

// The configurations --methods, the checkpointing / offload choices and the parallel
// strategies stand for, in the order the search measures them (a configuration before those
// that add checkpointing or offload to it). Offload needs a GPU (on the CPU the state already
// lives in host memory). `strategies` is {Parallelism::None} for a single process. The
// free-lunch configurations withhold `withheld`.
std::vector<Configuration> configurationsFor(const std::string& methods,
    const std::vector<bool>& checkpointing, const std::vector<bool>& offload, bool cuda,
    const std::vector<Parallelism>& strategies = { Parallelism::None },
    const std::vector<FreeLunchPart>& withheld = {});

} // namespace gpuplan::bench

#pragma once

// What a benchmark run measures, independent of LibTorch: configurations, their timings and
// the report the results file and the tables are written from.

#include "benchmark/device_info.h"
#include "benchmark/model_spec.h"
#include "benchmark/recipe.h"
#include "benchmark/statistics.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::bench {

// naive: fp32, explicit attention, per-tensor optimizer, eager. free-lunch: TF32 on Ampere+,
// fused attention, autocast to the recipe's precision, fused Adam(W) where LibTorch has it,
// the micro-step captured as a CUDA graph where that works.
enum class Method { Naive, FreeLunch };
std::string_view toString(Method m);

struct Configuration {
    Method method = Method::FreeLunch;
    bool checkpointing = false;
    bool offload = false;
    // "free-lunch ckpt=off offload=off": names it before the micro-batch is known.
    std::string label() const;
};

struct ConfigurationResult {
    Configuration configuration;
    int microBatch = 0; // 0: nothing fits
    int accumulation = 0;
    Spread forwardBackward; // one micro-step, seconds
    Spread optimizerStep; // seconds
    Spread step; // forwardBackward x accumulation + optimizerStep
    Spread trainingDays;
    std::optional<double> utilization;
    std::int64_t peakMemoryBytes = 0;
    int trialSteps = 0;
    std::optional<double> validationError;
    std::optional<double> validatedStepSeconds;
    std::vector<std::string> notes;

    bool feasible() const { return microBatch > 0; }
    // "free-lunch mbs=16 ckpt=off offload=off" (docs/results-format.md).
    std::string name() const;
};

struct ToolInfo {
    std::string version;
    std::string libtorch;
    std::string cuda; // "" on CPU builds
};

struct RunReport {
    ToolInfo tool;
    std::string measuredAt; // UTC, ISO 8601
    std::string host;
    bool complete = false;
    DeviceInfo device;
    int gpuCount = 1;
    ModelSpec model;
    std::int64_t parameters = 0;
    double flopsPerStep = 0.0;
    Recipe recipe;
    std::vector<ConfigurationResult> configurations; // feasible and infeasible, in run order

    // The feasible configuration with the shortest median step; nullptr if none.
    const ConfigurationResult* best() const;
};

} // namespace gpuplan::bench

#pragma once

// Command line of gpuplan-bench (the interface other tools rely on: keep the names).
//   gpuplan-bench devices [--format table|json]
//   gpuplan-bench describe --model ID|--config FILE.json [--format table|json] [recipe overrides]
//   gpuplan-bench run --model ID|--config FILE.json [--device cpu|cuda|cuda:N]
//       [--methods naive|free-lunch|all] [--activation-checkpointing off|on|both]
//       [--offload off|on|both] [--micro-batch N] [--batch-size N] [--seq-len N] [--steps N]
//       [--precision fp32|tf32|fp16|bf16] [--optimizer adam|adamw] [--steps-measured K]
//       [--min-time SECONDS] [--warmup N] [--memory-limit BYTES] [--validate N] [--seed N]
//       [--out results.yaml] [--progress jsonl] [--format table|json]
//       [--nproc-per-node N] [--parallelism ddp|zero1|zero2|zero3|all]
//       [--free-lunch-without PART[,PART...]] [--time-breakdown off|on]
//   gpuplan-bench comm-probe [--nproc-per-node N] [--device cpu|cuda] [--max-bytes N]
//       [--format table|json]

#include "benchmark/free_lunch_parts.h"
#include "benchmark/recipe.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::bench {

struct CliOptions {
    std::string command; // devices | describe | run | comm-probe | help
    std::vector<std::string> arguments; // as given, after the program name
    std::string format = "table";
    std::optional<std::string> model;
    std::optional<std::string> config;
    std::optional<std::string> device;
    std::string methods = "all";
    std::optional<std::string> checkpointing; // off | on | both
    std::optional<std::string> offload; // off | on | both
    std::optional<int> microBatch;
    RecipeOverrides recipe;
    int stepsMeasured = 3;
    // Timed samples (and validation steps) go on until they add up to this: a tiny model's
    // steps of tens of milliseconds on a shared machine need dozens (docs/benchmark.md).
    double minTimeSeconds = 5.0;
    int warmup = 1;
    std::optional<std::int64_t> memoryLimit;
    int validate = 0;
    // Micro-steps each timed sample runs back to back before closing the step; the rest of the
    // accumulation is extrapolated from them. With --validate, a block shorter than the
    // accumulation is what makes the check test the extrapolation (docs/benchmark.md).
    int blockMicroSteps = 8;
    std::uint64_t seed = 0;
    std::optional<std::string> out;
    bool progressJsonl = false;
    // Multi-process runs: processes to start on this machine (one per GPU), and the parallel
    // strategies to measure ("all" = ddp, zero1, zero2, zero3).
    std::optional<int> nprocPerNode;
    std::optional<std::string> parallelism;
    std::optional<std::int64_t> maxBytes; // comm-probe's largest message
    // Free-lunch parts to withhold (an ablation; free_lunch_parts.h).
    std::vector<FreeLunchPart> freeLunchWithout;
    // Profile each timed configuration once more and record where its step's time goes.
    bool timeBreakdown = false;
};

struct CliParse {
    CliOptions options;
    std::string error; // usage error; empty when options are valid
};

CliParse parseCommandLine(const std::vector<std::string>& args);
std::string usageText();

// "on" -> {true}, "off" -> {false}, "both" -> {false, true}.
std::vector<bool> choices(const std::string& offOnBoth);

// The arguments a rank started by --nproc-per-node gets: the same, without that option.
std::vector<std::string> withoutProcessCount(const std::vector<std::string>& arguments);

} // namespace gpuplan::bench

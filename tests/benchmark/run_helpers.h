#pragma once

// Runs the benchmark in-process on a tiny model on the CPU.

#include "benchmark/model_selection.h"
#include "benchmark/runner.h"
#include "tiny_models.h"

#include <vector>

namespace gpuplan::bench::testing {

inline RunOptions tinyRun(
    const ModelSpec& spec, int globalBatch, std::vector<Configuration> configurations)
{
    RunOptions o;
    o.model = spec;
    RecipeOverrides overrides;
    overrides.globalBatch = globalBatch;
    overrides.sequenceLength = tinyInputSize(spec);
    overrides.steps = 1000;
    overrides.precision
        = gpuplan::Precision::FP32; // as the tests were written (custom models: fp16)
    o.recipe = recipeFor(spec, *shippedCatalog(), overrides);
    if (!spec.isLanguageModel())
        o.recipe.imageSize = spec.imageSize;
    o.device = cpuDevice();
    o.configurations = std::move(configurations);
    return o;
}

inline RunReport reportFor(const RunOptions& o)
{
    RunReport r;
    r.tool = { "test", "1.13", "", "", "" };
    r.measuredAt = "2026-11-22T00:00:00Z";
    r.host = "test";
    r.device = o.device;
    r.model = o.model;
    r.parameters = parameterCount(o.model);
    r.recipe = o.recipe;
    r.flopsPerStep
        = trainingFlopsPerSample(o.model, o.recipe.sequenceLength) * o.recipe.globalBatch;
    return r;
}

struct Recorded {
    RunReport report;
    std::vector<ProgressEvent> events;
    int updates = 0;
};

inline Recorded runTiny(const RunOptions& o)
{
    Recorded rec;
    rec.report = runBenchmark(
        o, reportFor(o), [&](const ProgressEvent& e) { rec.events.push_back(e); },
        [&](const RunReport&) { ++rec.updates; });
    return rec;
}

} // namespace gpuplan::bench::testing

#pragma once

// The training recipe a measurement extrapolates to: the shipped model's recipe
// (pricing/data/models.yaml), with command-line overrides applied.

#include "benchmark/model_spec.h"
#include "core/catalog.h"
#include "core/precision.h"

#include <cstdint>
#include <optional>
#include <string>

namespace gpuplan::bench {

struct Recipe {
    int globalBatch = 0;
    std::int64_t steps = 0;
    int sequenceLength = 0; // tokens per sample (language models)
    int imageSize = 0; // pixels per side (vision models)
    Precision precision = Precision::FP32;
    std::string optimizer = "adamw"; // "adam" | "adamw"
};

struct RecipeOverrides {
    std::optional<int> globalBatch;
    std::optional<std::int64_t> steps;
    std::optional<int> sequenceLength;
    std::optional<Precision> precision;
    std::optional<std::string> optimizer;
};

// The shipped recipe for `spec.id` when the catalog has it; for a custom model, Pythia's
// (global batch 1024, 143,000 steps, 2049-token samples capped at max_position_embeddings + 1,
// fp16 mixed precision, Adam), a Mamba in the shipped Mamba-2.8B's bf16 with AdamW. Overrides
// replace any of it (selectModel passes a config's half-precision torch_dtype as the precision).
Recipe recipeFor(const ModelSpec& spec, const Catalog& catalog, const RecipeOverrides& overrides);

} // namespace gpuplan::bench

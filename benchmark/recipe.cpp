#include "benchmark/recipe.h"

#include <algorithm>

namespace gpuplan::bench {

namespace {

// The Pythia suite's recipe (the paper, Table 3) as the default for a custom language model.
constexpr int kDefaultGlobalBatch = 1024;
constexpr std::int64_t kDefaultSteps = 143000;
constexpr int kDefaultSampleTokens = 2049;

Recipe customRecipe(const ModelSpec& spec)
{
    Recipe r;
    r.globalBatch = kDefaultGlobalBatch;
    r.steps = kDefaultSteps;
    // A Mamba trains as the shipped Mamba-2.8B's recipe says (bf16, AdamW, as Gu and Dao
    // trained it); the transformers as Pythia did.
    const bool mamba = spec.architecture == Architecture::Mamba;
    r.precision = mamba ? Precision::BF16 : Precision::FP16;
    r.optimizer = mamba ? "adamw" : "adam";
    if (spec.isLanguageModel())
        r.sequenceLength = std::min(kDefaultSampleTokens, spec.maxPositions + 1);
    else
        r.imageSize = spec.imageSize;
    return r;
}

} // namespace

Recipe recipeFor(const ModelSpec& spec, const Catalog& catalog, const RecipeOverrides& overrides)
{
    Recipe r = customRecipe(spec);
    if (const Workload* w = catalog.findWorkload(spec.id)) {
        r.globalBatch = w->globalBatch;
        r.steps = w->steps;
        r.sequenceLength = w->sequenceLength.value_or(0);
        r.imageSize = w->imageSize.value_or(0);
        r.precision = w->precision;
        r.optimizer = w->optimizer;
    }
    if (overrides.globalBatch)
        r.globalBatch = *overrides.globalBatch;
    if (overrides.steps)
        r.steps = *overrides.steps;
    if (overrides.sequenceLength)
        r.sequenceLength = *overrides.sequenceLength;
    if (overrides.precision)
        r.precision = *overrides.precision;
    if (overrides.optimizer)
        r.optimizer = *overrides.optimizer;
    return r;
}

} // namespace gpuplan::bench

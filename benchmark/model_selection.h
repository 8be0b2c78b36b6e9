#pragma once

// Resolves --model / --config and the recipe overrides into what a command works on.

#include "benchmark/cli_options.h"
#include "benchmark/model_spec.h"
#include "benchmark/recipe.h"
#include "core/catalog.h"

#include <memory>
#include <optional>
#include <string>

namespace gpuplan::bench {

struct ModelSelection {
    std::optional<ModelSpec> spec;
    Recipe recipe;
    std::string error; // bad input: unknown id, bad config file, recipe that cannot run
    std::string warning; // an option that does not apply to this model, said rather than dropped
};

ModelSelection selectModel(const CliOptions& options, const Catalog& catalog);

// The shipped tables (GPUs for peaks, models for recipes), compiled in.
std::shared_ptr<const Catalog> shippedCatalog();

} // namespace gpuplan::bench

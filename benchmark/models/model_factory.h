#pragma once

#include "benchmark/model_spec.h"
#include "benchmark/models/trainable_model.h"
#include "benchmark/recipe.h"

#include <memory>

namespace gpuplan::bench {

// The LibTorch model for `spec`, with random weights, on the CPU, taking inputs of the recipe's
// sequence length or image size.
std::shared_ptr<TrainableModel> makeModel(const ModelSpec& spec, const Recipe& recipe);

} // namespace gpuplan::bench

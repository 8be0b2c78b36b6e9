#pragma once

// ViT (Dosovitskiy et al., 2021) as timm's VisionTransformer: 16x16 patch embedding, class
// token, learned positions, pre-norm blocks, the classifier on the class token.

#include "benchmark/model_spec.h"
#include "benchmark/models/trainable_model.h"

#include <memory>

namespace gpuplan::bench {

std::shared_ptr<TrainableModel> makeVit(const ModelSpec& spec, int imageSize);

} // namespace gpuplan::bench

#pragma once

// ConvNeXt (Liu et al., 2022) as timm's ConvNeXt: stride-4 stem, four stages of 7x7
// depthwise blocks with inverted MLPs and layer scale, stride-2 downsampling, pooled head.

#include "benchmark/model_spec.h"
#include "benchmark/models/trainable_model.h"

#include <memory>

namespace gpuplan::bench {

std::shared_ptr<TrainableModel> makeConvNext(const ModelSpec& spec, int imageSize);

} // namespace gpuplan::bench

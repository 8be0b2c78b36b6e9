#pragma once

// Llama (Touvron et al., 2023), as Hugging Face's LlamaForCausalLM: pre-norm RMSNorm blocks,
// rotary embeddings on whole heads, grouped-query attention (num_key_value_heads), SwiGLU MLP,
// no biases. For custom models from a config.json.

#include "benchmark/model_spec.h"
#include "benchmark/models/trainable_model.h"

#include <memory>

namespace gpuplan::bench {

std::shared_ptr<TrainableModel> makeLlama(const ModelSpec& spec, int sampleTokens);

} // namespace gpuplan::bench

#pragma once

// GPT-NeoX (Black et al., 2022), the Pythia architecture: untied input and output embeddings,
// rotary embeddings on a share (rotary_pct) of each head, attention and MLP in parallel from the
// same input (use_parallel_residual), LayerNorm, exact GELU. Module names follow Hugging Face's
// GPTNeoXForCausalLM (dots become underscores, which LibTorch requires) so parameters compare
// one to one.

#include "benchmark/model_spec.h"
#include "benchmark/models/trainable_model.h"

#include <memory>

namespace gpuplan::bench {

std::shared_ptr<TrainableModel> makeGptNeox(const ModelSpec& spec, int sampleTokens);

} // namespace gpuplan::bench

#pragma once

// RoBERTa (Liu et al., 2019) with its masked-LM head, as Hugging Face's RobertaForMaskedLM:
// post-norm encoder layers with biases, learned positions (offset by the padding index), the
// decoder tied to the word embeddings. Trains on 15% masked positions.

#include "benchmark/model_spec.h"
#include "benchmark/models/trainable_model.h"

#include <memory>

namespace gpuplan::bench {

std::shared_ptr<TrainableModel> makeRoberta(const ModelSpec& spec, int sampleTokens);

} // namespace gpuplan::bench

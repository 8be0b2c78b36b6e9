#pragma once

#include "core/precision.h"
#include "core/provenance.h"

#include <cstdint>
#include <optional>
#include <string>

namespace gpuplan {

// A model and the recipe it is (re)trained with: what one "experiment" in the cost model is.
struct Workload {
    std::string id; // "pythia-1b"
    std::string name; // "Pythia-1B"
    std::string family; // "gpt-neox", "roberta", "mamba", "convnext", "vit"
    std::int64_t parameters = 0;
    double trainingFlops = 0.0; // total for the full recipe
    int globalBatch = 0;
    std::int64_t steps = 0;
    std::optional<int> sequenceLength; // language models
    std::optional<int> imageSize; // vision models (pixels per side)
    std::optional<int> vocabularySize;
    std::optional<int> classes;
    Precision precision = Precision::FP32;
    std::string optimizer; // "adam", "adamw"
    Provenance source;
};

} // namespace gpuplan

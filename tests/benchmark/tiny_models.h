#pragma once

// Tiny versions of every architecture gpuplan-bench builds, for tests that must run in seconds.

#include "benchmark/hf_config.h"
#include "benchmark/model_spec.h"
#include "benchmark/recipe.h"

#include <QString>

#include <vector>

namespace gpuplan::bench::testing {

inline ModelSpec tinyFromConfig(const char* folder)
{
    // Built with QString: GCC 12 flags libstdc++'s own std::string operator+ here with a false
    // -Warray-bounds once LibTorch comes precompiled (the system-header exemption is lost).
    const auto load = loadHfConfig(
        QString("%1/data/%2/config.json").arg(GPUPLAN_TEST_DATA, folder).toStdString());
    if (!load.spec)
        qFatal("%s", load.error.c_str());
    return *load.spec;
}

inline ModelSpec tinyRoberta()
{
    ModelSpec s = *shippedModelSpec("roberta-large");
    s.id = "tiny-roberta";
    s.hiddenSize = 32;
    s.layers = 2;
    s.heads = 4;
    s.kvHeads = 4;
    s.intermediateSize = 64;
    s.vocabSize = 100;
    s.maxPositions = 34;
    return s;
}

inline ModelSpec tinyVit()
{
    ModelSpec s = *shippedModelSpec("vit-large-22k");
    s.id = "tiny-vit";
    s.hiddenSize = 32;
    s.layers = 2;
    s.heads = 4;
    s.kvHeads = 4;
    s.intermediateSize = 64;
    s.imageSize = 32;
    s.patchSize = 8;
    s.classes = 10;
    return s;
}

inline ModelSpec tinyConvNext()
{
    ModelSpec s = *shippedModelSpec("convnext-xlarge-22k");
    s.id = "tiny-convnext";
    s.imageSize = 32;
    s.stageDims = { 8, 16, 24, 32 };
    s.stageDepths = { 1, 1, 2, 1 };
    s.classes = 10;
    return s;
}

inline std::vector<ModelSpec> tinyModels()
{
    return { tinyFromConfig("tiny-neox"), tinyFromConfig("tiny-llama"), tinyRoberta(), tinyVit(),
        tinyConvNext(), tinyFromConfig("tiny-mamba") };
}

// Sample length (tokens) or image size a tiny model trains on.
inline int tinyInputSize(const ModelSpec& s)
{
    return s.isLanguageModel() ? 17 : s.imageSize;
}

// A recipe of two samples of the tiny input size, one step, fp32.
inline Recipe tinyRecipe(const ModelSpec& s)
{
    Recipe r;
    r.globalBatch = 2;
    r.steps = 1;
    r.sequenceLength = s.isLanguageModel() ? tinyInputSize(s) : 0;
    r.imageSize = s.isLanguageModel() ? 0 : tinyInputSize(s);
    return r;
}

} // namespace gpuplan::bench::testing

#include "benchmark/model_spec.h"

#include <array>

namespace gpuplan::bench {

std::string_view toString(Architecture a)
{
    switch (a) {
    case Architecture::GptNeoX:
        return "gpt-neox";
    case Architecture::Llama:
        return "llama";
    case Architecture::Roberta:
        return "roberta";
    case Architecture::Vit:
        return "vit";
    case Architecture::ConvNext:
        return "convnext";
    }
    return "unknown";
}

bool ModelSpec::isLanguageModel() const
{
    return architecture == Architecture::GptNeoX || architecture == Architecture::Llama
        || architecture == Architecture::Roberta;
}

namespace {

// Pythia sizes from the EleutherAI model cards' config.json files (hidden, layers, heads;
// MLP width 4 x hidden; vocabulary padded to 50304, 50432 for 6.9b).
ModelSpec pythia(std::string id, std::string name, int hidden, int layers, int heads, int vocab)
{
    ModelSpec s;
    s.id = std::move(id);
    s.name = std::move(name);
    s.architecture = Architecture::GptNeoX;
    s.hiddenSize = hidden;
    s.layers = layers;
    s.heads = heads;
    s.kvHeads = heads;
    s.intermediateSize = 4 * static_cast<std::int64_t>(hidden);
    s.vocabSize = vocab;
    s.maxPositions = 2048;
    return s;
}

// FacebookAI/roberta-large config.json: 24 x 1024, 16 heads, positions 514 (two reserved for
// the padding offset), one token type.
ModelSpec robertaLarge()
{
    ModelSpec s;
    s.id = "roberta-large";
    s.name = "RoBERTa-large";
    s.architecture = Architecture::Roberta;
    s.hiddenSize = 1024;
    s.layers = 24;
    s.heads = 16;
    s.kvHeads = 16;
    s.intermediateSize = 4096;
    s.vocabSize = 50265;
    s.maxPositions = 514;
    s.typeVocabSize = 1;
    s.tieEmbeddings = true; // the MLM decoder shares the word embeddings
    return s;
}

// ViT-L/16 (Dosovitskiy et al., 2021) at 224 px with the ImageNet-21k head, as timm's
// vit_large_patch16_224.augreg_in21k (no pre-logits layer).
ModelSpec vitLarge()
{
    ModelSpec s;
    s.id = "vit-large-22k";
    s.name = "ViT-L/16 (ImageNet-21k)";
    s.architecture = Architecture::Vit;
    s.hiddenSize = 1024;
    s.layers = 24;
    s.heads = 16;
    s.kvHeads = 16;
    s.intermediateSize = 4096;
    s.imageSize = 224;
    s.patchSize = 16;
    s.classes = 21843;
    s.normEps = 1e-6;
    return s;
}

// ConvNeXt-XL (Liu et al., 2022) with the ImageNet-22k head, as timm's convnext_xlarge.fb_in22k.
ModelSpec convnextXlarge()
{
    ModelSpec s;
    s.id = "convnext-xlarge-22k";
    s.name = "ConvNeXt-XL (ImageNet-22k)";
    s.architecture = Architecture::ConvNext;
    s.imageSize = 224;
    s.classes = 21841;
    s.stageDims = { 256, 512, 1024, 2048 };
    s.stageDepths = { 3, 3, 27, 3 };
    s.normEps = 1e-6;
    return s;
}

std::vector<ModelSpec> shippedSpecs()
{
    return {
        pythia("pythia-160m", "Pythia-160M", 768, 12, 12, 50304),
        pythia("pythia-410m", "Pythia-410M", 1024, 24, 16, 50304),
        pythia("pythia-1b", "Pythia-1B", 2048, 16, 8, 50304),
        pythia("pythia-2.8b", "Pythia-2.8B", 2560, 32, 32, 50304),
        pythia("pythia-6.9b", "Pythia-6.9B", 4096, 32, 32, 50432),
        robertaLarge(),
        vitLarge(),
        convnextXlarge(),
    };
}

using i64 = std::int64_t;

i64 linear(i64 in, i64 out, bool bias)
{
    return in * out + (bias ? out : 0);
}

i64 gptNeoxParameters(const ModelSpec& s)
{
    const i64 h = s.hiddenSize, f = s.intermediateSize;
    const i64 perLayer = 2 * (2 * h) // input and post-attention LayerNorm
        + linear(h, 3 * h, true) + linear(h, h, true) // fused QKV, output projection
        + linear(h, f, true) + linear(f, h, true); // MLP
    const i64 embeddings = static_cast<i64>(s.vocabSize) * h * (s.tieEmbeddings ? 1 : 2);
    return embeddings + s.layers * perLayer + 2 * h; // + final LayerNorm
}

i64 llamaParameters(const ModelSpec& s)
{
    const i64 h = s.hiddenSize, f = s.intermediateSize;
    const i64 kv = static_cast<i64>(s.kvHeads) * s.headDim();
    const i64 perLayer = 2 * h // two RMSNorm weights
        + linear(h, h, false) + 2 * linear(h, kv, false) + linear(h, h, false)
        + 3 * linear(h, f, false); // gate, up, down
    const i64 embeddings = static_cast<i64>(s.vocabSize) * h * (s.tieEmbeddings ? 1 : 2);
    return embeddings + s.layers * perLayer + h;
}

i64 encoderLayerParameters(i64 h, i64 f)
{
    return 4 * linear(h, h, true) + 2 * (2 * h) + linear(h, f, true) + linear(f, h, true);
}

i64 robertaParameters(const ModelSpec& s)
{
    const i64 h = s.hiddenSize;
    const i64 embeddings
        = (static_cast<i64>(s.vocabSize) + s.maxPositions + s.typeVocabSize) * h + 2 * h;
    // MLM head: dense + LayerNorm + a decoder tied to the word embeddings with its own bias.
    const i64 head = linear(h, h, true) + 2 * h + s.vocabSize;
    return embeddings + s.layers * encoderLayerParameters(h, s.intermediateSize) + head;
}

i64 vitPatches(const ModelSpec& s)
{
    const i64 side = s.imageSize / s.patchSize;
    return side * side;
}

i64 vitParameters(const ModelSpec& s)
{
    const i64 h = s.hiddenSize;
    const i64 patchEmbed
        = linear(static_cast<i64>(s.channels) * s.patchSize * s.patchSize, h, true);
    const i64 tokens = h + (vitPatches(s) + 1) * h; // class token, position embeddings
    return patchEmbed + tokens + s.layers * encoderLayerParameters(h, s.intermediateSize) + 2 * h
        + linear(h, s.classes, true);
}

i64 convnextBlockParameters(i64 d)
{
    return (49 * d + d) // 7x7 depthwise convolution
        + 2 * d // LayerNorm
        + linear(d, 4 * d, true) + linear(4 * d, d, true) + d; // layer scale
}

i64 convnextParameters(const ModelSpec& s)
{
    i64 total = linear(static_cast<i64>(s.channels) * 4 * 4, s.stageDims[0], true)
        + 2 * static_cast<i64>(s.stageDims[0]); // stem: 4x4 stride-4 convolution + LayerNorm
    for (std::size_t i = 0; i < s.stageDims.size(); ++i) {
        const i64 d = s.stageDims[i];
        if (i > 0) {
            const i64 prev = s.stageDims[i - 1];
            total += 2 * prev + linear(prev * 2 * 2, d, true); // LayerNorm + 2x2 stride-2 conv
        }
        total += s.stageDepths[i] * convnextBlockParameters(d);
    }
    const i64 last = s.stageDims.back();
    return total + 2 * last + linear(last, s.classes, true);
}

} // namespace

std::optional<ModelSpec> shippedModelSpec(std::string_view id)
{
    for (auto& spec : shippedSpecs())
        if (spec.id == id)
            return spec;
    return std::nullopt;
}

std::vector<std::string> shippedModelIds()
{
    std::vector<std::string> ids;
    for (const auto& spec : shippedSpecs())
        ids.push_back(spec.id);
    return ids;
}

std::int64_t parameterCount(const ModelSpec& spec)
{
    switch (spec.architecture) {
    case Architecture::GptNeoX:
        return gptNeoxParameters(spec);
    case Architecture::Llama:
        return llamaParameters(spec);
    case Architecture::Roberta:
        return robertaParameters(spec);
    case Architecture::Vit:
        return vitParameters(spec);
    case Architecture::ConvNext:
        return convnextParameters(spec);
    }
    return 0;
}

int trainedPositions(const ModelSpec& spec, int sequenceLength)
{
    const bool causal
        = spec.architecture == Architecture::GptNeoX || spec.architecture == Architecture::Llama;
    return causal ? sequenceLength - 1 : sequenceLength;
}

namespace {

double transformerFlops(const ModelSpec& s, double positions, double matmulWeights)
{
    const double attention = 12.0 * s.layers * s.hiddenSize * positions * positions;
    return 6.0 * matmulWeights * positions + attention;
}

double convnextForwardMacs(const ModelSpec& s)
{
    double side = s.imageSize / 4.0; // after the stride-4 stem
    double macs = side * side * 16.0 * s.channels * s.stageDims[0];
    for (std::size_t i = 0; i < s.stageDims.size(); ++i) {
        const double d = s.stageDims[i];
        if (i > 0) {
            side /= 2.0;
            macs += side * side * 4.0 * s.stageDims[i - 1] * d;
        }
        macs += s.stageDepths[i] * side * side * (49.0 * d + 8.0 * d * d);
    }
    return macs + static_cast<double>(s.stageDims.back()) * s.classes;
}

} // namespace

double trainingFlopsPerSample(const ModelSpec& spec, int sequenceLength)
{
    const double h = spec.hiddenSize;
    switch (spec.architecture) {
    case Architecture::GptNeoX:
    case Architecture::Llama: {
        // The input embedding is a look-up; the output projection is a product.
        const double weights = static_cast<double>(parameterCount(spec))
            - (spec.tieEmbeddings ? 0.0 : spec.vocabSize * h);
        return transformerFlops(spec, trainedPositions(spec, sequenceLength), weights);
    }
    case Architecture::Roberta: {
        const double embeddings
            = (static_cast<double>(spec.vocabSize) + spec.maxPositions + spec.typeVocabSize) * h;
        // The tied decoder multiplies by the word embeddings at every position.
        const double weights
            = static_cast<double>(parameterCount(spec)) - embeddings + spec.vocabSize * h;
        return transformerFlops(spec, sequenceLength, weights);
    }
    case Architecture::Vit: {
        const double tokens = static_cast<double>(vitPatches(spec)) + 1.0;
        const double blockWeights = static_cast<double>(spec.layers)
            * static_cast<double>(encoderLayerParameters(spec.hiddenSize, spec.intermediateSize));
        const double patchWeights
            = static_cast<double>(spec.channels) * spec.patchSize * spec.patchSize * h;
        const double head = h * spec.classes; // applied to the class token only
        return transformerFlops(spec, tokens, blockWeights)
            + 6.0 * (patchWeights * static_cast<double>(vitPatches(spec)) + head);
    }
    case Architecture::ConvNext:
        return 6.0 * convnextForwardMacs(spec);
    }
    return 0.0;
}

} // namespace gpuplan::bench

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
    case Architecture::Mamba:
        return "mamba";
    }
    return "unknown";
}

bool ModelSpec::isLanguageModel() const
{
    return architecture == Architecture::GptNeoX || architecture == Architecture::Llama
        || architecture == Architecture::Roberta || architecture == Architecture::Mamba;
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

// state-spaces/mamba-2.8b-hf config.json (Gu and Dao, 2023), as transformers' MambaForCausalLM
// builds it: 64 blocks of width 2560, inner width expand 2 x 2560, state 16, a width-4 causal
// convolution with bias, time-step rank ceil(2560 / 16) = 160, no in_proj/out_proj biases,
// RMSNorm, the GPT-NeoX tokenizer's 50277 tokens padded to a multiple of 8, tied head.
ModelSpec mamba2_8b()
{
    ModelSpec s;
    s.id = "mamba-2.8b";
    s.name = "Mamba-2.8B";
    s.architecture = Architecture::Mamba;
    s.hiddenSize = 2560;
    s.layers = 64;
    s.intermediateSize = 2 * 2560;
    s.vocabSize = 50280;
    s.stateSize = 16;
    s.convKernel = 4;
    s.timeStepRank = 160;
    s.projectionBias = false;
    s.convBias = true;
    s.tieEmbeddings = true;
    s.maxPositions = kMaxPositions; // no position embeddings: any length
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
        mamba2_8b(),
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

// The weights of one Mamba block that multiply activations: in_proj, the convolution's taps
// (each multiplies once per position, like a matrix weight), x_proj, dt_proj and out_proj.
i64 mambaProductWeights(const ModelSpec& s)
{
    const i64 h = s.hiddenSize, inner = s.intermediateSize;
    return h * 2 * inner + inner * s.convKernel + inner * (s.timeStepRank + 2 * s.stateSize)
        + static_cast<i64>(s.timeStepRank) * inner + inner * h;
}

// Hugging Face's MambaBlock: RMSNorm + MambaMixer (in_proj, depthwise conv1d, x_proj producing
// dt, B and C, dt_proj with bias, A_log [inner, state], D [inner], out_proj).
i64 mambaParameters(const ModelSpec& s)
{
    const i64 h = s.hiddenSize, inner = s.intermediateSize;
    const i64 biases = (s.projectionBias ? 2 * inner + h : 0) + (s.convBias ? inner : 0)
        + inner; // dt_proj always has one
    const i64 perLayer = h + mambaProductWeights(s) + biases + inner * s.stateSize + inner;
    const i64 embeddings = static_cast<i64>(s.vocabSize) * h * (s.tieEmbeddings ? 1 : 2);
    return embeddings + s.layers * perLayer + h; // + final RMSNorm
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
    case Architecture::Mamba:
        return mambaParameters(spec);
    }
    return 0;
}

int trainedPositions(const ModelSpec& spec, int sequenceLength)
{
    const bool causal = spec.architecture == Architecture::GptNeoX
        || spec.architecture == Architecture::Llama || spec.architecture == Architecture::Mamba;
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
    case Architecture::Mamba: {
        // No attention: every block's product weights and the head (the tied embedding matrix
        // multiplies every position) at 6 FLOPs per weight and position. A_log, D, the biases
        // and the norms act elementwise and are left out, as the scan is.
        const double weights
            = static_cast<double>(spec.layers) * static_cast<double>(mambaProductWeights(spec))
            + static_cast<double>(spec.vocabSize) * h;
        return 6.0 * weights * trainedPositions(spec, sequenceLength);
    }
    }
    return 0.0;
}

double mambaScanFlopsPerSample(const ModelSpec& spec, int sequenceLength)
{
    if (spec.architecture != Architecture::Mamba)
        return 0.0;
    // Per position, inner channel and state, the forward recurrence costs 7 FLOPs: delta x A,
    // its exponential, (delta u) x B, the multiply-add into the state, and C x state summed
    // into y. The backward counts twice that, as for products.
    constexpr double kForwardPerState = 7.0;
    return 3.0 * kForwardPerState * spec.layers * static_cast<double>(spec.intermediateSize)
        * spec.stateSize * trainedPositions(spec, sequenceLength);
}

} // namespace gpuplan::bench

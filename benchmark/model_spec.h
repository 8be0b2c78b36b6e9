#pragma once

// What gpuplan-bench knows about a model's architecture: enough to build it in LibTorch, count
// its parameters and its training FLOPs. No LibTorch here, so the CLI, the tests and the
// results writer can use it without pulling in torch headers.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::bench {

enum class Architecture { GptNeoX, Llama, Roberta, Vit, ConvNext, Mamba };

// "gpt-neox", "llama", "roberta", "vit", "convnext", "mamba"
std::string_view toString(Architecture a);

// The longest sample gpuplan-bench accepts (max_position_embeddings); also the limit of a
// model without position embeddings (Mamba).
inline constexpr int kMaxPositions = 1 << 24;

struct ModelSpec {
    std::string id; // "pythia-1b", or "custom:<name>" for a config.json
    std::string name; // display name
    Architecture architecture = Architecture::GptNeoX;
    std::string configFile; // the config.json a custom model came from; "" for shipped ones

    // Transformers (GPT-NeoX, Llama, RoBERTa, ViT) and Mamba, Hugging Face names in the comments.
    int hiddenSize = 0; // hidden_size
    int layers = 0; // num_hidden_layers
    int heads = 0; // num_attention_heads
    int kvHeads = 0; // num_key_value_heads (Llama; = heads otherwise)
    std::int64_t intermediateSize = 0; // intermediate_size (Mamba: expand x hidden_size)
    int vocabSize = 0; // vocab_size
    int maxPositions = 0; // max_position_embeddings
    double rotaryPct = 0.25; // rotary_pct (GPT-NeoX)
    double rotaryBase = 10000.0; // rotary_emb_base / rope_theta
    double normEps = 1e-5; // layer_norm_eps / rms_norm_eps
    bool parallelResidual = true; // use_parallel_residual (GPT-NeoX)
    bool tieEmbeddings = false; // tie_word_embeddings
    int typeVocabSize = 1; // type_vocab_size (RoBERTa)

    // Mamba's selective state space blocks (Hugging Face MambaConfig).
    int stateSize = 0; // state_size (the paper's N)
    int convKernel = 0; // conv_kernel: width of the causal depthwise convolution
    int timeStepRank = 0; // time_step_rank: inner width of the dt projection
    bool projectionBias = false; // use_bias: biases on in_proj and out_proj
    bool convBias = true; // use_conv_bias

    // Vision (ViT, ConvNeXt).
    int imageSize = 0;
    int patchSize = 16;
    int channels = 3;
    int classes = 0;
    std::vector<int> stageDims; // ConvNeXt channels per stage
    std::vector<int> stageDepths; // ConvNeXt blocks per stage

    bool isLanguageModel() const;
    int headDim() const { return heads > 0 ? hiddenSize / heads : 0; }
    // Dimensions of each query and key head that rotary embedding rotates (GPT-NeoX, Llama).
    int rotaryDims() const { return static_cast<int>(headDim() * rotaryPct); }
};

// The architectures of the shipped models (pricing/data/models.yaml ids); nullopt if `id` is not
// one gpuplan-bench can build.
std::optional<ModelSpec> shippedModelSpec(std::string_view id);
std::vector<std::string> shippedModelIds();

// Parameters of the model as built (trainable tensors, tied weights counted once).
std::int64_t parameterCount(const ModelSpec& spec);

// Matrix-product FLOPs of one training sample (forward + backward = 3 x forward, 2 FLOPs per
// multiply-add): 6 x (weights used in products) x positions + attention scores and values
// 12 x layers x hidden x positions^2. Embedding look-ups, norms and activations are left out,
// as in the usual model-FLOPs-utilisation convention (PaLM, Appendix B); so is Mamba's
// selective scan, which is elementwise (mambaScanFlopsPerSample gives it separately).
double trainingFlopsPerSample(const ModelSpec& spec, int sequenceLength);

// The elementwise FLOPs of Mamba's selective scan in one training sample (forward and
// backward), outside the matrix-product convention above: stated beside it, not added to it.
double mambaScanFlopsPerSample(const ModelSpec& spec, int sequenceLength);

// Positions a language model predicts from a sample of `sequenceLength` tokens: Pythia's
// 2049-token samples train 2048 next-token positions; a masked LM uses every position.
int trainedPositions(const ModelSpec& spec, int sequenceLength);

} // namespace gpuplan::bench

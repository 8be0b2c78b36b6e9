#include "benchmark/models/gpt_neox.h"

#include "benchmark/checkpoint.h"
#include "benchmark/kernels/rotary_qkv_op.h"
#include "benchmark/models/attention.h"
#include "benchmark/models/linear.h"
#include "benchmark/models/lm_loss.h"

namespace gpuplan::bench {

namespace {

namespace F = torch::nn::functional;

class GptNeoxModel;

class GptNeoxLayer : public torch::nn::Module, public CheckpointedBlock {
public:
    GptNeoxLayer(const ModelSpec& spec, const GptNeoxModel& model);
    torch::Tensor forwardBlock(const torch::Tensor& hidden) override;

private:
    torch::Tensor attention(const torch::Tensor& x);
    torch::Tensor mlp(const torch::Tensor& x);

    const ModelSpec& spec_;
    const GptNeoxModel& model_;
    torch::nn::LayerNorm inputNorm_ { nullptr }, postAttentionNorm_ { nullptr };
    Linear queryKeyValue_ { nullptr }, dense_ { nullptr };
    Linear up_ { nullptr }, down_ { nullptr };
};

class GptNeoxModel : public TrainableModel {
public:
    GptNeoxModel(const ModelSpec& spec, int sampleTokens)
        : spec_(spec)
        , sampleTokens_(sampleTokens)
    {
        embedIn_
            = register_module("embed_in", torch::nn::Embedding(spec.vocabSize, spec.hiddenSize));
        for (int i = 0; i < spec.layers; ++i)
            layers_.push_back(register_module(
                "layers_" + std::to_string(i), std::make_shared<GptNeoxLayer>(spec_, *this)));
        finalNorm_ = register_module("final_layer_norm",
            torch::nn::LayerNorm(
                torch::nn::LayerNormOptions({ spec.hiddenSize }).eps(spec.normEps)));
        if (!spec.tieEmbeddings)
            embedOut_ = register_module("embed_out",
                Linear(torch::nn::LinearOptions(spec.hiddenSize, spec.vocabSize).bias(false)));
    }

    torch::Tensor loss(const Batch& batch) override
    {
        const int positions = static_cast<int>(batch.inputs.size(1));
        refreshedRotaryTables(
            rotary_, positions, spec_.rotaryDims(), spec_.rotaryBase, batch.inputs.device());
        auto hidden = embedIn_->forward(batch.inputs);
        for (auto& layer : layers_)
            hidden = runBlock(*layer, hidden, execution_);
        hidden = finalNorm_->forward(hidden);
        // Tied embeddings: the output projection is the input embedding matrix itself.
        // The free lunch chunks the head (no full-vocabulary fp32 logits).
        return lmHeadLoss(hidden, embedOut_ ? embedOut_->weight : embedIn_->weight, batch.targets,
            execution_.chunkedLmHead);
    }

    Batch makeBatch(int microBatch, const torch::Device& device) const override
    {
        return nextTokenBatch(spec_.vocabSize, microBatch, sampleTokens_, device);
    }

    const RotaryTables& rotary() const { return rotary_; }

private:
    ModelSpec spec_;
    int sampleTokens_;
    RotaryTables rotary_;
    torch::nn::Embedding embedIn_ { nullptr };
    std::vector<std::shared_ptr<GptNeoxLayer>> layers_;
    torch::nn::LayerNorm finalNorm_ { nullptr };
    Linear embedOut_ { nullptr };
};

GptNeoxLayer::GptNeoxLayer(const ModelSpec& spec, const GptNeoxModel& model)
    : spec_(spec)
    , model_(model)
{
    const auto h = spec.hiddenSize;
    const auto norm = torch::nn::LayerNormOptions({ h }).eps(spec.normEps);
    inputNorm_ = register_module("input_layernorm", torch::nn::LayerNorm(norm));
    postAttentionNorm_ = register_module("post_attention_layernorm", torch::nn::LayerNorm(norm));
    queryKeyValue_ = register_module("attention_query_key_value", Linear(h, 3 * h));
    dense_ = register_module("attention_dense", Linear(h, h));
    up_ = register_module("mlp_dense_h_to_4h", Linear(h, spec.intermediateSize));
    down_ = register_module("mlp_dense_4h_to_h", Linear(spec.intermediateSize, h));
}

torch::Tensor GptNeoxLayer::attention(const torch::Tensor& x)
{
    const auto batch = x.size(0), positions = x.size(1);
    const auto qkv = queryKeyValue_->forward(x);
    const auto split = model_.execution().fusedRotary
        ? rotaryQkv(qkv, spec_.heads, model_.rotary())
        : rotaryQkvReference(qkv, spec_.heads, model_.rotary());
    auto out = attend(
        split.query, split.key, split.value, /*causal=*/true, model_.execution().fusedAttention);
    return dense_->forward(
        out.permute({ 0, 2, 1, 3 }).reshape({ batch, positions, spec_.hiddenSize }));
}

torch::Tensor GptNeoxLayer::mlp(const torch::Tensor& x)
{
    return down_->forward(F::gelu(up_->forward(x)));
}

torch::Tensor GptNeoxLayer::forwardBlock(const torch::Tensor& hidden)
{
    auto attended = attention(inputNorm_->forward(hidden));
    if (spec_.parallelResidual)
        return hidden + attended + mlp(postAttentionNorm_->forward(hidden));
    auto mid = hidden + attended;
    return mid + mlp(postAttentionNorm_->forward(mid));
}

} // namespace

std::shared_ptr<TrainableModel> makeGptNeox(const ModelSpec& spec, int sampleTokens)
{
    return std::make_shared<GptNeoxModel>(spec, sampleTokens);
}

} // namespace gpuplan::bench

#include "benchmark/models/llama.h"

#include "benchmark/checkpoint.h"
#include "benchmark/models/attention.h"
#include "benchmark/models/linear.h"
#include "benchmark/models/lm_loss.h"
#include "benchmark/models/rms_norm.h"

namespace gpuplan::bench {

namespace {

namespace F = torch::nn::functional;

Linear noBias(std::int64_t in, std::int64_t out)
{
    return Linear(torch::nn::LinearOptions(in, out).bias(false));
}

class LlamaModel;

class LlamaLayer : public torch::nn::Module, public CheckpointedBlock {
public:
    LlamaLayer(const ModelSpec& spec, const LlamaModel& model);
    torch::Tensor forwardBlock(const torch::Tensor& hidden) override;

private:
    torch::Tensor attention(const torch::Tensor& x);

    const ModelSpec& spec_;
    const LlamaModel& model_;
    RmsNorm inputNorm_ { nullptr }, postAttentionNorm_ { nullptr };
    Linear q_ { nullptr }, k_ { nullptr }, v_ { nullptr }, o_ { nullptr };
    Linear gate_ { nullptr }, up_ { nullptr }, down_ { nullptr };
};

class LlamaModel : public TrainableModel {
public:
    LlamaModel(const ModelSpec& spec, int sampleTokens)
        : spec_(spec)
        , sampleTokens_(sampleTokens)
    {
        embed_ = register_module(
            "embed_tokens", torch::nn::Embedding(spec.vocabSize, spec.hiddenSize));
        for (int i = 0; i < spec.layers; ++i)
            layers_.push_back(register_module(
                "layers_" + std::to_string(i), std::make_shared<LlamaLayer>(spec_, *this)));
        norm_ = register_module("norm", RmsNorm(spec.hiddenSize, spec.normEps));
        if (!spec.tieEmbeddings)
            lmHead_ = register_module("lm_head", noBias(spec.hiddenSize, spec.vocabSize));
    }

    torch::Tensor loss(const Batch& batch) override
    {
        const int positions = static_cast<int>(batch.inputs.size(1));
        refreshedRotaryTables(
            rotary_, positions, spec_.headDim(), spec_.rotaryBase, batch.inputs.device());
        auto hidden = embed_->forward(batch.inputs);
        for (auto& layer : layers_)
            hidden = runBlock(*layer, hidden, execution_);
        hidden = norm_->forward(hidden);
        // The free lunch chunks the head (no full-vocabulary fp32 logits).
        return lmHeadLoss(hidden, lmHead_ ? lmHead_->weight : embed_->weight, batch.targets,
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
    torch::nn::Embedding embed_ { nullptr };
    std::vector<std::shared_ptr<LlamaLayer>> layers_;
    RmsNorm norm_ { nullptr };
    Linear lmHead_ { nullptr };
};

LlamaLayer::LlamaLayer(const ModelSpec& spec, const LlamaModel& model)
    : spec_(spec)
    , model_(model)
{
    const std::int64_t h = spec.hiddenSize;
    const std::int64_t kv = static_cast<std::int64_t>(spec.kvHeads) * spec.headDim();
    inputNorm_ = register_module("input_layernorm", RmsNorm(spec.hiddenSize, spec.normEps));
    postAttentionNorm_
        = register_module("post_attention_layernorm", RmsNorm(spec.hiddenSize, spec.normEps));
    q_ = register_module("self_attn_q_proj", noBias(h, h));
    k_ = register_module("self_attn_k_proj", noBias(h, kv));
    v_ = register_module("self_attn_v_proj", noBias(h, kv));
    o_ = register_module("self_attn_o_proj", noBias(h, h));
    gate_ = register_module("mlp_gate_proj", noBias(h, spec.intermediateSize));
    up_ = register_module("mlp_up_proj", noBias(h, spec.intermediateSize));
    down_ = register_module("mlp_down_proj", noBias(spec.intermediateSize, h));
}

torch::Tensor LlamaLayer::attention(const torch::Tensor& x)
{
    const auto batch = x.size(0), positions = x.size(1);
    const std::int64_t headDim = spec_.headDim();
    auto split = [&](const torch::Tensor& t, int heads) {
        return t.view({ batch, positions, heads, headDim }).transpose(1, 2);
    };
    auto q = applyRotary(split(q_->forward(x), spec_.heads), model_.rotary());
    auto k = applyRotary(split(k_->forward(x), spec_.kvHeads), model_.rotary());
    auto v = split(v_->forward(x), spec_.kvHeads);
    if (spec_.kvHeads != spec_.heads) {
        // Grouped-query attention: each key/value head serves heads / kvHeads query heads.
        const std::int64_t group = spec_.heads / spec_.kvHeads;
        k = k.repeat_interleave(group, 1);
        v = v.repeat_interleave(group, 1);
    }
    auto out = attend(q, k, v, /*causal=*/true, model_.execution().fusedAttention);
    return o_->forward(out.transpose(1, 2).reshape({ batch, positions, spec_.hiddenSize }));
}

torch::Tensor LlamaLayer::forwardBlock(const torch::Tensor& hidden)
{
    auto mid = hidden + attention(inputNorm_->forward(hidden));
    auto x = postAttentionNorm_->forward(mid);
    return mid + down_->forward(F::silu(gate_->forward(x)) * up_->forward(x));
}

} // namespace

std::shared_ptr<TrainableModel> makeLlama(const ModelSpec& spec, int sampleTokens)
{
    return std::make_shared<LlamaModel>(spec, sampleTokens);
}

} // namespace gpuplan::bench

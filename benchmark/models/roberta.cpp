#include "benchmark/models/roberta.h"

#include "benchmark/checkpoint.h"
#include "benchmark/models/attention.h"
#include "benchmark/models/linear.h"

namespace gpuplan::bench {

namespace {

namespace F = torch::nn::functional;

// RoBERTa's masking rate (Liu et al., 2019, following BERT).
constexpr double kMaskedShare = 0.15;
// Position ids start after the padding index (1), so the first real position is 2.
constexpr std::int64_t kPositionOffset = 2;

class RobertaModel;

class RobertaLayer : public torch::nn::Module, public CheckpointedBlock {
public:
    RobertaLayer(const ModelSpec& spec, const RobertaModel& model);
    torch::Tensor forwardBlock(const torch::Tensor& hidden) override;

private:
    const ModelSpec& spec_;
    const RobertaModel& model_;
    Linear query_ { nullptr }, key_ { nullptr }, value_ { nullptr }, output_ { nullptr };
    torch::nn::LayerNorm attentionNorm_ { nullptr }, outputNorm_ { nullptr };
    Linear intermediate_ { nullptr }, down_ { nullptr };
};

class RobertaModel : public TrainableModel {
public:
    RobertaModel(const ModelSpec& spec, int sampleTokens)
        : spec_(spec)
        , sampleTokens_(sampleTokens)
    {
        const auto h = spec.hiddenSize;
        words_ = register_module(
            "embeddings_word_embeddings", torch::nn::Embedding(spec.vocabSize, h));
        positions_ = register_module(
            "embeddings_position_embeddings", torch::nn::Embedding(spec.maxPositions, h));
        tokenTypes_ = register_module(
            "embeddings_token_type_embeddings", torch::nn::Embedding(spec.typeVocabSize, h));
        embeddingNorm_ = register_module("embeddings_LayerNorm", layerNorm());
        for (int i = 0; i < spec.layers; ++i)
            layers_.push_back(register_module("encoder_layer_" + std::to_string(i),
                std::make_shared<RobertaLayer>(spec_, *this)));
        headDense_ = register_module("lm_head_dense", Linear(h, h));
        headNorm_ = register_module("lm_head_layer_norm", layerNorm());
        decoderBias_ = register_parameter("lm_head_bias", torch::zeros({ spec.vocabSize }));
    }

    torch::nn::LayerNorm layerNorm() const
    {
        return torch::nn::LayerNorm(
            torch::nn::LayerNormOptions({ spec_.hiddenSize }).eps(spec_.normEps));
    }

    torch::Tensor loss(const Batch& batch) override
    {
        const auto positions = batch.inputs.size(1);
        auto ids
            = torch::arange(kPositionOffset, kPositionOffset + positions, batch.inputs.options());
        auto hidden = words_->forward(batch.inputs) + positions_->forward(ids)
            + tokenTypes_->forward(torch::zeros_like(batch.inputs));
        hidden = embeddingNorm_->forward(hidden);
        for (auto& layer : layers_)
            hidden = runBlock(*layer, hidden, execution_);
        auto x = headNorm_->forward(F::gelu(headDense_->forward(hidden)));
        auto logits = torch::linear(x, words_->weight, decoderBias_);
        return crossEntropy(logits, batch.targets);
    }

    Batch makeBatch(int microBatch, const torch::Device& device) const override
    {
        const auto longs = torch::TensorOptions().dtype(torch::kLong).device(device);
        auto tokens = torch::randint(spec_.vocabSize, { microBatch, sampleTokens_ }, longs);
        auto masked
            = torch::rand({ microBatch, sampleTokens_ }, torch::TensorOptions().device(device))
            < kMaskedShare;
        auto targets = torch::where(masked, tokens, torch::full_like(tokens, -100));
        return { tokens, targets };
    }

    const ModelSpec& spec() const { return spec_; }

private:
    ModelSpec spec_;
    int sampleTokens_;
    torch::nn::Embedding words_ { nullptr }, positions_ { nullptr }, tokenTypes_ { nullptr };
    torch::nn::LayerNorm embeddingNorm_ { nullptr };
    std::vector<std::shared_ptr<RobertaLayer>> layers_;
    Linear headDense_ { nullptr };
    torch::nn::LayerNorm headNorm_ { nullptr };
    torch::Tensor decoderBias_;
};

RobertaLayer::RobertaLayer(const ModelSpec& spec, const RobertaModel& model)
    : spec_(spec)
    , model_(model)
{
    const auto h = spec.hiddenSize;
    query_ = register_module("attention_self_query", Linear(h, h));
    key_ = register_module("attention_self_key", Linear(h, h));
    value_ = register_module("attention_self_value", Linear(h, h));
    output_ = register_module("attention_output_dense", Linear(h, h));
    attentionNorm_ = register_module("attention_output_LayerNorm", model.layerNorm());
    intermediate_ = register_module("intermediate_dense", Linear(h, spec.intermediateSize));
    down_ = register_module("output_dense", Linear(spec.intermediateSize, h));
    outputNorm_ = register_module("output_LayerNorm", model.layerNorm());
}

torch::Tensor RobertaLayer::forwardBlock(const torch::Tensor& hidden)
{
    const auto batch = hidden.size(0), positions = hidden.size(1);
    auto split = [&](const torch::Tensor& t) {
        return t.view({ batch, positions, spec_.heads, spec_.headDim() }).transpose(1, 2);
    };
    auto attended = attend(split(query_->forward(hidden)), split(key_->forward(hidden)),
        split(value_->forward(hidden)), /*causal=*/false, model_.execution().fusedAttention);
    attended = attended.transpose(1, 2).reshape({ batch, positions, spec_.hiddenSize });
    auto mid = attentionNorm_->forward(hidden + output_->forward(attended));
    return outputNorm_->forward(mid + down_->forward(F::gelu(intermediate_->forward(mid))));
}

} // namespace

std::shared_ptr<TrainableModel> makeRoberta(const ModelSpec& spec, int sampleTokens)
{
    return std::make_shared<RobertaModel>(spec, sampleTokens);
}

} // namespace gpuplan::bench

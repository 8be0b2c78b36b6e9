#include "benchmark/models/vit.h"

#include "benchmark/checkpoint.h"
#include "benchmark/models/attention.h"
#include "benchmark/models/linear.h"

namespace gpuplan::bench {

namespace {

namespace F = torch::nn::functional;

class VitBlock : public torch::nn::Module, public CheckpointedBlock {
public:
    VitBlock(const ModelSpec& spec, const TrainableModel& model)
        : spec_(spec)
        , model_(model)
    {
        const auto h = spec.hiddenSize;
        const auto norm = torch::nn::LayerNormOptions({ h }).eps(spec.normEps);
        norm1_ = register_module("norm1", torch::nn::LayerNorm(norm));
        qkv_ = register_module("attn_qkv", Linear(h, 3 * h));
        proj_ = register_module("attn_proj", Linear(h, h));
        norm2_ = register_module("norm2", torch::nn::LayerNorm(norm));
        fc1_ = register_module("mlp_fc1", Linear(h, spec.intermediateSize));
        fc2_ = register_module("mlp_fc2", Linear(spec.intermediateSize, h));
    }

    torch::Tensor forwardBlock(const torch::Tensor& hidden) override
    {
        const auto batch = hidden.size(0), tokens = hidden.size(1);
        // timm's layout: query, key and value each span all heads.
        auto qkv = qkv_->forward(norm1_->forward(hidden))
                       .view({ batch, tokens, 3, spec_.heads, spec_.headDim() })
                       .permute({ 2, 0, 3, 1, 4 });
        auto attended
            = attend(qkv[0], qkv[1], qkv[2], /*causal=*/false, model_.execution().fusedAttention);
        auto mid = hidden
            + proj_->forward(attended.transpose(1, 2).reshape({ batch, tokens, spec_.hiddenSize }));
        return mid + fc2_->forward(F::gelu(fc1_->forward(norm2_->forward(mid))));
    }

private:
    const ModelSpec& spec_;
    const TrainableModel& model_;
    torch::nn::LayerNorm norm1_ { nullptr }, norm2_ { nullptr };
    Linear qkv_ { nullptr }, proj_ { nullptr }, fc1_ { nullptr }, fc2_ { nullptr };
};

class VitModel : public TrainableModel {
public:
    VitModel(const ModelSpec& spec, int imageSize)
        : spec_(spec)
        , imageSize_(imageSize)
    {
        const auto h = spec.hiddenSize;
        const std::int64_t side = imageSize / spec.patchSize;
        patchEmbed_ = register_module("patch_embed_proj",
            torch::nn::Conv2d(
                torch::nn::Conv2dOptions(spec.channels, h, spec.patchSize).stride(spec.patchSize)));
        classToken_ = register_parameter("cls_token", torch::zeros({ 1, 1, h }));
        positions_
            = register_parameter("pos_embed", torch::randn({ 1, side * side + 1, h }) * 0.02);
        for (int i = 0; i < spec.layers; ++i)
            blocks_.push_back(register_module(
                "blocks_" + std::to_string(i), std::make_shared<VitBlock>(spec_, *this)));
        norm_ = register_module(
            "norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({ h }).eps(spec.normEps)));
        head_ = register_module("head", Linear(h, spec.classes));
    }

    torch::Tensor loss(const Batch& batch) override
    {
        auto patches = patchEmbed_->forward(batch.inputs).flatten(2).transpose(1, 2);
        auto hidden
            = torch::cat(
                  { classToken_.expand({ patches.size(0), -1, -1 }).to(patches.scalar_type()),
                      patches },
                  1)
            + positions_;
        for (auto& block : blocks_)
            hidden = runBlock(*block, hidden, execution_);
        auto logits = head_->forward(norm_->forward(hidden).select(1, 0));
        return crossEntropy(logits, batch.targets);
    }

    Batch makeBatch(int microBatch, const torch::Device& device) const override
    {
        auto images = torch::randn({ microBatch, spec_.channels, imageSize_, imageSize_ },
            torch::TensorOptions().device(device));
        auto labels = torch::randint(spec_.classes, { microBatch },
            torch::TensorOptions().dtype(torch::kLong).device(device));
        return { images, labels };
    }

private:
    ModelSpec spec_;
    int imageSize_;
    torch::nn::Conv2d patchEmbed_ { nullptr };
    torch::Tensor classToken_, positions_;
    std::vector<std::shared_ptr<VitBlock>> blocks_;
    torch::nn::LayerNorm norm_ { nullptr };
    Linear head_ { nullptr };
};

} // namespace

std::shared_ptr<TrainableModel> makeVit(const ModelSpec& spec, int imageSize)
{
    return std::make_shared<VitModel>(spec, imageSize);
}

} // namespace gpuplan::bench

#include "benchmark/models/convnext.h"

#include "benchmark/checkpoint.h"
#include "benchmark/kernels/depthwise_conv_op.h"
#include "benchmark/models/attention.h"
#include "benchmark/models/linear.h"

namespace gpuplan::bench {

namespace {

namespace F = torch::nn::functional;

// ConvNeXt's initial layer-scale value (Liu et al., 2022, Section 2.6).
constexpr double kLayerScaleInit = 1e-6;

// LayerNorm over the channels of an NCHW tensor (a free view when it is stored channels-last).
torch::Tensor channelsNorm(torch::nn::LayerNorm norm, const torch::Tensor& x)
{
    return norm->forward(x.permute({ 0, 2, 3, 1 })).permute({ 0, 3, 1, 2 });
}

class ConvNextBlock : public torch::nn::Module, public CheckpointedBlock {
public:
    // `model`: whose execution options say how the depthwise convolution runs.
    ConvNextBlock(int dim, double eps, const TrainableModel& model)
        : model_(model)
    {
        depthwise_ = register_module("conv_dw",
            torch::nn::Conv2d(
                torch::nn::Conv2dOptions(dim, dim, /*kernel_size=*/7).padding(3).groups(dim)));
        norm_ = register_module(
            "norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({ dim }).eps(eps)));
        fc1_ = register_module("mlp_fc1", Linear(dim, 4 * dim));
        fc2_ = register_module("mlp_fc2", Linear(4 * dim, dim));
        gamma_ = register_parameter("gamma", torch::full({ dim }, kLayerScaleInit));
    }

    torch::Tensor forwardBlock(const torch::Tensor& hidden) override
    {
        const auto mixed = model_.execution().depthwiseKernel
            ? depthwiseConvolution(hidden, depthwise_->weight, depthwise_->bias)
            : depthwise_->forward(hidden);
        auto x = mixed.permute({ 0, 2, 3, 1 }); // channels last for the MLP
        x = fc2_->forward(F::gelu(fc1_->forward(norm_->forward(x)))) * gamma_;
        return hidden + x.permute({ 0, 3, 1, 2 });
    }

private:
    const TrainableModel& model_;
    torch::nn::Conv2d depthwise_ { nullptr };
    torch::nn::LayerNorm norm_ { nullptr };
    Linear fc1_ { nullptr }, fc2_ { nullptr };
    torch::Tensor gamma_;
};

class ConvNextModel : public TrainableModel {
public:
    ConvNextModel(const ModelSpec& spec, int imageSize)
        : spec_(spec)
        , imageSize_(imageSize)
    {
        const auto eps = spec.normEps;
        auto norm = [eps](int dim) {
            return torch::nn::LayerNorm(torch::nn::LayerNormOptions({ dim }).eps(eps));
        };
        stem_ = register_module("stem_conv",
            torch::nn::Conv2d(
                torch::nn::Conv2dOptions(spec.channels, spec.stageDims[0], /*kernel_size=*/4)
                    .stride(4)));
        stemNorm_ = register_module("stem_norm", norm(spec.stageDims[0]));
        for (std::size_t s = 0; s < spec.stageDims.size(); ++s) {
            const int dim = spec.stageDims[s];
            const std::string stage = "stages_" + std::to_string(s);
            if (s > 0) {
                const int previous = spec.stageDims[s - 1];
                downNorms_.push_back(register_module(stage + "_downsample_norm", norm(previous)));
                downConvs_.push_back(register_module(stage + "_downsample_conv",
                    torch::nn::Conv2d(
                        torch::nn::Conv2dOptions(previous, dim, /*kernel_size=*/2).stride(2))));
            }
            std::vector<std::shared_ptr<ConvNextBlock>> blocks;
            for (int b = 0; b < spec.stageDepths[s]; ++b)
                blocks.push_back(register_module(stage + "_blocks_" + std::to_string(b),
                    std::make_shared<ConvNextBlock>(dim, eps, *this)));
            stages_.push_back(std::move(blocks));
        }
        headNorm_ = register_module("head_norm", norm(spec.stageDims.back()));
        head_ = register_module("head_fc", Linear(spec.stageDims.back(), spec.classes));
    }

    // Channels-last converts the convolution weights in place (set_data keeps each parameter's
    // identity, so an optimizer built on them stays valid); only when the option changes, so
    // that a step which flattened the parameters can set its hooks without undoing that.
    void setExecution(ExecutionOptions options) override
    {
        if (options.channelsLast != execution_.channelsLast) {
            const auto format = options.channelsLast ? at::MemoryFormat::ChannelsLast
                                                     : at::MemoryFormat::Contiguous;
            torch::NoGradGuard noGrad;
            for (auto& p : parameters())
                if (p.dim() == 4)
                    p.set_data(p.contiguous(format));
        }
        TrainableModel::setExecution(options);
    }

    torch::Tensor loss(const Batch& batch) override
    {
        // In NHWC the blocks' permutes to channels-last (LayerNorm, MLP) are free views instead
        // of copies. makeBatch delivers the images in it; this converts only a batch made
        // before the option changed.
        const auto images = execution_.channelsLast
            ? batch.inputs.contiguous(at::MemoryFormat::ChannelsLast)
            : batch.inputs;
        auto x = channelsNorm(stemNorm_, stem_->forward(images));
        for (std::size_t s = 0; s < stages_.size(); ++s) {
            if (s > 0)
                x = downConvs_[s - 1]->forward(channelsNorm(downNorms_[s - 1], x));
            for (auto& block : stages_[s])
                x = runBlock(*block, x, execution_);
        }
        auto pooled = x.mean({ 2, 3 });
        return crossEntropy(head_->forward(headNorm_->forward(pooled)), batch.targets);
    }

    Batch makeBatch(int microBatch, const torch::Device& device) const override
    {
        auto images = torch::randn({ microBatch, spec_.channels, imageSize_, imageSize_ },
            torch::TensorOptions().device(device));
        if (execution_.channelsLast) // delivered in NHWC, outside the timed step
            images = images.contiguous(at::MemoryFormat::ChannelsLast);
        auto labels = torch::randint(spec_.classes, { microBatch },
            torch::TensorOptions().dtype(torch::kLong).device(device));
        return { images, labels };
    }

private:
    ModelSpec spec_;
    int imageSize_;
    torch::nn::Conv2d stem_ { nullptr };
    torch::nn::LayerNorm stemNorm_ { nullptr }, headNorm_ { nullptr };
    std::vector<torch::nn::LayerNorm> downNorms_;
    std::vector<torch::nn::Conv2d> downConvs_;
    std::vector<std::vector<std::shared_ptr<ConvNextBlock>>> stages_;
    Linear head_ { nullptr };
};

} // namespace

std::shared_ptr<TrainableModel> makeConvNext(const ModelSpec& spec, int imageSize)
{
    return std::make_shared<ConvNextModel>(spec, imageSize);
}

} // namespace gpuplan::bench

#pragma once

// Adam / AdamW with the three ways the methods run it: one tensor at a time (the naive
// baseline), fused into multi-tensor kernels (free lunch, where this LibTorch has them), or
// with its state offloaded to host memory (single-process ZeRO-Offload: gradients go to the
// CPU, the update runs there on fp32 master weights, weights come back).

#include <torch/torch.h>

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::bench {

enum class OptimizerMode { PerTensor, Fused, Offloaded };

struct OptimizerSettings {
    bool decoupledWeightDecay = true; // AdamW; false = Adam
    double learningRate = 1e-4;
    double beta1 = 0.9;
    double beta2 = 0.95;
    double epsilon = 1e-8;
    double weightDecay = 0.01;
    OptimizerMode mode = OptimizerMode::PerTensor;
    // fp16 training: gradients carry this loss scale; the step unscales them first.
    std::optional<double> lossScale;
};

OptimizerSettings optimizerSettingsFor(const std::string& recipeOptimizer);

class Optimizer {
public:
    // Allocates the whole state up front, so a micro-batch search sees the real memory use.
    // The parameters' gradients are allocated here too (zeroed, never freed between steps).
    Optimizer(std::vector<torch::Tensor> parameters, OptimizerSettings settings);
    // Updates `parameters` from `gradients` (same shapes), buffers the caller owns: the flat
    // shards of a multi-process step. The parameters' own .grad is not touched.
    Optimizer(std::vector<torch::Tensor> parameters, std::vector<torch::Tensor> gradients,
        OptimizerSettings settings);

    void step(); // one update from the accumulated gradients
    void zeroGrad(); // zeroes the gradients in place (their memory stays, as in training)
    const OptimizerSettings& settings() const { return settings_; }
    // Bytes of the Adam moments, step counts and (offload) host master weights and gradients.
    std::int64_t stateBytes() const;

private:
    void stepPerTensor(std::vector<torch::Tensor>& params, std::vector<torch::Tensor>& grads);
    void stepFused(std::vector<torch::Tensor>& params, std::vector<torch::Tensor>& grads);
    void stepOffloaded();
    void unscale(std::vector<torch::Tensor>& grads);
    void allocateState();

    std::vector<torch::Tensor> params_;
    std::vector<torch::Tensor> grads_;
    OptimizerSettings settings_;
    std::vector<torch::Tensor> expAvg_, expAvgSq_, stepCounts_;
    std::vector<torch::Tensor> hostParams_, hostGrads_; // offload: fp32 masters, pinned buffers
    torch::Tensor foundInf_, invScale_; // fp16 on CUDA: the unscale kernel's arguments
    std::int64_t step_ = 0;
};

} // namespace gpuplan::bench

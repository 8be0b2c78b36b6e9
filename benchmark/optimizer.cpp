#include "benchmark/optimizer.h"

#include "benchmark/tensor_bytes.h"
#include "benchmark/torch_compat.h"

#include <cmath>

namespace gpuplan::bench {

OptimizerSettings optimizerSettingsFor(const std::string& recipeOptimizer)
{
    OptimizerSettings s;
    s.decoupledWeightDecay = recipeOptimizer != "adam";
    s.weightDecay = s.decoupledWeightDecay ? 0.01 : 0.0;
    return s;
}

Optimizer::Optimizer(std::vector<torch::Tensor> parameters, OptimizerSettings settings)
    : params_(std::move(parameters))
    , settings_(settings)
{
    for (auto& p : params_) {
        // Gradients exist from the start and are zeroed in place: their memory counts in the
        // search, and a captured CUDA graph accumulates into the same buffers every replay.
        p.mutable_grad() = torch::zeros_like(p);
        grads_.push_back(p.grad());
    }
    allocateState();
}

Optimizer::Optimizer(std::vector<torch::Tensor> parameters, std::vector<torch::Tensor> gradients,
    OptimizerSettings settings)
    : params_(std::move(parameters))
    , grads_(std::move(gradients))
    , settings_(settings)
{
    TORCH_CHECK(params_.size() == grads_.size(), "one gradient per parameter");
    allocateState();
}

std::int64_t Optimizer::stateBytes() const
{
    std::int64_t bytes = 0;
    for (const auto* list : { &expAvg_, &expAvgSq_, &stepCounts_, &hostParams_, &hostGrads_ })
        for (const auto& t : *list)
            bytes += tensorBytes(t);
    return bytes;
}

void Optimizer::allocateState()
{
    const bool offload = settings_.mode == OptimizerMode::Offloaded;
    for (auto& p : params_) {
        torch::Tensor home = p.detach();
        if (offload) {
            const bool pin = p.is_cuda();
            // Pinned host buffers let the copies to and from the GPU run at full bus speed.
            const auto hostOptions = torch::TensorOptions().dtype(torch::kFloat).pinned_memory(pin);
            home = torch::empty(p.sizes(), hostOptions);
            home.copy_(p.detach());
            hostParams_.push_back(home);
            hostGrads_.push_back(torch::empty(p.sizes(), hostOptions));
        }
        expAvg_.push_back(torch::zeros_like(home));
        expAvgSq_.push_back(torch::zeros_like(home));
        if (settings_.mode == OptimizerMode::Fused)
            stepCounts_.push_back(torch::zeros({}, home.options().dtype(torch::kFloat)));
    }
    if (settings_.lossScale && !params_.empty()) {
        const auto opts = params_.front().options().dtype(torch::kFloat);
        invScale_ = torch::full({}, 1.0 / *settings_.lossScale, opts);
        foundInf_ = torch::zeros({}, opts);
    }
}

void Optimizer::zeroGrad()
{
    for (auto& g : grads_)
        g.zero_();
}

void Optimizer::step()
{
    ++step_;
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> params, grads = grads_;
    for (auto& p : params_)
        params.push_back(p.detach());
    switch (settings_.mode) {
    case OptimizerMode::PerTensor:
        unscale(grads);
        stepPerTensor(params, grads);
        break;
    case OptimizerMode::Fused:
        stepFused(params, grads);
        break;
    case OptimizerMode::Offloaded:
        stepOffloaded();
        break;
    }
}

void Optimizer::unscale(std::vector<torch::Tensor>& grads)
{
    if (!settings_.lossScale)
        return;
    if (grads.front().is_cuda()) {
        // The kernel needs somewhere to flag inf/NaN; nothing reads it (an overflowing step is
        // applied and the benchmark's non-finite check fails the configuration).
        at::_amp_foreach_non_finite_check_and_unscale_(grads, foundInf_, invScale_);
        return;
    }
    for (auto& g : grads)
        g.mul_(1.0 / *settings_.lossScale);
}

void Optimizer::stepPerTensor(std::vector<torch::Tensor>& params, std::vector<torch::Tensor>& grads)
{
    const auto& s = settings_;
    const double correction1 = 1.0 - std::pow(s.beta1, static_cast<double>(step_));
    const double correction2 = 1.0 - std::pow(s.beta2, static_cast<double>(step_));
    for (std::size_t i = 0; i < params.size(); ++i) {
        auto& p = params[i];
        auto g = grads[i];
        if (s.decoupledWeightDecay)
            p.mul_(1.0 - s.learningRate * s.weightDecay);
        else if (s.weightDecay != 0.0)
            g = g.add(p, s.weightDecay);
        expAvg_[i].mul_(s.beta1).add_(g, 1.0 - s.beta1);
        expAvgSq_[i].mul_(s.beta2).addcmul_(g, g, 1.0 - s.beta2);
        auto denominator = (expAvgSq_[i].sqrt() / std::sqrt(correction2)).add_(s.epsilon);
        p.addcdiv_(expAvg_[i], denominator, -s.learningRate / correction1);
    }
}

void Optimizer::stepFused(std::vector<torch::Tensor>& params, std::vector<torch::Tensor>& grads)
{
#if GPUPLAN_TORCH_AT_LEAST(2, 1)
    const auto& s = settings_;
    // The fused kernels read the step count for the bias correction and never advance it
    // (Python's Adam adds 1 before the call): left at 0, the first step would divide by zero.
    at::_foreach_add_(stepCounts_, 1.0);
    // Unscaled first, as in the other modes. A step that overflows is applied, not skipped, in
    // every mode: the benchmark's non-finite check fails such a configuration instead, and a
    // skip decided per rank could let ZeRO's shards disagree.
    unscale(grads);
    if (s.decoupledWeightDecay)
        at::_fused_adamw_(params, grads, expAvg_, expAvgSq_, /*max_exp_avg_sqs=*/ {}, stepCounts_,
            s.learningRate, s.beta1, s.beta2, s.weightDecay, s.epsilon,
            /*amsgrad=*/false, /*maximize=*/false, /*grad_scale=*/ {}, /*found_inf=*/ {});
    else
        at::_fused_adam_(params, grads, expAvg_, expAvgSq_, /*max_exp_avg_sqs=*/ {}, stepCounts_,
            s.learningRate, s.beta1, s.beta2, s.weightDecay, s.epsilon,
            /*amsgrad=*/false, /*maximize=*/false, /*grad_scale=*/ {}, /*found_inf=*/ {});
#else
    // Callers only choose Fused where compat::hasFusedAdam says it exists.
    unscale(grads);
    stepPerTensor(params, grads);
#endif
}

void Optimizer::stepOffloaded()
{
    for (std::size_t i = 0; i < params_.size(); ++i)
        hostGrads_[i].copy_(grads_[i], /*non_blocking=*/true);
    // The parameters' own device, not the current one (0 in a one-process run on cuda:1, where
    // the host had read the gradients before their copies landed: review).
    if (!params_.empty() && params_.front().is_cuda())
        torch::cuda::synchronize(params_.front().device().index());
    unscale(hostGrads_);
    stepPerTensor(hostParams_, hostGrads_);
    for (std::size_t i = 0; i < params_.size(); ++i)
        params_[i].detach().copy_(hostParams_[i], /*non_blocking=*/true);
}

} // namespace gpuplan::bench

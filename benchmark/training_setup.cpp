#include "benchmark/training_setup.h"

#include "benchmark/torch_compat.h"

namespace gpuplan::bench {

namespace {

// fp16 gradients underflow without loss scaling; 2^16 is the initial scale of PyTorch's
// GradScaler.
constexpr double kFp16LossScale = 65536.0;

std::optional<at::ScalarType> autocastFor(
    Precision precision, const torch::Device& device, std::vector<std::string>& notes)
{
    switch (precision) {
    case Precision::BF16:
        return at::kBFloat16;
    case Precision::FP16:
        if (device.is_cuda())
            return at::kHalf;
        notes.push_back("fp16 autocast is CUDA-only in LibTorch: the CPU ran fp32");
        return std::nullopt;
    case Precision::FP32:
    case Precision::TF32:
        return std::nullopt;
    }
    return std::nullopt;
}

OptimizerMode optimizerModeFor(
    const Configuration& c, const torch::Device& device, std::vector<std::string>& notes)
{
    if (c.offload)
        return OptimizerMode::Offloaded;
    if (!c.uses(FreeLunchPart::FusedAdam))
        return OptimizerMode::PerTensor;
    if (compat::hasFusedAdam(device.type()))
        return OptimizerMode::Fused;
    notes.push_back("fused Adam(W) is not in LibTorch " + compat::libtorchVersion() + " for "
        + device.str() + ": per-tensor update");
    return OptimizerMode::PerTensor;
}

} // namespace

LossSetup setUpMethod(TrainableModel& model, const Configuration& configuration,
    const Recipe& recipe, const torch::Device& device, std::vector<std::string>& notes)
{
    const auto uses = [&](FreeLunchPart part) { return configuration.uses(part); };
    ExecutionOptions execution = model.execution();
    // The free lunch's fused and memory-saving paths, each a switch of its own.
    execution.fusedAttention = uses(FreeLunchPart::FusedAttention);
    execution.fusedScan = uses(FreeLunchPart::FusedScan);
    execution.chunkedLmHead = uses(FreeLunchPart::ChunkedLmHead);
    execution.fusedRotary = uses(FreeLunchPart::FusedRotary);
    execution.checkpointing = configuration.checkpointing;
    // Convolutions in NHWC, where cuDNN has its fast (tensor-core, depthwise) kernels. CUDA
    // only: the CPU runs validate the method, they do not tune it. Single process only: a
    // multi-process step flattens the parameters into plain (NCHW-strided) views.
    execution.channelsLast = uses(FreeLunchPart::ChannelsLast) && device.is_cuda()
        && configuration.parallelism == Parallelism::None;
    // Our depthwise kernels take NHWC activations only, so they come with channels-last.
    execution.depthwiseKernel = uses(FreeLunchPart::DepthwiseKernel) && execution.channelsLast;
    model.setExecution(execution);
    // TF32 matrix products: the free lunch on Ampere and later; off for the naive baseline
    // (cuDNN enables it by default, so switch both explicitly).
    at::globalContext().setAllowTF32CuBLAS(uses(FreeLunchPart::Tf32));
    at::globalContext().setAllowTF32CuDNN(uses(FreeLunchPart::Tf32));
    // cuDNN's autotuner times the algorithms for each convolution shape once (in the warm-up
    // step) and keeps the fastest; the naive baseline keeps the default heuristics.
    at::globalContext().setBenchmarkCuDNN(uses(FreeLunchPart::CudnnBenchmark));
    LossSetup setup;
    setup.device = device;
    // Both methods train in the recipe's precision: the paper's naive baseline is the model
    // "off the shelf" with its original mixed-precision setting (Appendix D), not fp32.
    setup.autocastDtype = autocastFor(recipe.precision, device, notes);
    if (setup.autocastDtype == at::kHalf)
        setup.lossScale = kFp16LossScale;
    // One low-precision copy of each weight per optimizer step, as a training stack that keeps
    // bf16/fp16 weights beside its fp32 master copy does; the naive baseline re-casts in every
    // forward, as torch.autocast does. Single process only: ZeRO-3 frees the gathered weights
    // after each block, which a kept copy would defeat.
    setup.keepCastsForStep = uses(FreeLunchPart::KeptCasts) && setup.autocastDtype.has_value()
        && configuration.parallelism == Parallelism::None;
    return setup;
}

torch::Tensor computeLoss(TrainableModel& model, const Batch& batch, const LossSetup& setup)
{
    torch::Tensor loss;
    if (setup.autocastDtype) {
        compat::AutocastScope autocast(setup.device.type(), { true, *setup.autocastDtype },
            setup.keepCastsForStep ? compat::CastCache::KeepForStep
                                   : compat::CastCache::ClearOnExit);
        loss = model.loss(batch);
    } else {
        loss = model.loss(batch);
    }
    return setup.lossScale ? loss * *setup.lossScale : loss;
}

void releaseStepCasts(const LossSetup& setup)
{
    if (setup.keepCastsForStep)
        compat::clearCastCache();
}

std::optional<std::string> nonFiniteIn(const torch::Tensor& loss,
    const std::vector<torch::Tensor>& gradients, std::optional<double> lossScale)
{
    const auto allFinite
        = [](const torch::Tensor& t) { return torch::isfinite(t.detach()).all().item<bool>(); };
    const std::string scaleNote = lossScale
        ? " (fp16, loss scale " + std::to_string(static_cast<long long>(*lossScale)) + ")"
        : std::string();
    if (!allFinite(loss))
        return "failed: non-finite loss " + std::to_string(loss.detach().item<double>())
            + scaleNote;
    std::size_t bad = 0;
    for (const auto& g : gradients)
        if (g.defined() && !allFinite(g))
            ++bad;
    if (bad > 0)
        return "failed: non-finite gradient in " + std::to_string(bad) + " of "
            + std::to_string(gradients.size()) + " tensors" + scaleNote;
    return std::nullopt;
}

OptimizerSettings optimizerSettingsFor(const Configuration& configuration, const Recipe& recipe,
    const LossSetup& setup, std::vector<std::string>& notes)
{
    OptimizerSettings settings = optimizerSettingsFor(recipe.optimizer);
    settings.mode = optimizerModeFor(configuration, setup.device, notes);
    settings.lossScale = setup.lossScale;
    return settings;
}

} // namespace gpuplan::bench

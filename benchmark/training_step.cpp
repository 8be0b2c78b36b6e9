#include "benchmark/training_step.h"

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
    if (c.method == Method::Naive)
        return OptimizerMode::PerTensor;
    if (compat::hasFusedAdam(device.type()))
        return OptimizerMode::Fused;
    notes.push_back("fused Adam(W) is not in LibTorch " + compat::libtorchVersion() + " for "
        + device.str() + ": per-tensor update");
    return OptimizerMode::PerTensor;
}

} // namespace

TrainingStep::TrainingStep(TrainableModel& model, const Configuration& configuration,
    const Recipe& recipe, const torch::Device& device, std::vector<std::string>& notes)
    : model_(model)
    , device_(device)
{
    const bool freeLunch = configuration.method == Method::FreeLunch;
    model_.setExecution({ /*fusedAttention=*/freeLunch, configuration.checkpointing });
    // TF32 matrix products: the free lunch on Ampere and later; off for the naive baseline
    // (cuDNN enables it by default, so switch both explicitly).
    at::globalContext().setAllowTF32CuBLAS(freeLunch);
    at::globalContext().setAllowTF32CuDNN(freeLunch);
    if (freeLunch)
        autocastDtype_ = autocastFor(recipe.precision, device, notes);
    if (autocastDtype_ == at::kHalf)
        lossScale_ = kFp16LossScale;

    OptimizerSettings settings = optimizerSettingsFor(recipe.optimizer);
    settings.mode = optimizerModeFor(configuration, device, notes);
    settings.lossScale = lossScale_;
    optimizer_ = std::make_unique<Optimizer>(model_.parameters(), settings);
}

void TrainingStep::microStep(const Batch& batch)
{
    torch::Tensor loss;
    if (autocastDtype_) {
        compat::AutocastScope autocast(device_.type(), { true, *autocastDtype_ });
        loss = model_.loss(batch);
    } else {
        loss = model_.loss(batch);
    }
    if (lossScale_)
        loss = loss * *lossScale_;
    loss.backward();
}

void TrainingStep::optimizerStep()
{
    optimizer_->step();
    optimizer_->zeroGrad();
}

std::optional<std::string> TrainingStep::captureGraph(const Batch& batch)
{
    if (!device_.is_cuda())
        return std::string("CUDA graphs need a CUDA device");
    // Casts cached by autocast would be captured once and replayed stale.
    const bool cacheWas = at::autocast::is_autocast_cache_enabled();
    at::autocast::set_autocast_cache_enabled(false);
    auto failure = graph_.capture(device_.index(), [&] { microStep(batch); });
    at::autocast::set_autocast_cache_enabled(cacheWas);
    optimizer_->zeroGrad(); // the warm-up before capture accumulated gradients
    return failure;
}

void TrainingStep::run(const Batch& batch)
{
    if (graph_.captured())
        graph_.replay();
    else
        microStep(batch);
}

void TrainingStep::dropGraph()
{
    graph_.reset();
}

} // namespace gpuplan::bench

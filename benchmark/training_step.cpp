#include "benchmark/training_step.h"

#include "benchmark/tensor_bytes.h"
#include "benchmark/torch_compat.h"

namespace gpuplan::bench {

TrainingStep::TrainingStep(TrainableModel& model, const Configuration& configuration,
    const Recipe& recipe, const torch::Device& device, std::vector<std::string>& notes)
    : model_(model)
    , setup_(setUpMethod(model, configuration, recipe, device, notes))
{
    optimizer_ = std::make_unique<Optimizer>(
        model_.parameters(), optimizerSettingsFor(configuration, recipe, setup_, notes));
}

TrainingStep::~TrainingStep()
{
    releaseStepCasts(setup_); // not into the next configuration's memory
}

void TrainingStep::microStep(const Batch& batch, bool /*closesStep*/)
{
    computeLoss(model_, batch, setup_).backward();
}

void TrainingStep::optimizerStep()
{
    optimizer_->step();
    optimizer_->zeroGrad();
    releaseStepCasts(setup_); // the weights changed
}

std::optional<std::string> TrainingStep::checkedStep(const Batch& batch)
{
    const torch::Tensor loss = computeLoss(model_, batch, setup_);
    loss.backward();
    std::vector<torch::Tensor> gradients;
    for (const auto& p : model_.parameters())
        gradients.push_back(p.grad());
    auto why = nonFiniteIn(loss, gradients, setup_.lossScale);
    optimizerStep();
    return why;
}

std::optional<std::string> TrainingStep::captureGraph(const Batch& batch)
{
    if (!setup_.device.is_cuda())
        return std::string("CUDA graphs need a CUDA device");
    std::optional<std::string> failure;
    {
        // Casts cached by autocast would be captured once and replayed stale.
        const compat::CastCacheOff uncached;
        failure = graph_.capture(setup_.device.index(), [&] { microStep(batch); });
    }
    optimizer_->zeroGrad(); // the warm-up before capture accumulated gradients
    releaseStepCasts(setup_); // the graph casts in every replay: the warm-up's copies are dead
    return failure;
}

void TrainingStep::run(const Batch& batch, bool closesStep)
{
    if (graph_.captured())
        graph_.replay();
    else
        microStep(batch, closesStep);
}

void TrainingStep::dropGraph()
{
    graph_.reset();
}

void TrainingStep::discardGradients()
{
    optimizer_->zeroGrad();
    releaseStepCasts(setup_);
}

StateBytes TrainingStep::stateBytes() const
{
    StateBytes bytes;
    for (const auto& p : model_.parameters()) {
        bytes.parameters += tensorBytes(p);
        bytes.gradients += tensorBytes(p.grad());
    }
    bytes.optimizerState = optimizer_->stateBytes();
    return bytes;
}

bool TrainingStep::firstMicroStepCasts() const
{
    // A captured graph casts in every replay (its capture ran with the cache off).
    return setup_.keepCastsForStep && !graph_.captured();
}

} // namespace gpuplan::bench

#pragma once

// How a configuration's method sets up a model and its loss, shared by the single-process and
// the multi-process steps: attention kernel, checkpointing, memory format, TF32, cuDNN's
// autotuner, autocast and its weight casts, fp16 loss scaling and the optimizer's mode.

#include "benchmark/measurement.h"
#include "benchmark/models/trainable_model.h"
#include "benchmark/optimizer.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::bench {

struct LossSetup {
    torch::Device device { torch::kCPU };
    std::optional<at::ScalarType> autocastDtype; // set: forward runs under autocast
    std::optional<double> lossScale; // fp16: the loss is multiplied by this before backward
    // The micro-steps of one optimizer step share autocast's low-precision copy of each weight
    // instead of casting it again in every forward; the step engine calls releaseStepCasts
    // whenever the weights change.
    bool keepCastsForStep = false;
};

// Switches the model's execution options and TF32 for `configuration` (keeping the model's
// block hooks), and says how the loss is computed. Notes what the method cannot do here.
LossSetup setUpMethod(TrainableModel& model, const Configuration& configuration,
    const Recipe& recipe, const torch::Device& device, std::vector<std::string>& notes);

// The loss of `batch` as the setup says (autocast, loss scale), ready for backward().
torch::Tensor computeLoss(TrainableModel& model, const Batch& batch, const LossSetup& setup);

// Drops the weight casts the setup keeps for a step (after an optimizer step, a discarded step,
// or the step's end); nothing otherwise.
void releaseStepCasts(const LossSetup& setup);

// Why a step's (scaled) loss or one of its gradients is not finite, or nullopt when all are.
// Synchronises with the device: for untimed checks only. With fp16 loss scaling the reason
// names the scale (an overflowing scaled gradient is the usual cause).
std::optional<std::string> nonFiniteIn(const torch::Tensor& loss,
    const std::vector<torch::Tensor>& gradients, std::optional<double> lossScale);

// The optimizer settings for the recipe and configuration on `device`.
OptimizerSettings optimizerSettingsFor(const Configuration& configuration, const Recipe& recipe,
    const LossSetup& setup, std::vector<std::string>& notes);

} // namespace gpuplan::bench

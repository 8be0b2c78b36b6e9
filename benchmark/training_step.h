#pragma once

// One configuration's training step in a single process: the micro-step (forward + backward of
// one micro-batch, gradients accumulated) and the optimizer step, set up the way the
// configuration's method says (training_setup.h), with the micro-step captured as a CUDA graph
// where that works.

#include "benchmark/cuda_backend.h"
#include "benchmark/step_engine.h"
#include "benchmark/training_setup.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::bench {

class TrainingStep : public StepEngine {
public:
    // Allocates gradients and optimizer state. Notes what the configuration could not do here.
    TrainingStep(TrainableModel& model, const Configuration& configuration, const Recipe& recipe,
        const torch::Device& device, std::vector<std::string>& notes);
    ~TrainingStep() override;
    TrainingStep(const TrainingStep&) = delete;
    TrainingStep& operator=(const TrainingStep&) = delete;

    void microStep(const Batch& batch, bool closesStep = false) override; // eager
    void optimizerStep() override;
    std::optional<std::string> checkedStep(const Batch& batch) override;
    std::optional<std::string> captureGraph(const Batch& batch) override;
    void run(const Batch& batch, bool closesStep = false) override;
    void dropGraph() override;
    void discardGradients() override;
    StateBytes stateBytes() const override;
    bool firstMicroStepCasts() const override;

private:
    TrainableModel& model_;
    LossSetup setup_;
    std::unique_ptr<Optimizer> optimizer_;
    cuda::StepGraph graph_;
};

} // namespace gpuplan::bench

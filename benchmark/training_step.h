#pragma once

// One configuration's training step: the micro-step (forward + backward of one micro-batch,
// gradients accumulated) and the optimizer step, set up the way the configuration's method
// says (precision, attention kernel, checkpointing, optimizer mode, CUDA graph).

#include "benchmark/cuda_backend.h"
#include "benchmark/measurement.h"
#include "benchmark/models/trainable_model.h"
#include "benchmark/optimizer.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::bench {

class TrainingStep {
public:
    // Allocates gradients and optimizer state. Notes what the configuration could not do here.
    TrainingStep(TrainableModel& model, const Configuration& configuration, const Recipe& recipe,
        const torch::Device& device, std::vector<std::string>& notes);

    void microStep(const Batch& batch); // eager
    void optimizerStep(); // update, then zero the gradients

    // Free lunch on CUDA: captures microStep(batch) as a graph that run() then replays.
    // Returns why it fell back, or nullopt.
    std::optional<std::string> captureGraph(const Batch& batch);
    // The measured micro-step: the graph replay if one was captured, else microStep(batch).
    void run(const Batch& batch);
    // Back to eager micro-steps (before retrying with another micro-batch size).
    void dropGraph();

private:
    TrainableModel& model_;
    torch::Device device_;
    std::optional<at::ScalarType> autocastDtype_; // set: forward runs under autocast
    std::optional<double> lossScale_;
    std::unique_ptr<Optimizer> optimizer_;
    cuda::StepGraph graph_;
};

} // namespace gpuplan::bench

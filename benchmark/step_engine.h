#pragma once

// What the runner drives, one configuration at a time: the single-process TrainingStep or a
// multi-process ShardedStep (benchmark/distributed/sharded_step.h).

#include "benchmark/measurement.h"
#include "benchmark/models/trainable_model.h"

#include <optional>
#include <string>

namespace gpuplan::bench {

class StepEngine {
public:
    virtual ~StepEngine() = default;

    // Forward + backward of one micro-batch, gradients accumulated. `closesStep` marks the last
    // micro-step before an optimizer step: a multi-process step synchronises gradients during
    // its backward pass (overlapped); a single process ignores it.
    virtual void microStep(const Batch& batch, bool closesStep = false) = 0;
    virtual void optimizerStep() = 0; // update, then zero the gradients
    // An untimed micro-step that closes a step, then the optimizer step: why this rank's loss
    // or a gradient was not finite (nonFiniteIn), or nullopt.
    virtual std::optional<std::string> checkedStep(const Batch& batch) = 0;
    // The measured micro-step: a captured CUDA graph where there is one, else microStep().
    virtual void run(const Batch& batch, bool closesStep = false) = 0;
    // Captures microStep(batch) as a CUDA graph; returns why it did not, or nullopt.
    virtual std::optional<std::string> captureGraph(const Batch& batch) = 0;
    virtual void dropGraph() = 0; // back to eager micro-steps
    // After an out-of-memory error: drops what the failed step left in the gradients.
    virtual void discardGradients() = 0;
    virtual StateBytes stateBytes() const = 0; // this rank's, between steps
    // Whether a step's first micro-step does work its others do not: with the casts kept for
    // the step, it makes the low-precision copy of every weight that the rest reuse. A block of
    // micro-steps timed from a step's start then holds that work once, and scaled to the step
    // it counted it accumulation / block times (the runner times such steps otherwise).
    virtual bool firstMicroStepCasts() const { return false; }
};

} // namespace gpuplan::bench

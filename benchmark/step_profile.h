#pragma once

// Where a measured configuration's step goes (time_breakdown.h), profiled after every
// configuration of the run has been timed: Kineto can leave CUPTI attached to the process after
// a profiling session, which has slowed later CUDA work by 10-20% (pytorch/pytorch#144455), so no
// timing may follow one.

#include "benchmark/measurement.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::bench {

class DeviceClock;
class TrainableModel;

// Sets up `result`'s configuration afresh at its micro-batch (a single-process step), runs two
// untimed steps, then one block of eager micro-steps (the accumulation, at most
// kMostProfiledMicroSteps) and an optimizer step under LibTorch's profiler. Eager, not a
// replayed CUDA graph: the kernels are the same, and eager ones are what every profiler sees.
// A profiler that cannot run, or records nothing, leaves a note in `notes` and nullopt.
std::optional<TimeBreakdown> profileStep(TrainableModel& model, const ConfigurationResult& result,
    const Recipe& recipe, const DeviceClock& clock, std::vector<std::string>& notes);

// Enough micro-steps that one slow launch or cache miss weighs little, few enough that the
// profile costs a fraction of a step of a large model (a micro-step of Pythia-1B: 0.45 s).
inline constexpr int kMostProfiledMicroSteps = 4;

} // namespace gpuplan::bench

#include "benchmark/step_profile.h"

#include "benchmark/device_clock.h"
#include "benchmark/models/trainable_model.h"
#include "benchmark/op_profiler.h"
#include "benchmark/training_step.h"

#include <algorithm>

namespace gpuplan::bench {

namespace {
// Untimed steps of the fresh set-up before the profile: the first grows the allocator's pools
// (on a CPU, glibc's heap) and makes the kernel choices; on the 2-core CPU one was not enough
// for the profiled block to run at the timed steps' pace.
constexpr int kWarmSteps = 2;
} // namespace

std::optional<TimeBreakdown> profileStep(TrainableModel& model, const ConfigurationResult& result,
    const Recipe& recipe, const DeviceClock& clock, std::vector<std::string>& notes)
{
    const bool cuda = clock.device().is_cuda();
    const int whole = std::min(result.accumulation, kMostProfiledMicroSteps);
    model.dropGradients(); // the last configuration's buffers go first
    clock.releaseCachedMemory();
    try {
        std::vector<std::string> setupNotes; // the timed run noted these already
        TrainingStep step(model, result.configuration, recipe, clock.device(), setupNotes);
        const Batch batch = model.makeBatch(result.microBatch, clock.device());
        // First use of this set-up: allocations, kernel choices.
        for (int i = 0; i < kWarmSteps; ++i) {
            for (int a = 0; a < whole; ++a)
                step.microStep(batch);
            step.optimizerStep();
        }
        // With the casts kept for the step, its first micro-step casts every weight: profiled
        // apart and counted once, not scaled with a block it began (as the timed samples,
        // runner.cpp).
        const bool firstApart = step.firstMicroStepCasts() && result.accumulation > whole;
        std::vector<ProfiledEvent> first;
        if (firstApart)
            first = profiledEvents(
                [&] {
                    step.microStep(batch);
                    clock.synchronize();
                },
                cuda);
        const int length = whole; // firstApart: accumulation > whole, so the block stays whole
        const auto block = profiledEvents(
            [&] {
                for (int a = 0; a < length; ++a)
                    step.microStep(batch,
                        /*closesStep=*/a + 1 + (firstApart ? 1 : 0) == result.accumulation);
                clock.synchronize();
            },
            cuda);
        const auto optimizer = profiledEvents(
            [&] {
                step.optimizerStep();
                clock.synchronize();
            },
            cuda);
        if (block.empty()) {
            notes.push_back("time breakdown: the profiler recorded no "
                + std::string(cuda ? "kernels (LibTorch without Kineto or CUPTI?)" : "operators"));
            return std::nullopt;
        }
        return breakdownOf(block, length, optimizer, result.accumulation,
            cuda ? "CUDA kernels" : "CPU operators (self time)", firstApart ? &first : nullptr);
    } catch (const std::exception& e) {
        const auto* torchError = dynamic_cast<const c10::Error*>(&e);
        notes.push_back(std::string("time breakdown not taken: ")
            + (torchError ? torchError->what_without_backtrace() : e.what()));
        model.dropGradients();
        clock.releaseCachedMemory();
        return std::nullopt;
    }
}

} // namespace gpuplan::bench

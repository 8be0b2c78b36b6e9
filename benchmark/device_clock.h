#pragma once

// Synchronised timing and memory statistics for the device a run measures on: CUDA events and
// the caching allocator's counters on a GPU, the steady clock and the counting allocator on the
// CPU.

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace gpuplan::bench {

class DeviceClock {
public:
    explicit DeviceClock(const torch::Device& device)
        : device_(device)
    {
    }

    // Seconds `work` takes, the device finished with everything it queued.
    double time(const std::function<void()>& work) const;
    // Seconds each of `parts` takes, run back to back with the device synchronised only after
    // the last (cuda::timePartsWithEvents): a training step's micro-steps and its update.
    std::vector<double> timeParts(const std::vector<std::function<void()>>& parts) const;
    void synchronize() const;
    void resetPeakMemory() const;
    std::int64_t peakMemoryBytes() const;
    void releaseCachedMemory() const;
    const torch::Device& device() const { return device_; }

private:
    int index() const { return device_.has_index() ? device_.index() : 0; }
    torch::Device device_;
};

} // namespace gpuplan::bench

#pragma once

// Everything gpuplan-bench does through CUDA directly (device properties, events, memory
// statistics, graph capture), behind a header without CUDA or LibTorch types. Built from
// cuda_backend.cpp when LibTorch has CUDA, from cuda_backend_cpu_only.cpp otherwise.

#include "benchmark/device_info.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::bench::cuda {

bool compiledIn();
int deviceCount(); // 0 without CUDA or without a driver
DeviceInfo describeDevice(int index); // name, memory, compute capability (no table look-up)
std::string runtimeVersion(); // "13.0"; "" without CUDA

void synchronize(int index);
// Seconds `work` takes on device `index`, between CUDA events recorded on the current stream
// before and after it (the host waits for the second event).
double timeWithEvents(int index, const std::function<void()>& work);
// Seconds each of `parts` takes when they run back to back: an event recorded before the first,
// between each two and after the last, and the host waiting only for the last. A part queued
// behind the one before it starts as soon as the device is free, as in training; timed alone it
// would start from an idle device and pay its launches.
std::vector<double> timePartsWithEvents(int index, const std::vector<std::function<void()>>& parts);

// Whether the current stream of device `index` is being captured into a CUDA graph (where
// synchronising, and so timing, is an error).
bool streamIsCapturing(int index);

void resetPeakMemory(int index);
std::int64_t peakAllocatedBytes(int index);
void releaseCachedMemory(); // hands the caching allocator's free blocks back to the driver

// A training micro-step captured as a CUDA graph: one launch per replay instead of hundreds.
class StepGraph {
public:
    StepGraph();
    ~StepGraph();
    StepGraph(const StepGraph&) = delete;
    StepGraph& operator=(const StepGraph&) = delete;

    // Warms `step` up on a side stream, then captures it. Returns why capture failed (the step
    // then runs eagerly), or nullopt on success.
    std::optional<std::string> capture(int index, const std::function<void()>& step);
    void replay();
    bool captured() const;
    void reset(); // drops the captured graph and its memory pool

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace gpuplan::bench::cuda

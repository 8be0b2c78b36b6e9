#pragma once

// LibTorch's profiler around a piece of work, its events as time_breakdown.h takes them. Kept
// apart so that only this file includes the profiler's headers.

#include "benchmark/time_breakdown.h"

#include <functional>
#include <vector>

namespace gpuplan::bench {

// What LibTorch's profiler records while `work` runs. On a GPU (`cuda`): the device's kernels,
// copies and fills, through Kineto and CUPTI; `work` must synchronise the device before it
// returns, or kernels still running are missed. On a CPU: the operators, which nest. Throws
// what the profiler throws when it cannot run; the profiler is off again when this returns or
// throws.
std::vector<ProfiledEvent> profiledEvents(const std::function<void()>& work, bool cuda);

} // namespace gpuplan::bench

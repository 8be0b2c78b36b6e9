#pragma once

// The CUDA caching allocator's settings for a run. LibTorch reads PYTORCH_CUDA_ALLOC_CONF once,
// when CUDA first allocates, so gpuplan-bench sets it first thing in main(); worker processes
// of a multi-GPU run inherit it.

#include <string>

namespace gpuplan::bench {

// Where LibTorch has them (2.1+) and PYTORCH_CUDA_ALLOC_CONF is not set, turns on expandable
// segments: the allocator grows one mapped segment instead of reserving new fixed blocks, so a
// micro-batch that fits in the search does not fail later from fragmentation. A user's own
// setting wins.
void configureCudaAllocator();

// The allocator settings this process runs with ("" = LibTorch's defaults), for the results.
std::string cudaAllocatorSettings();

} // namespace gpuplan::bench

#pragma once

// The CUDA caching allocator's settings for a run. LibTorch from 2.1 reads PYTORCH_CUDA_ALLOC_CONF
// once, when CUDA first allocates, so gpuplan-bench sets it first thing in main(). Newer
// LibTorch (c10/core/AllocatorConfig.h) reads PYTORCH_ALLOC_CONF first, while the library
// loads, and takes the settings directly as well. Worker processes of a multi-GPU run inherit
// the variables.

#include <string>

namespace gpuplan::bench {

// Where LibTorch has them (2.1+) and neither variable is set, turns on expandable
// segments: the allocator grows one mapped segment instead of reserving new fixed blocks, so a
// micro-batch that fits in the search does not fail later from fragmentation. A user's own
// setting wins.
void configureCudaAllocator();

// The allocator settings this process runs with ("" = LibTorch's defaults), for the results.
std::string cudaAllocatorSettings();

} // namespace gpuplan::bench

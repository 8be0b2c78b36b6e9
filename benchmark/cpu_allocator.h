#pragma once

// glibc malloc's settings for a run on the CPU. By default glibc serves blocks above a threshold
// (128 KiB at first, adjusted as blocks are freed) with fresh memory mappings and returns freed
// memory at the top of the heap to the system, so every step's temporaries (activations,
// gradients, a tiny model's few hundred KB each) can cost page faults: the kernel zero-filling
// pages, which on the project's virtual machine doubled a tiny model's step and shifted the time
// between the phases of a run (docs/benchmark.md, "Validation"). A training process keeps its
// memory, as LibTorch's CUDA caching allocator does on a GPU, so gpuplan-bench asks glibc to keep
// freed memory and to map only blocks of 32 MiB and more.

#include <string>

namespace gpuplan::bench {

// First thing in main(). Where the C library is glibc and none of MALLOC_MMAP_THRESHOLD_,
// MALLOC_TRIM_THRESHOLD_ and MALLOC_TOP_PAD_ is set: mapping threshold 32 MiB (glibc's largest on
// 64-bit systems), trim threshold 1 GiB, top pad 64 MiB. A user's own setting wins.
void configureCpuAllocator();

// The settings this process runs with: "" for the C library's defaults (a user's MALLOC_*
// variables, a C library other than glibc, or a sanitizer's allocator, which ignores mallopt),
// else "mmap_threshold:33554432,...".
std::string cpuAllocatorSettings();

} // namespace gpuplan::bench

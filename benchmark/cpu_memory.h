#pragma once

// Host-memory accounting for CPU runs: every tensor LibTorch allocates on the CPU goes through
// a counting allocator, which gives the peak memory of a configuration and, with
// `--memory-limit BYTES`, fails an allocation over the cap with the same out-of-memory error a
// GPU raises. That makes the micro-batch search testable without a GPU.

#include <cstdint>
#include <optional>

namespace gpuplan::bench::cpu_memory {

void install(); // idempotent; wraps LibTorch's CPU allocator
void setLimit(std::optional<std::int64_t> bytes);
void resetPeak();
std::int64_t peakBytes();
std::int64_t currentBytes();

} // namespace gpuplan::bench::cpu_memory

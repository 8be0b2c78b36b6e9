#include "benchmark/cuda_allocator.h"

#include "benchmark/torch_version.h"

#include <cstdlib>

namespace gpuplan::bench {

namespace {

constexpr const char* kVariable = "PYTORCH_CUDA_ALLOC_CONF";

} // namespace

void configureCudaAllocator()
{
#if GPUPLAN_TORCH_AT_LEAST(2, 1)
    // Older allocators reject options they do not know, so only where the option exists.
    ::setenv(kVariable, "expandable_segments:True", /*overwrite=*/0);
#endif
}

std::string cudaAllocatorSettings()
{
    const char* value = std::getenv(kVariable);
    return value ? value : "";
}

} // namespace gpuplan::bench

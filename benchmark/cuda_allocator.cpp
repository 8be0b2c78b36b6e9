#include "benchmark/cuda_allocator.h"

#include "benchmark/torch_version.h"

#include <cstdlib>
#include <optional>

// Newer LibTorch keeps the allocator settings in c10's AllocatorConfig, which parses them while
// the library loads, before main(): there the variable is set too late for this process, and the
// settings are handed over directly. The macro is defined beside setAllocatorSettings, so a
// version with the header but another design falls back to the variables.
#if __has_include(<c10/core/AllocatorConfig.h>)
#include <c10/core/AllocatorConfig.h>
#endif
#ifdef REGISTER_ALLOCATOR_CONFIG_PARSE_HOOK
#define GPUPLAN_SETS_ALLOCATOR_SETTINGS 1
#else
#define GPUPLAN_SETS_ALLOCATOR_SETTINGS 0
#endif

namespace gpuplan::bench {

namespace {

constexpr const char* kExpandableSegments = "expandable_segments:True";

// The allocator's variables: the device-neutral name of newer LibTorch (read first there), then
// the CUDA one every version since 2.1 reads.
constexpr const char* kVariables[] = { "PYTORCH_ALLOC_CONF", "PYTORCH_CUDA_ALLOC_CONF" };

std::optional<std::string> fromEnvironment()
{
    for (const char* variable : kVariables)
        if (const char* value = std::getenv(variable))
            return std::string(value);
    return std::nullopt;
}

} // namespace

void configureCudaAllocator()
{
    if (fromEnvironment())
        return; // the user's own settings
#if GPUPLAN_TORCH_AT_LEAST(2, 1)
    // Older allocators reject options they do not know, so only where the option exists. Both
    // names: worker processes of a multi-GPU run read whichever their LibTorch knows.
    for (const char* variable : kVariables)
        ::setenv(variable, kExpandableSegments, /*overwrite=*/1);
#endif
#if GPUPLAN_SETS_ALLOCATOR_SETTINGS
    c10::CachingAllocator::setAllocatorSettings(kExpandableSegments);
#endif
}

std::string cudaAllocatorSettings()
{
    return fromEnvironment().value_or("");
}

} // namespace gpuplan::bench

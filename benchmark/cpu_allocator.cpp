#include "benchmark/cpu_allocator.h"

#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gpuplan::bench {

namespace {

constexpr int kMmapThreshold = 32 << 20; // glibc's upper bound for it on 64-bit systems
constexpr int kTrimThreshold = 1 << 30;
constexpr int kTopPad = 64 << 20;

bool configured = false;

bool userChose()
{
    for (const char* name :
        { "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_" })
        if (std::getenv(name))
            return true;
    return false;
}

} // namespace

void configureCpuAllocator()
{
    configured = false;
#if defined(__GLIBC__)
    if (userChose())
        return;
    // mallopt returns 0 for a value it refuses; then glibc keeps its default for that setting.
    configured = mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 1
        && mallopt(M_TRIM_THRESHOLD, kTrimThreshold) == 1 && mallopt(M_TOP_PAD, kTopPad) == 1;
#endif
}

std::string cpuAllocatorSettings()
{
    if (!configured)
        return "";
    return "mmap_threshold:" + std::to_string(kMmapThreshold) + ",trim_threshold:"
        + std::to_string(kTrimThreshold) + ",top_pad:" + std::to_string(kTopPad);
}

} // namespace gpuplan::bench

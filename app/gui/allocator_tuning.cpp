#include "app/gui/allocator_tuning.h"

// __GLIBC__ is only defined once a libc header is in: ask for the header itself.
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif

namespace gpuplan::gui {

void keepFreedMemoryForReplots()
{
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    // Both, or glibc's dynamic thresholds (which adapt one to the other) stop adapting and a
    // fixed trim threshold alone made it twice as slow. 32 MB mapped chunks and 64 MB of free
    // heap top kept: far above one Results, small beside what Qt itself holds.
    constexpr int kMmapThresholdBytes = 32 * 1024 * 1024;
    constexpr int kTrimThresholdBytes = 64 * 1024 * 1024;
    mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
    mallopt(M_TRIM_THRESHOLD, kTrimThresholdBytes);
#endif
}

} // namespace gpuplan::gui

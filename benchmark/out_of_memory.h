#pragma once

// Whether an exception is a device (or --memory-limit) running out of memory: what the
// micro-batch search, the timed run and the attention trial recover from.

#include <c10/util/Exception.h>

#include <exception>
#include <string>

namespace gpuplan::bench {

inline bool isOutOfMemory(const std::exception& e)
{
    if (dynamic_cast<const c10::OutOfMemoryError*>(&e))
        return true;
    // The autograd engine may rethrow a device error from its own thread as c10::Error.
    const std::string what = e.what();
    // LibTorch's CPU allocator says "DefaultCPUAllocator: can't allocate memory" when the host
    // (or a ulimit) refuses: that micro-batch does not fit, as on a GPU.
    return what.find("out of memory") != std::string::npos
        || what.find("CPU memory limit") != std::string::npos
        || what.find("can't allocate memory") != std::string::npos;
}

} // namespace gpuplan::bench

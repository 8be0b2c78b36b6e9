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
    return what.find("out of memory") != std::string::npos
        || what.find("CPU memory limit") != std::string::npos;
}

} // namespace gpuplan::bench

#pragma once

// Every CUDA runtime call checked, naming the call and the file:line it was made from (as
// llm.c's cudaCheck): a failure throws, so gpuplan-bench reports it instead of timing garbage.

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace gpuplan::bench::kernels {

inline void checkCuda(cudaError_t status, const char* call, const char* file, int line)
{
    if (status != cudaSuccess)
        throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call + ": "
            + cudaGetErrorString(status));
}

} // namespace gpuplan::bench::kernels

#define GPUPLAN_CUDA_CALL(call)                                                                    \
    ::gpuplan::bench::kernels::checkCuda((call), #call, __FILE__, __LINE__)

// A build without the rotary CUDA kernels (no CUDA compiler, or a CPU-only LibTorch): the
// operation runs as LibTorch ops everywhere.

#include "benchmark/kernels/rotary_qkv_launch.h"

#include <stdexcept>

namespace gpuplan::bench {

bool rotaryQkvKernelCompiledIn()
{
    return false;
}

namespace detail {

bool rotaryKernelTakes(const torch::Tensor&, const RotaryTables&)
{
    return false;
}

void rotaryKernelForward(const torch::Tensor&, const RotaryTables&, QueryKeyValue&)
{
    throw std::logic_error("rotary qkv: this build has no CUDA kernel");
}

void rotaryKernelBackward(const QueryKeyValue&, const RotaryTables&, torch::Tensor&)
{
    throw std::logic_error("rotary qkv: this build has no CUDA kernel");
}

} // namespace detail

} // namespace gpuplan::bench

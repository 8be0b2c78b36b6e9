// A build without the short-sequence attention CUDA kernels (no CUDA compiler, or a CPU-only
// LibTorch): the operation runs as LibTorch ops everywhere.

#include "benchmark/kernels/short_attention_launch.h"
#include "benchmark/kernels/short_attention_op.h"

#include <stdexcept>

namespace gpuplan::bench {

bool shortAttentionKernelCompiledIn()
{
    return false;
}

namespace detail {

bool shortAttentionKernelTakes(const torch::Tensor&, const torch::Tensor&, const torch::Tensor&)
{
    return false;
}

ShortAttentionOutput shortAttentionKernelForward(
    const torch::Tensor&, const torch::Tensor&, const torch::Tensor&)
{
    throw std::logic_error("short attention: this build has no CUDA kernels");
}

std::vector<torch::Tensor> shortAttentionKernelBackward(const torch::Tensor&, const torch::Tensor&,
    const torch::Tensor&, const ShortAttentionOutput&, const torch::Tensor&)
{
    throw std::logic_error("short attention: this build has no CUDA kernels");
}

} // namespace detail

} // namespace gpuplan::bench

// A build without the depthwise convolution CUDA kernels (no CUDA compiler, or a CPU-only
// LibTorch): the operation runs as LibTorch's convolution everywhere.

#include "benchmark/kernels/depthwise_conv_launch.h"
#include "benchmark/kernels/depthwise_conv_op.h"

#include <stdexcept>

namespace gpuplan::bench {

bool depthwiseKernelCompiledIn()
{
    return false;
}

namespace detail {

bool depthwiseKernelTakes(const torch::Tensor&, const torch::Tensor&, const torch::Tensor&)
{
    return false;
}

torch::Tensor depthwiseKernelForward(
    const torch::Tensor&, const torch::Tensor&, const torch::Tensor&, bool)
{
    throw std::logic_error("depthwise convolution: this build has no CUDA kernels");
}

torch::Tensor depthwiseKernelWeightGradient(const torch::Tensor&, const torch::Tensor&)
{
    throw std::logic_error("depthwise convolution: this build has no CUDA kernels");
}

} // namespace detail

} // namespace gpuplan::bench

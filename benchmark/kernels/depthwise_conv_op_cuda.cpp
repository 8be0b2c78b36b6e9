// A build with the depthwise convolution CUDA kernels (depthwise_conv.h) and a LibTorch with
// CUDA: tensors handed to the kernels as pointers and the current stream.

#include "benchmark/kernels/depthwise_conv.h"
#include "benchmark/kernels/depthwise_conv_launch.h"
#include "benchmark/kernels/depthwise_conv_op.h"

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#include <limits>

namespace gpuplan::bench {

bool depthwiseKernelCompiledIn()
{
    return true;
}

namespace detail {

namespace {

kernels::DepthwiseShape shapeOf(const torch::Tensor& input)
{
    kernels::DepthwiseShape s;
    s.batch = static_cast<int>(input.size(0));
    s.channels = static_cast<int>(input.size(1));
    s.height = static_cast<int>(input.size(2));
    s.width = static_cast<int>(input.size(3));
    return s;
}

} // namespace

bool depthwiseKernelTakes(
    const torch::Tensor& input, const torch::Tensor& weight, const torch::Tensor& bias)
{
    constexpr auto kMostInt = std::numeric_limits<int>::max();
    const auto fp32Here = [&](const torch::Tensor& t) {
        return t.device() == input.device() && t.scalar_type() == torch::kFloat
            && t.is_contiguous();
    };
    const bool inputFits = input.is_cuda() && input.scalar_type() == torch::kFloat
        && input.dim() == 4 && input.numel() > 0
        && input.is_contiguous(at::MemoryFormat::ChannelsLast) && input.size(0) <= kMostInt
        && input.size(1) <= kMostInt && input.size(2) <= kMostInt && input.size(3) <= kMostInt;
    return inputFits && weight.dim() == 4 && weight.size(0) == input.size(1) && weight.size(1) == 1
        && weight.size(2) == kernels::kDepthwiseKernelSize
        && weight.size(3) == kernels::kDepthwiseKernelSize && fp32Here(weight)
        && (!bias.defined()
            || (bias.dim() == 1 && bias.size(0) == input.size(1) && fp32Here(bias)));
}

torch::Tensor depthwiseKernelForward(const torch::Tensor& input, const torch::Tensor& weight,
    const torch::Tensor& bias, bool rotated)
{
    const c10::cuda::CUDAGuard guard(input.device());
    auto output = torch::empty_like(input, at::MemoryFormat::ChannelsLast);
    // Tap-major, [49, channels]: a warp's 32 channels read each tap from one line (a copy per
    // call of at most 400 KB, ConvNeXt-XL's widest stage).
    const auto taps = weight.reshape({ weight.size(0), kernels::kDepthwiseTaps }).t().contiguous();
    kernels::depthwiseConvolution(shapeOf(input), input.data_ptr<float>(), taps.data_ptr<float>(),
        bias.defined() ? bias.data_ptr<float>() : nullptr, rotated, output.data_ptr<float>(),
        at::cuda::getCurrentCUDAStream());
    return output;
}

torch::Tensor depthwiseKernelWeightGradient(
    const torch::Tensor& input, const torch::Tensor& outputGradient)
{
    const c10::cuda::CUDAGuard guard(input.device());
    TORCH_CHECK(outputGradient.sizes() == input.sizes()
            && outputGradient.scalar_type() == torch::kFloat
            && outputGradient.is_contiguous(at::MemoryFormat::ChannelsLast),
        "depthwise convolution: an output gradient of ", outputGradient.sizes(), " for input ",
        input.sizes());
    const auto shape = shapeOf(input);
    const int groups = kernels::depthwiseWeightGradientGroups(
        shape, kernels::depthwiseResidentBlocks(kernels::DepthwiseKernel::WeightGradient));
    auto partials = torch::empty(
        { groups, kernels::kDepthwisePartialsPerChannel, shape.channels }, input.options());
    kernels::depthwiseWeightGradient(shape, input.data_ptr<float>(),
        outputGradient.data_ptr<float>(), groups, partials.data_ptr<float>(),
        at::cuda::getCurrentCUDAStream());
    return partials.sum(0);
}

} // namespace detail

} // namespace gpuplan::bench

#pragma once

// The depthwise convolution operation's way into the CUDA kernels (depthwise_conv.h): defined by
// depthwise_conv_op_cuda.cpp where this build has them, by depthwise_conv_op_cpu_only.cpp
// elsewhere. Used by depthwise_conv_op.cpp only.

#include <torch/torch.h>

namespace gpuplan::bench::detail {

// Whether the kernels take these tensors: a non-empty fp32 input on a GPU stored channels-last,
// fp32 weight [channels, 1, 7, 7] and bias [channels] (or none) on the same GPU.
bool depthwiseKernelTakes(
    const torch::Tensor& input, const torch::Tensor& weight, const torch::Tensor& bias);

// The forward (or, `rotated`, the input gradient from the output's gradient) on the current
// stream: input channels-last, the result channels-last.
torch::Tensor depthwiseKernelForward(const torch::Tensor& input, const torch::Tensor& weight,
    const torch::Tensor& bias, bool rotated);

// [50, channels] fp32: the 49 taps' gradient (tap i x 7 + j), then the bias's, from the input
// and the output's gradient (both channels-last).
torch::Tensor depthwiseKernelWeightGradient(
    const torch::Tensor& input, const torch::Tensor& outputGradient);

} // namespace gpuplan::bench::detail

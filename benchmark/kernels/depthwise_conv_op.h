#pragma once

// ConvNeXt's depthwise 7x7 convolution as a differentiable LibTorch operation (the free lunch's
// `depthwise-kernel`): one autograd node whose forward, input gradient and weight gradient run
// in our CUDA kernels (depthwise_conv.h) where this build has them and the activations are fp32
// channels-last on a GPU; LibTorch's convolution (cuDNN) everywhere else.

#include <torch/torch.h>

namespace gpuplan::bench {

// input: [batch, channels, height, width]; weight: [channels, 1, 7, 7]; bias: [channels] or
// undefined. Stride 1, padding 3, one filter per channel: Conv2d(c, c, 7, padding=3, groups=c).
// The output is in the input's memory format where the reference is taken, channels-last where
// the kernels are.
torch::Tensor depthwiseConvolution(
    const torch::Tensor& input, const torch::Tensor& weight, const torch::Tensor& bias);

// The same function as LibTorch's grouped convolution through autograd: the path without the
// kernels, and what they are checked against.
torch::Tensor depthwiseConvolutionReference(
    const torch::Tensor& input, const torch::Tensor& weight, const torch::Tensor& bias);

// The node itself, wherever the tensors are: its three parts in our kernels where they take the
// tensors, else as LibTorch ops (the forward and input gradient as convolutions, the weight
// gradient as 49 shifted products, slow). For the tests, which check the node's gradients on a
// CPU; depthwiseConvolution builds it only where the kernels run.
torch::Tensor depthwiseConvolutionNode(
    const torch::Tensor& input, const torch::Tensor& weight, const torch::Tensor& bias);

// Whether this build has the CUDA kernels (a CUDA compiler was found and LibTorch has CUDA).
bool depthwiseKernelCompiledIn();

} // namespace gpuplan::bench

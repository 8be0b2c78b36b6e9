#pragma once

// The short-sequence attention operation's way into the CUDA kernels (short_attention.h): defined
// by short_attention_op_cuda.cpp where this build has them, by short_attention_op_cpu_only.cpp
// elsewhere. Used by short_attention_op.cpp only.

#include <torch/torch.h>

namespace gpuplan::bench::detail {

// Whether the kernels take these tensors: fp32 [batch, heads, positions, 64] on one GPU of
// compute capability 8 or later (TF32 tensor cores), the last dimension contiguous, 1 to
// kMostShortPositions positions, the same shape for q, k and v, and the shared memory the
// forward asks for within what the device gives a block.
bool shortAttentionKernelTakes(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v);

struct ShortAttentionOutput {
    torch::Tensor out; // [batch, heads, positions, 64] contiguous
    torch::Tensor lse; // [batch, heads, positions] fp32: each query row's log-sum-exp
};

// The kernels on the current stream.
ShortAttentionOutput shortAttentionKernelForward(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v);
std::vector<torch::Tensor> shortAttentionKernelBackward(const torch::Tensor& q,
    const torch::Tensor& k, const torch::Tensor& v, const ShortAttentionOutput& forward,
    const torch::Tensor& dout);

} // namespace gpuplan::bench::detail

#pragma once

// The softmax-cross-entropy operation's way into the CUDA kernel (softmax_xent.h): defined by
// softmax_xent_op_cuda.cpp where this build has it, by softmax_xent_op_cpu_only.cpp elsewhere.
// Used by softmax_xent_op.cpp only.

#include <torch/torch.h>

namespace gpuplan::bench::detail {

// Whether the kernel takes these tensors: contiguous non-empty fp32, fp16 or bf16 logits on a
// GPU, contiguous int64 targets on the same GPU, one per row.
bool softmaxXentKernelTakes(const torch::Tensor& logits, const torch::Tensor& targets);

// The kernel on the current stream; returns the picked log-probabilities.
torch::Tensor softmaxXentKernel(torch::Tensor& logits, const torch::Tensor& targets);

} // namespace gpuplan::bench::detail

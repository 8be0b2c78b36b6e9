#pragma once

// The chunked language-model head's softmax-cross-entropy gradient as a LibTorch operation
// (what it computes: softmax_xent.h): our CUDA kernel where this build has it and the tensors
// are on a GPU, LibTorch ops everywhere else. Not an autograd node: the chunked head computes
// its gradient in the forward pass (lm_loss.cpp).

#include <torch/torch.h>

namespace gpuplan::bench {

// logits: [rows, vocabulary], the compute precision, replaced in place by d(cross-entropy)/
// d(logits) (softmax, the target's entry less 1), unscaled; targets: [rows] int64, each in
// [0, vocabulary). Returns each row's log-probability of its target, fp32 [rows].
torch::Tensor softmaxCrossEntropyGradient(torch::Tensor& logits, const torch::Tensor& targets);

// The same as LibTorch ops (log_softmax to fp32, exp into the logits, a scatter of expm1): the
// path without the kernel and, on fp64 logits (then in fp64 throughout), the reference the
// kernel is tested against.
torch::Tensor softmaxCrossEntropyGradientReference(
    torch::Tensor& logits, const torch::Tensor& targets);

bool softmaxXentKernelCompiledIn();

} // namespace gpuplan::bench

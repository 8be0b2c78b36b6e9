#pragma once

// Attention over short sequences in fp32 with TF32 products and the scores kept on chip
// (short_attention.h) as a differentiable LibTorch operation: the third path of the free lunch's
// attention (models/attention_choice.h), where LibTorch's fused kernels compute fp32 exactly and
// the spelled-out products send the scores through device memory.

#include <torch/torch.h>

namespace gpuplan::bench {

// softmax(q k^T / 8) v for q, k, v [batch, heads, positions, 64], not causal: one autograd node
// whose forward keeps each row's log-sum-exp and whose backward recomputes the probabilities
// from it (as flash attention does). Its parts run in our kernels where they take the tensors
// and TF32 products are allowed (at::globalContext().allowTF32CuBLAS()), else as LibTorch ops
// computing the same formulas: the form the tests check the node's gradients in on a CPU.
torch::Tensor shortAttention(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v);

// Whether the free lunch may offer our kernels for this attention: they take the tensors, it is
// not causal, no autocast is on (the inputs are the recipe's fp32) and TF32 products are allowed,
// as they are for the spelled-out path it replaces; then the kernels compute what that path
// computes, in the same precision.
bool shortAttentionOffered(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal);

// Whether this build has the CUDA kernels (a CUDA compiler was found and LibTorch has CUDA).
bool shortAttentionKernelCompiledIn();

} // namespace gpuplan::bench

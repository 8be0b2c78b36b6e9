#pragma once

// The language-model head and its cross-entropy in chunks of positions: the logits of at most
// kLogitChunkElements at a time, in the compute precision, each chunk's softmax in fp32 and its
// gradient computed at once, while its logits exist (the backward pass only scales the
// gradients); on a GPU the softmax and the gradient of the logits are one kernel of ours
// (kernels/softmax_xent.h). The full [positions, vocabulary] logits (and their fp32 copy) never
// exist, which is most of a small language model's activation memory at a large vocabulary.

#include "benchmark/models/trainable_model.h"

#include <torch/torch.h>

#include <cstdint>

namespace gpuplan::bench {

// Logit elements per chunk: 2^26 (256 MiB in fp32): large enough that each chunk's product
// keeps a GPU busy, small against the hundreds of MiB-to-GiB a full vocabulary's logits take.
inline constexpr std::int64_t kLogitChunkElements = std::int64_t { 1 } << 26;

// The mean cross-entropy of hidden [..., h] x weight [vocabulary, h]^T against targets [...]
// (ignore_index -100), as crossEntropy(linear(hidden, weight), targets) but chunked:
// `chunkPositions` positions at a time (0: as many as kLogitChunkElements allows). hidden and
// weight should already be in the compute precision (the caller casts them, so autograd casts
// the gradients back); the softmax and the loss are fp32.
torch::Tensor chunkedLmLoss(const torch::Tensor& hidden, const torch::Tensor& weight,
    const torch::Tensor& targets, std::int64_t chunkPositions = 0);

// The loss of a language model's head: chunkedLmLoss in the compute precision when `chunked`
// (the free lunch), else the full logits and crossEntropy (attention.h), the naive baseline.
torch::Tensor lmHeadLoss(const torch::Tensor& hidden, const torch::Tensor& weight,
    const torch::Tensor& targets, bool chunked);

// A causal language model's batch: `microBatch` random sequences of `sampleTokens` token ids
// below `vocabSize`, the inputs their first sampleTokens - 1 tokens and the targets the next
// token at each of those positions.
Batch nextTokenBatch(
    std::int64_t vocabSize, int microBatch, int sampleTokens, const torch::Device& device);

// The dtype products run in under the autocast state active now on `device`: the autocast
// dtype where autocast is on, else `otherwise`.
at::ScalarType computeDtype(const torch::Device& device, at::ScalarType otherwise);

} // namespace gpuplan::bench

#pragma once

// The chunked language-model head's softmax and cross-entropy gradient (models/lm_loss.h) as one
// CUDA kernel, behind plain pointers and a stream (no LibTorch here, so nvcc compiles it on its
// own; softmax_xent_op.h is the LibTorch operation).
//
// For each row r of logits [rows, vocabulary] (contiguous, fp32, fp16 or bf16) and its target
// t = targets[r] (0 <= t < vocabulary):
//   picked[r] = logits[r, t] - log(sum_j exp(logits[r, j]))      (fp32)
//   logits[r, j] <- exp(logits[r, j] - logsumexp)  for j != t     (softmax, in place)
//   logits[r, t] <- expm1(picked[r])                              (softmax - 1, exact near 1)
// which is d(cross-entropy)/d(logits) before the 1/count scale, as LibTorch computes it with
// log_softmax to fp32, exp into the logits and a scatter of expm1 (lm_loss.cpp's ops). Arithmetic
// in fp32 whatever the logits' type; one rounding per stored gradient. Read twice (the row's
// maximum and sum in one online pass, then the gradient) and written once, in the logits' type:
// the LibTorch ops read and write a row's fp32 log-probabilities besides, and for bf16 an fp32
// copy of the logits too.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <limits>

namespace gpuplan::bench::kernels {

enum class LogitType { Float32, Float16, BFloat16 };

// The largest vocabulary the kernel takes: its threads stride through a row in int, by up to
// 1,024 at a time.
inline constexpr std::int64_t kMostLogitVocabulary = std::numeric_limits<int>::max() - 1024;

struct LogitRows {
    int rows = 0;
    int vocabulary = 0;
    LogitType type = LogitType::Float32;
};

// Throws std::invalid_argument for a shape the kernel does not take, std::runtime_error (with
// file:line) when CUDA reports an error. targets: [rows] int64 on the device, each in
// [0, vocabulary) (the caller clamps ignored positions' -100 to 0 and masks them after; a row
// whose target is outside gets NaN for its picked value and its gradient); picked: [rows] fp32
// on the device. A logit of -inf has probability 0, as in LibTorch's log_softmax.
void softmaxCrossEntropyGradient(const LogitRows& shape, void* logits, const std::int64_t* targets,
    float* picked, cudaStream_t stream);

} // namespace gpuplan::bench::kernels

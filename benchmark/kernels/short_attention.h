#pragma once

// Attention over short sequences (ViT-L/16: 197 positions of head size 64) in fp32 with TF32
// tensor-core products, forward and backward, as CUDA kernels behind plain pointers and a stream
// (no LibTorch here, so nvcc compiles it on its own; short_attention_op.h is the LibTorch
// operation).
//
// Why: in fp32 no fused attention kernel of LibTorch runs TF32 products (the memory-efficient one
// computes fp32 exactly), so ViT-L's free lunch spells the products out, writing and reading the
// scores and their softmax (b x heads x n x n) through device memory: on an H200 its attention took
// 25% of the micro-step for 3% of its FLOPs (benchmark/measurements/h200-2026-12-04). These
// kernels keep the scores on chip. For each (batch, head), with q, k, v [n, 64], s = 1/8:
//   forward:  S = (s q) k^T, P = softmax(S) by rows, out = P v, lse = log(sum_j exp(S_ij)) [n]
//   backward: from dout, delta_i = sum_d dout_id out_id, P recomputed from S and lse,
//             dP = dout v^T, dS = P (dP - delta), dq = s dS k, dk = dS^T (s q), dv = P^T dout
// The products take TF32 inputs (10-bit mantissas, as cuBLAS's with TF32 allowed) and add in
// fp32; softmax, exp and the delta run in fp32. Work split (short_attention_kernels.cuh): the
// forward holds a block's 64 query rows' scores against all keys in shared memory (hence at most
// kMostShortPositions positions; an exact softmax, no running rescale); the backward takes 64
// query rows (dq) or 64 key rows (dk, dv) per block and walks the other side in chunks of 64, so
// that no sum needs atomics and every result is written once.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gpuplan::bench::kernels {

inline constexpr int kShortHeadSize = 64; // the only head size the kernels take
inline constexpr int kMostShortPositions = 256; // positions whose scores a block holds
// The most batch x heads a launch takes: a head's index is an int (far beyond any device's
// memory at ViT-L's 16 heads).
inline constexpr std::int64_t kMostShortBatchHeads = 2147483647;

// A [batch, heads, positions, 64] fp32 tensor whose last dimension is contiguous: the element
// (b, h, i, d) is at data[b * batchStride + h * headStride + i * positionStride + d].
struct HeadsView {
    const float* data = nullptr;
    std::int64_t batchStride = 0;
    std::int64_t headStride = 0;
    std::int64_t positionStride = 0;
};

struct ShortAttentionShape {
    int batch = 0;
    int heads = 0;
    int positions = 0; // 1 .. kMostShortPositions
};

// Shared memory a block of each kernel takes at this many positions, in bytes (above the 48 KiB
// a launch gets without asking: the launches ask for it).
std::size_t shortAttentionForwardSharedBytes(int positions);
std::size_t shortAttentionBackwardSharedBytes();

// Throws std::invalid_argument for a shape the kernels do not take, std::runtime_error (with
// file:line) when CUDA reports an error. out: [batch, heads, positions, 64] contiguous; lse:
// [batch, heads, positions] contiguous (kept for the backward).
void shortAttentionForward(const ShortAttentionShape& shape, const HeadsView& q, const HeadsView& k,
    const HeadsView& v, float* out, float* lse, cudaStream_t stream);

// out and lse as the forward wrote them (contiguous), dout in any HeadsView layout; delta:
// [batch, heads, positions] scratch; dq, dk, dv: [batch, heads, positions, 64] contiguous, each
// written whole.
void shortAttentionBackward(const ShortAttentionShape& shape, const HeadsView& q,
    const HeadsView& k, const HeadsView& v, const float* out, const float* lse,
    const HeadsView& dout, float* delta, float* dq, float* dk, float* dv, cudaStream_t stream);

} // namespace gpuplan::bench::kernels

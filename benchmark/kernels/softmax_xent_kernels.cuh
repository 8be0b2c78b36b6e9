#pragma once

// The softmax-cross-entropy gradient kernel (interface and the function it computes:
// softmax_xent.h).
//
// Work split: one block per row. Pass 1: each thread runs an online maximum and sum of
// exponentials over its strided share of the row (the sum rescaled when the maximum grows), the
// block combines the threads' pairs (warp shuffles, then one value per warp through shared
// memory). Pass 2: each thread writes its share's gradient, reading the row a second time (a
// 50k-entry fp16 row is 100 KB; with some 500 rows in flight on an H100, 50 MB, much of the
// second read may come from L2 rather than memory: the benchmark tells).
//
// Device code only, included by softmax_xent.cu (which launches it) and by the test that runs it
// on CPU threads (tests/benchmark/kernel_emulation.h), hence the unnamed namespace.

#include "benchmark/kernels/element_types.cuh"
#include "benchmark/kernels/softmax_xent.h"

#include <cmath>
#include <cstdint>

namespace gpuplan::bench::kernels {

namespace {

constexpr int kSoftmaxThreads = 512;
constexpr int kSoftmaxWarps = kSoftmaxThreads / 32;

// A running maximum and the sum of exp(x - max) over the values seen; an empty one has max
// -infinity and sum 0.
struct MaxSum {
    float max;
    float sum;
};

__host__ __device__ __forceinline__ MaxSum combined(MaxSum a, MaxSum b)
{
    if (a.sum == 0.0f)
        return b;
    if (b.sum == 0.0f)
        return a;
    const float m = a.max > b.max ? a.max : b.max;
    return { m, a.sum * expf(a.max - m) + b.sum * expf(b.max - m) };
}

// The block's combined pair, in every thread.
__device__ __forceinline__ MaxSum blockCombined(MaxSum mine)
{
    __shared__ float maxes[kSoftmaxWarps];
    __shared__ float sums[kSoftmaxWarps];
    for (int offset = 16; offset > 0; offset /= 2)
        mine = combined(mine,
            { __shfl_xor_sync(0xffffffffu, mine.max, offset),
                __shfl_xor_sync(0xffffffffu, mine.sum, offset) });
    const int warp = static_cast<int>(threadIdx.x) / 32;
    const int lane = static_cast<int>(threadIdx.x) % 32;
    if (lane == 0) {
        maxes[warp] = mine.max;
        sums[warp] = mine.sum;
    }
    __syncthreads();
    MaxSum all { -INFINITY, 0.0f };
    for (int w = 0; w < kSoftmaxWarps; ++w)
        all = combined(all, { maxes[w], sums[w] });
    return all;
}

template <typename T>
__global__ void __launch_bounds__(kSoftmaxThreads) softmaxCrossEntropyGradientKernel(LogitRows s,
    T* __restrict__ logits, const std::int64_t* __restrict__ targets, float* __restrict__ picked)
{
    const int row = static_cast<int>(blockIdx.x);
    T* values = logits + static_cast<std::int64_t>(row) * s.vocabulary;
    const std::int64_t target = targets[row];
    // A target outside the vocabulary (an ignore index left unclamped) makes the row's loss and
    // gradient NaN, which the step's finiteness check reports, instead of a read out of bounds.
    const bool targetValid = target >= 0 && target < s.vocabulary;
    // Read before the block's barrier (in blockCombined): after it, the thread that owns the
    // target's entry overwrites it with its gradient.
    const float targetLogit = targetValid ? toFloat(values[target]) : NAN;

    MaxSum mine { -INFINITY, 0.0f };
    for (int j = static_cast<int>(threadIdx.x); j < s.vocabulary; j += kSoftmaxThreads) {
        const float x = toFloat(values[j]);
        if (x > mine.max) { // one exponential per value: the sum rescales only on a new maximum
            mine.sum = mine.sum * expf(mine.max - x) + 1.0f;
            mine.max = x;
        } else if (mine.sum > 0.0f) { // a -inf before any finite value adds nothing (not NaN)
            mine.sum += expf(x - mine.max);
        }
    }
    const MaxSum all = blockCombined(mine);
    const float logSum = all.max + logf(all.sum);

    const float targetLogProb = targetLogit - logSum;
    if (threadIdx.x == 0)
        picked[row] = targetLogProb;
    for (int j = static_cast<int>(threadIdx.x); j < s.vocabulary; j += kSoftmaxThreads) {
        const float gradient = !targetValid ? NAN
            : j == target                   ? expm1f(targetLogProb)
                                            : expf(toFloat(values[j]) - logSum);
        values[j] = fromFloat<T>(gradient);
    }
}

} // namespace

} // namespace gpuplan::bench::kernels

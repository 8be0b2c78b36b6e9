#pragma once

// The rotary query-key-value kernels (interface and the function they compute: rotary_qkv.h).
//
// Work split: one block per token (batch x positions blocks), its threads striding over the
// token's heads x 3 x headDim values of the projection's output, which are contiguous. So the
// forward reads, and the backward writes, one contiguous run per block; the other side is
// headDim-long runs, one per head and part. A value's rotation partner (rotaryDims/2 away inside
// the rotated part) is read by two threads, from the same cache lines.
//
// Device code only, included by rotary_qkv.cu (which launches it) and by the test that runs it
// on CPU threads (tests/benchmark/kernel_emulation.h), hence the unnamed namespace.

#include "benchmark/kernels/element_types.cuh"
#include "benchmark/kernels/rotary_qkv.h"

#include <cstdint>

namespace gpuplan::bench::kernels {

namespace {

constexpr int kRotaryThreads = 256;
constexpr int kParts = 3; // query, key, value
constexpr int kValue = 2;

// Where value j of token (b, t) sits: its head, part (query, key, value) and dimension.
struct TokenValue {
    int head = 0, part = 0, dim = 0;
};

__device__ __forceinline__ TokenValue tokenValue(const RotaryShape& s, int j)
{
    TokenValue v;
    v.dim = j % s.headDim;
    const int headPart = j / s.headDim;
    v.part = headPart % kParts;
    v.head = headPart / kParts;
    return v;
}

// Offset of (b, h, t, d) in a contiguous [batch, heads, positions, headDim] tensor.
__device__ __forceinline__ std::int64_t headsAt(const RotaryShape& s, int b, int h, int t, int d)
{
    return ((static_cast<std::int64_t>(b) * s.heads + h) * s.positions + t) * s.headDim + d;
}

template <typename T>
__device__ __forceinline__ float load(const HeadsOperand& o, int b, int h, int t, int d)
{
    return toFloat(static_cast<const T*>(o.data)[b * o.batchStride + h * o.headStride
        + static_cast<std::int64_t>(t) * o.positionStride + d * o.dimStride]);
}

// Dimension d's rotation partner and the sign its term takes in the forward:
// out1 = x1 cos - x2 sin, out2 = x2 cos + x1 sin (the backward's signs are the opposite).
__device__ __forceinline__ int partnerOf(int d, int half)
{
    return d < half ? d + half : d - half;
}
__device__ __forceinline__ float forwardSign(int d, int half)
{
    return d < half ? -1.0f : 1.0f;
}

template <typename T>
__global__ void __launch_bounds__(kRotaryThreads)
    rotaryQkvForwardKernel(RotaryShape s, const T* __restrict__ qkv, RotaryAngles angles,
        T* __restrict__ query, T* __restrict__ key, T* __restrict__ value)
{
    const int b = static_cast<int>(blockIdx.x) / s.positions;
    const int t = static_cast<int>(blockIdx.x) % s.positions;
    const int tokenValues = s.heads * kParts * s.headDim;
    const T* token = qkv + static_cast<std::int64_t>(blockIdx.x) * tokenValues;
    const int half = s.rotaryDims / 2;
    for (int j = static_cast<int>(threadIdx.x); j < tokenValues; j += kRotaryThreads) {
        const TokenValue v = tokenValue(s, j);
        T* out = v.part == 0 ? query : v.part == 1 ? key : value;
        float x = toFloat(token[j]);
        if (v.part != kValue && v.dim < s.rotaryDims) {
            const std::int64_t angle = static_cast<std::int64_t>(t) * s.rotaryDims + v.dim;
            const float partner = toFloat(token[j - v.dim + partnerOf(v.dim, half)]);
            x = x * angles.cos[angle] + forwardSign(v.dim, half) * partner * angles.sin[angle];
        }
        out[headsAt(s, b, v.head, t, v.dim)] = fromFloat<T>(x);
    }
}

template <typename T>
__global__ void __launch_bounds__(kRotaryThreads)
    rotaryQkvBackwardKernel(RotaryShape s, HeadsOperand dquery, HeadsOperand dkey,
        HeadsOperand dvalue, RotaryAngles angles, T* __restrict__ dqkv)
{
    const int b = static_cast<int>(blockIdx.x) / s.positions;
    const int t = static_cast<int>(blockIdx.x) % s.positions;
    const int tokenValues = s.heads * kParts * s.headDim;
    T* token = dqkv + static_cast<std::int64_t>(blockIdx.x) * tokenValues;
    const int half = s.rotaryDims / 2;
    for (int j = static_cast<int>(threadIdx.x); j < tokenValues; j += kRotaryThreads) {
        const TokenValue v = tokenValue(s, j);
        const HeadsOperand& grad = v.part == 0 ? dquery : v.part == 1 ? dkey : dvalue;
        float g = load<T>(grad, b, v.head, t, v.dim);
        if (v.part != kValue && v.dim < s.rotaryDims) {
            // The transpose: the partner's term takes the partner's angle.
            const int partner = partnerOf(v.dim, half);
            const std::int64_t row = static_cast<std::int64_t>(t) * s.rotaryDims;
            g = g * angles.cos[row + v.dim]
                - forwardSign(v.dim, half) * load<T>(grad, b, v.head, t, partner)
                    * angles.sin[row + partner];
        }
        token[j] = fromFloat<T>(g);
    }
}

} // namespace

} // namespace gpuplan::bench::kernels

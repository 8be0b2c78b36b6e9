#pragma once

// The depthwise convolution kernels (interface and the functions they compute: depthwise_conv.h).
//
// Work split, both kernels: a block is 32 channel lanes x 8 slots. A warp's 32 threads take 32
// consecutive channels of the same position, so every load and store is one 128-byte line of the
// NHWC tensor (the weights and partial sums too: they are stored tap-major); a thread keeps its
// channel's 49 weights (or 49 sums) in registers for all its work. Forward: a thread computes
// strips of 7 outputs along a row (7 divides every ConvNeXt stage's width), reading the 7 input
// rows' 13 values each (the strip and its halo) once, 91 loads for 343 multiply-adds; the
// neighbouring strips' overlapping reads come from L1/L2; the grid holds a few waves of blocks,
// so a thread walks many strips for one load of its weights. Weight gradient: a thread walks
// whole rows of the output gradient, sliding a 7-value window along each of the 7 input rows it
// meets (two loads per 7 multiply-adds), and the block's 8 slots add their sums through shared
// memory at the end.
//
// Device code only, included by depthwise_conv.cu (which launches it) and by the test that runs
// it on CPU threads (tests/benchmark/kernel_emulation.h), hence the unnamed namespace.

#include "benchmark/kernels/depthwise_conv.h"

#include <cstdint>

namespace gpuplan::bench::kernels {

namespace {

constexpr int kDepthwiseLanes = 32; // channels per block: one warp's coalesced line
constexpr int kDepthwiseSlots = 8; // strips (forward) or rows (weight gradient) in flight per block
constexpr int kDepthwiseThreads = kDepthwiseLanes * kDepthwiseSlots;
constexpr int kDepthwiseStrip = 7; // outputs along a row per thread (forward)
constexpr int kDepthwiseHalo = kDepthwiseKernelSize / 2; // the padding: 3

__host__ __device__ inline int depthwiseStrips(const DepthwiseShape& s)
{
    return (s.width + kDepthwiseStrip - 1) / kDepthwiseStrip;
}

// The element at (n, h, w) of channel 0 in an NHWC tensor, as an offset.
__host__ __device__ inline std::int64_t nhwcOffset(
    const DepthwiseShape& s, std::int64_t n, int h, int w)
{
    return ((n * s.height + h) * s.width + w) * s.channels;
}

__global__ void __launch_bounds__(kDepthwiseThreads) depthwiseForwardKernel(DepthwiseShape s,
    const float* __restrict__ input, const float* __restrict__ taps, const float* __restrict__ bias,
    bool rotated, float* __restrict__ output)
{
    constexpr int K = kDepthwiseKernelSize;
    const int lane = static_cast<int>(threadIdx.x) % kDepthwiseLanes;
    const int slot = static_cast<int>(threadIdx.x) / kDepthwiseLanes;
    const int c = static_cast<int>(blockIdx.x) * kDepthwiseLanes + lane;
    if (c >= s.channels) // the last block's spare lanes; no barrier follows
        return;
    float weight[K][K];
#pragma unroll
    for (int i = 0; i < K; ++i)
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const int tap = rotated ? (K - 1 - i) * K + (K - 1 - j) : i * K + j;
            weight[i][j] = taps[static_cast<std::int64_t>(tap) * s.channels + c];
        }
    const float start = bias != nullptr ? bias[c] : 0.0f;

    const int strips = depthwiseStrips(s);
    const std::int64_t work = static_cast<std::int64_t>(s.batch) * s.height * strips;
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.y) * kDepthwiseSlots;
    for (std::int64_t item = static_cast<std::int64_t>(blockIdx.y) * kDepthwiseSlots + slot;
         item < work; item += stride) {
        const int w0 = static_cast<int>(item % strips) * kDepthwiseStrip;
        const std::int64_t row = item / strips; // n x height + h
        const int h = static_cast<int>(row % s.height);
        const std::int64_t n = row / s.height;
        float sums[kDepthwiseStrip];
#pragma unroll
        for (int x = 0; x < kDepthwiseStrip; ++x)
            sums[x] = start;
#pragma unroll
        for (int i = 0; i < K; ++i) {
            const int inputRow = h + i - kDepthwiseHalo;
            if (inputRow < 0 || inputRow >= s.height)
                continue;
            const float* line = input + nhwcOffset(s, n, inputRow, 0) + c;
            float window[kDepthwiseStrip + K - 1];
#pragma unroll
            for (int x = 0; x < kDepthwiseStrip + K - 1; ++x) {
                const int column = w0 + x - kDepthwiseHalo;
                window[x] = column >= 0 && column < s.width
                    ? line[static_cast<std::int64_t>(column) * s.channels]
                    : 0.0f;
            }
#pragma unroll
            for (int x = 0; x < kDepthwiseStrip; ++x)
#pragma unroll
                for (int j = 0; j < K; ++j)
                    sums[x] = fmaf(window[x + j], weight[i][j], sums[x]);
        }
        float* out = output + nhwcOffset(s, n, h, w0) + c;
#pragma unroll
        for (int x = 0; x < kDepthwiseStrip; ++x)
            if (w0 + x < s.width)
                out[static_cast<std::int64_t>(x) * s.channels] = sums[x];
    }
}

__global__ void __launch_bounds__(kDepthwiseThreads)
    depthwiseWeightGradientKernel(DepthwiseShape s, const float* __restrict__ input,
        const float* __restrict__ outputGradient, float* __restrict__ partials)
{
    constexpr int K = kDepthwiseKernelSize;
    const int lane = static_cast<int>(threadIdx.x) % kDepthwiseLanes;
    const int slot = static_cast<int>(threadIdx.x) / kDepthwiseLanes;
    const int c = static_cast<int>(blockIdx.x) * kDepthwiseLanes + lane;
    const bool active = c < s.channels; // spare lanes still meet the barriers below

    float sums[kDepthwisePartialsPerChannel]; // the taps, then the bias
#pragma unroll
    for (int t = 0; t < kDepthwisePartialsPerChannel; ++t)
        sums[t] = 0.0f;
    const std::int64_t rows = static_cast<std::int64_t>(s.batch) * s.height;
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.y) * kDepthwiseSlots;
    for (std::int64_t row = static_cast<std::int64_t>(blockIdx.y) * kDepthwiseSlots + slot;
         active && row < rows; row += stride) {
        const int h = static_cast<int>(row % s.height);
        const std::int64_t n = row / s.height;
        const float* gradient = outputGradient + nhwcOffset(s, n, h, 0) + c;
#pragma unroll
        for (int i = 0; i < K; ++i) {
            const int inputRow = h + i - kDepthwiseHalo;
            if (inputRow < 0 || inputRow >= s.height)
                continue;
            const float* line = input + nhwcOffset(s, n, inputRow, 0) + c;
            // window[j] = the input at column w + j - 3 of this row, for the output column w.
            float window[K];
#pragma unroll
            for (int j = 0; j < K; ++j) {
                const int column = j - kDepthwiseHalo;
                window[j] = column >= 0 && column < s.width
                    ? line[static_cast<std::int64_t>(column) * s.channels]
                    : 0.0f;
            }
            // Unrolled by 7, so that the window's shifts become a renaming of registers.
#pragma unroll 7
            for (int w = 0; w < s.width; ++w) {
                const float g = gradient[static_cast<std::int64_t>(w) * s.channels];
                if (i == kDepthwiseHalo) // the centre row is always inside: the bias once
                    sums[K * K] += g;
#pragma unroll
                for (int j = 0; j < K; ++j)
                    sums[i * K + j] = fmaf(g, window[j], sums[i * K + j]);
#pragma unroll
                for (int j = 0; j + 1 < K; ++j)
                    window[j] = window[j + 1];
                const int next = w + 1 + kDepthwiseHalo;
                window[K - 1]
                    = next < s.width ? line[static_cast<std::int64_t>(next) * s.channels] : 0.0f;
            }
        }
    }

    // The 8 slots' sums for each channel, added in slot order (the same every run).
    __shared__ float bySlot[kDepthwiseSlots][kDepthwiseLanes];
    float* out = partials
        + static_cast<std::int64_t>(blockIdx.y) * kDepthwisePartialsPerChannel * s.channels + c;
#pragma unroll
    for (int t = 0; t < kDepthwisePartialsPerChannel; ++t) {
        bySlot[slot][lane] = sums[t];
        __syncthreads();
        if (slot == 0 && active) {
            float total = 0.0f;
            for (int other = 0; other < kDepthwiseSlots; ++other)
                total += bySlot[other][lane];
            out[static_cast<std::int64_t>(t) * s.channels] = total;
        }
        __syncthreads();
    }
}

} // namespace

} // namespace gpuplan::bench::kernels

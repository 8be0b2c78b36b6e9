#pragma once

// ConvNeXt's depthwise 7x7 convolution (stride 1, "same" padding 3, one filter per channel) on
// fp32 activations stored channels-last (NHWC), as CUDA kernels behind plain pointers and a
// stream (no LibTorch here, so nvcc compiles it on its own; depthwise_conv_op.h is the LibTorch
// operation). Three functions of the one kernel pair:
//
//   forward:          out[n,h,w,c] = bias[c] + sum_{i,j} in[n, h+i-3, w+j-3, c] * weight[c, i, j]
//   input gradient:   the forward over the output's gradient with each filter turned by 180
//                     degrees and no bias (`rotated`), which is exact for stride 1 and padding
//                     (K-1)/2
//   weight gradient:  dweight[c,i,j] = sum_{n,h,w} dout[n,h,w,c] * in[n, h+i-3, w+j-3, c] and
//                     dbias[c] = sum dout[n,h,w,c], as fp32 partial sums per group of rows that
//                     the caller adds up (deterministic: no atomics)
//
// Positions outside the image read as zero. Arithmetic in fp32 (what the recipe trains in).
// Why our own: LibTorch hands channels-last depthwise convolutions to cuDNN, and fp32 ones in
// NCHW to its own kernel; neither is tuned for ConvNeXt's large 7x7 filters in fp32, and their
// weight gradient reduces over the whole batch (docs/benchmark.md, "Our CUDA kernels").

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpuplan::bench::kernels {

inline constexpr int kDepthwiseKernelSize = 7; // ConvNeXt's; the only size the kernels take
inline constexpr int kDepthwiseTaps = kDepthwiseKernelSize * kDepthwiseKernelSize;
// One partial sum per tap and one for the bias, per group of rows and channel.
inline constexpr int kDepthwisePartialsPerChannel = kDepthwiseTaps + 1;

struct DepthwiseShape {
    int batch = 0;
    int height = 0;
    int width = 0;
    int channels = 0;
};

// Throws std::invalid_argument for an empty shape, std::runtime_error (with file:line) when CUDA
// reports an error. input, output: [batch, height, width, channels] contiguous; taps: the
// weights tap-major, [49, channels] (tap i x 7 + j of every channel side by side, so that a
// warp's 32 channels read one line), contiguous; bias: [channels] or null. On the current GPU,
// its grid sized by depthwiseForwardGridRows.
void depthwiseConvolution(const DepthwiseShape& shape, const float* input, const float* taps,
    const float* bias, bool rotated, float* output, cudaStream_t stream);

// partials: [groups, 50, channels] fp32, each group's sums (the 49 taps tap-major, then the
// bias); their sum over the groups is the gradient.
void depthwiseWeightGradient(const DepthwiseShape& shape, const float* input,
    const float* outputGradient, int groups, float* partials, cudaStream_t stream);

enum class DepthwiseKernel { Forward, WeightGradient };

// How many blocks of `kernel` the current GPU runs at once: its multiprocessors times the blocks
// one holds (by the kernel's registers).
int depthwiseResidentBlocks(DepthwiseKernel kernel);

// Rows of blocks in the forward grid: about four waves of `residentBlocks`, so that each thread
// walks several strips and loads its weights once for all of them; never more than the work.
int depthwiseForwardGridRows(const DepthwiseShape& shape, int residentBlocks);

// How many groups of rows the weight gradient sums separately: as many blocks as the GPU holds
// at once (one full wave, rounded down: a nearly empty second wave would cost a third more),
// at least one, never more groups than rows of work.
int depthwiseWeightGradientGroups(const DepthwiseShape& shape, int residentBlocks);

} // namespace gpuplan::bench::kernels

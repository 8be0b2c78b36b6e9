// Launches the depthwise convolution kernels (depthwise_conv_kernels.cuh): checks the shape,
// sizes the grids, checks the launches.

#include "benchmark/kernels/cuda_check.h"
#include "benchmark/kernels/depthwise_conv.h"
#include "benchmark/kernels/depthwise_conv_kernels.cuh"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpuplan::bench::kernels {

namespace {

constexpr std::int64_t kMostGridRows = 65535; // CUDA's limit on gridDim.y

void checkShape(const DepthwiseShape& s)
{
    if (s.batch < 1 || s.height < 1 || s.width < 1 || s.channels < 1)
        throw std::invalid_argument("depthwise convolution: an empty shape ("
            + std::to_string(s.batch) + " x " + std::to_string(s.height) + " x "
            + std::to_string(s.width) + " x " + std::to_string(s.channels) + ")");
}

unsigned channelBlocks(const DepthwiseShape& s)
{
    return static_cast<unsigned>((s.channels + kDepthwiseLanes - 1) / kDepthwiseLanes);
}

} // namespace

void depthwiseConvolution(const DepthwiseShape& shape, const float* input, const float* taps,
    const float* bias, bool rotated, float* output, cudaStream_t stream)
{
    checkShape(shape);
    const int rows
        = depthwiseForwardGridRows(shape, depthwiseResidentBlocks(DepthwiseKernel::Forward));
    depthwiseForwardKernel<<<dim3(channelBlocks(shape), static_cast<unsigned>(rows)),
        kDepthwiseThreads, 0, stream>>>(shape, input, taps, bias, rotated, output);
    GPUPLAN_CUDA_CALL(cudaGetLastError());
}

int depthwiseResidentBlocks(DepthwiseKernel kernel)
{
    int device = 0, multiprocessors = 0, perMultiprocessor = 0;
    GPUPLAN_CUDA_CALL(cudaGetDevice(&device));
    GPUPLAN_CUDA_CALL(
        cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    if (kernel == DepthwiseKernel::Forward)
        GPUPLAN_CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &perMultiprocessor, depthwiseForwardKernel, kDepthwiseThreads, 0));
    else
        GPUPLAN_CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &perMultiprocessor, depthwiseWeightGradientKernel, kDepthwiseThreads, 0));
    return std::max(1, multiprocessors * perMultiprocessor);
}

int depthwiseForwardGridRows(const DepthwiseShape& shape, int residentBlocks)
{
    checkShape(shape);
    constexpr std::int64_t kWaves = 4;
    const std::int64_t wanted
        = (kWaves * std::max(1, residentBlocks) + channelBlocks(shape) - 1) / channelBlocks(shape);
    const std::int64_t work
        = static_cast<std::int64_t>(shape.batch) * shape.height * depthwiseStrips(shape);
    const std::int64_t most = (work + kDepthwiseSlots - 1) / kDepthwiseSlots;
    return static_cast<int>(std::clamp<std::int64_t>(wanted, 1, std::min(most, kMostGridRows)));
}

int depthwiseWeightGradientGroups(const DepthwiseShape& shape, int residentBlocks)
{
    checkShape(shape);
    const std::int64_t wanted = std::max(1, residentBlocks) / channelBlocks(shape);
    const std::int64_t rows = static_cast<std::int64_t>(shape.batch) * shape.height;
    const std::int64_t most = (rows + kDepthwiseSlots - 1) / kDepthwiseSlots;
    return static_cast<int>(std::clamp<std::int64_t>(wanted, 1, std::min(most, kMostGridRows)));
}

void depthwiseWeightGradient(const DepthwiseShape& shape, const float* input,
    const float* outputGradient, int groups, float* partials, cudaStream_t stream)
{
    checkShape(shape);
    if (groups < 1 || groups > kMostGridRows)
        throw std::invalid_argument(
            "depthwise convolution: " + std::to_string(groups) + " groups of rows");
    depthwiseWeightGradientKernel<<<dim3(channelBlocks(shape), static_cast<unsigned>(groups)),
        kDepthwiseThreads, 0, stream>>>(shape, input, outputGradient, partials);
    GPUPLAN_CUDA_CALL(cudaGetLastError());
}

} // namespace gpuplan::bench::kernels

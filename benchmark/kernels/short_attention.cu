// Launches the short-sequence attention kernels (short_attention_kernels.cuh): checks the shape,
// asks for the shared memory above 48 KiB, checks each launch.

#include "benchmark/kernels/cuda_check.h"
#include "benchmark/kernels/short_attention.h"
#include "benchmark/kernels/short_attention_kernels.cuh"

#include <stdexcept>
#include <string>

namespace gpuplan::bench::kernels {

namespace {

void checkShape(const ShortAttentionShape& s)
{
    if (s.batch < 1 || s.heads < 1 || s.positions < 1 || s.positions > kMostShortPositions)
        throw std::invalid_argument("short attention: " + std::to_string(s.batch) + " x "
            + std::to_string(s.heads) + " heads of " + std::to_string(s.positions)
            + " positions (wanted 1 to " + std::to_string(kMostShortPositions) + " positions)");
    if (static_cast<std::int64_t>(s.batch) * s.heads > kMostShortBatchHeads)
        throw std::invalid_argument("short attention: " + std::to_string(s.batch) + " x "
            + std::to_string(s.heads) + " heads exceed the " + std::to_string(kMostShortBatchHeads)
            + " a launch takes");
}

// The kernel's limit on dynamic shared memory raised to `bytes` (a per-kernel attribute, kept by
// the driver: set before each launch, as cheap as reading it).
template <typename Kernel> void allowShared(Kernel kernel, std::size_t bytes)
{
    GPUPLAN_CUDA_CALL(cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

} // namespace

std::size_t shortAttentionForwardSharedBytes(int positions)
{
    return forwardSharedFloats(positions) * sizeof(float);
}

std::size_t shortAttentionBackwardSharedBytes()
{
    return kBackwardSharedFloats * sizeof(float);
}

void shortAttentionForward(const ShortAttentionShape& shape, const HeadsView& q, const HeadsView& k,
    const HeadsView& v, float* out, float* lse, cudaStream_t stream)
{
    checkShape(shape);
    const std::size_t bytes = shortAttentionForwardSharedBytes(shape.positions);
    allowShared(shortAttentionForwardKernel, bytes);
    shortAttentionForwardKernel<<<attentionGrid(shape), kAttentionThreads, bytes, stream>>>(
        shape, q, k, v, out, lse);
    GPUPLAN_CUDA_CALL(cudaGetLastError());
}

void shortAttentionBackward(const ShortAttentionShape& shape, const HeadsView& q,
    const HeadsView& k, const HeadsView& v, const float* out, const float* lse,
    const HeadsView& dout, float* delta, float* dq, float* dk, float* dv, cudaStream_t stream)
{
    checkShape(shape);
    const std::size_t bytes = shortAttentionBackwardSharedBytes();
    allowShared(shortAttentionQueryGradientKernel, bytes);
    allowShared(shortAttentionKeyGradientKernel, bytes);
    // In this order on one stream: the key kernel reads the deltas the query kernel writes.
    shortAttentionQueryGradientKernel<<<attentionGrid(shape), kAttentionThreads, bytes, stream>>>(
        shape, q, k, v, out, lse, dout, delta, dq);
    GPUPLAN_CUDA_CALL(cudaGetLastError());
    shortAttentionKeyGradientKernel<<<attentionGrid(shape), kAttentionThreads, bytes, stream>>>(
        shape, q, k, v, lse, dout, delta, dk, dv);
    GPUPLAN_CUDA_CALL(cudaGetLastError());
}

} // namespace gpuplan::bench::kernels

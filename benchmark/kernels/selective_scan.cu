// Launches the selective scan's kernels (selective_scan_kernels.cuh): checks the problem, picks
// the instantiation for the inputs' type, checks the launch.

#include "benchmark/kernels/cuda_check.h"
#include "benchmark/kernels/selective_scan.h"
#include "benchmark/kernels/selective_scan_kernels.cuh"

#include <stdexcept>
#include <string>

namespace gpuplan::bench::kernels {

namespace {

constexpr int kMaxGridY = 65535; // CUDA's limit on gridDim.y (the batch)

void validate(const ScanProblem& p)
{
    if (p.batch < 1 || p.length < 1 || p.channels < 1 || p.states < 1)
        throw std::invalid_argument("selective scan: empty problem");
    if (p.states > kScanMaxStates)
        throw std::invalid_argument("selective scan: " + std::to_string(p.states)
            + " states; the kernel takes at most " + std::to_string(kScanMaxStates));
    if (p.batch > kMaxGridY)
        throw std::invalid_argument("selective scan: batch " + std::to_string(p.batch) + " exceeds "
            + std::to_string(kMaxGridY));
}

dim3 grid(const ScanProblem& p)
{
    return dim3(static_cast<unsigned>((p.channels + kChannelsPerBlock - 1) / kChannelsPerBlock),
        static_cast<unsigned>(p.batch));
}

template <typename T>
void forward(const ScanProblem& p, void* out, float* states, cudaStream_t stream)
{
    scanForward<T>
        <<<grid(p), kThreads, 0, stream>>>(p, static_cast<T*>(out), states, scanChunks(p.length));
    GPUPLAN_CUDA_CALL(cudaGetLastError());
}

template <typename T>
void backward(const ScanProblem& p, const ScanOperand& dout, const float* states,
    const ScanGradients& g, cudaStream_t stream)
{
    scanBackward<T><<<grid(p), kThreads, 0, stream>>>(p, dout, states, g, scanChunks(p.length));
    GPUPLAN_CUDA_CALL(cudaGetLastError());
}

} // namespace

int scanChunks(int length)
{
    return (length + kScanChunk - 1) / kScanChunk;
}

void selectiveScanForward(const ScanProblem& p, void* out, float* states, cudaStream_t stream)
{
    validate(p);
    switch (p.type) {
    case ScanType::Float32:
        return forward<float>(p, out, states, stream);
    case ScanType::Float16:
        return forward<__half>(p, out, states, stream);
    case ScanType::BFloat16:
        return forward<__nv_bfloat16>(p, out, states, stream);
    }
}

void selectiveScanBackward(const ScanProblem& p, const ScanOperand& dout, const float* states,
    const ScanGradients& grads, cudaStream_t stream)
{
    validate(p);
    switch (p.type) {
    case ScanType::Float32:
        return backward<float>(p, dout, states, grads, stream);
    case ScanType::Float16:
        return backward<__half>(p, dout, states, grads, stream);
    case ScanType::BFloat16:
        return backward<__nv_bfloat16>(p, dout, states, grads, stream);
    }
}

} // namespace gpuplan::bench::kernels

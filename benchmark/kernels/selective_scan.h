#pragma once

// Mamba's selective scan (Gu and Dao, 2023) as a CUDA kernel of our own, forward and backward,
// behind plain pointers and a stream: no LibTorch here, so nvcc compiles it on its own
// (selective_scan_op_cuda.cpp wraps it as a LibTorch autograd function). It computes
// selectiveScanReference's function (selective_scan_op.h):
//   h_t = exp(dt_t A) h_{t-1} + dt_t B_t u_t,  out_t = (C_t . h_t + D u_t) silu(z_t),
//   dt_t = softplus(delta_t + deltaBias),
// with the state h in fp32 whatever the inputs' type (fp32, fp16, bf16).
//
// Memory stays linear in the length: the forward stores the state only at the start of every
// kScanChunk positions; the backward walks the chunks from the last, replays each from its
// stored state and runs the adjoint recurrence back through it.

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpuplan::bench::kernels {

enum class ScanType { Float32, Float16, BFloat16 };

// Positions between two stored states: 64 keeps the stored states at 1/4 of the size of one
// fp32 [b, L, d] activation per block with 16 states, while the backward replays each chunk
// from registers.
inline constexpr int kScanChunk = 64;
// States per channel the kernel handles (one thread each). Mamba-1 models all use 16.
inline constexpr int kScanMaxStates = 16;

// A [batch, length, width] operand with unit stride along the width, so views into a wider
// tensor (z inside in_proj's output, B and C inside x_proj's) need no copy. Strides in elements.
struct ScanOperand {
    const void* data = nullptr;
    std::int64_t batchStride = 0;
    std::int64_t rowStride = 0; // between consecutive positions
};

struct ScanProblem {
    int batch = 0;
    int length = 0;
    int channels = 0; // d: Mamba's inner width
    int states = 0; // N, at most kScanMaxStates
    ScanType type = ScanType::Float32; // of u, delta, B, C, z, dout, out and du, ddelta, dz
    ScanOperand u; // [b, L, d]
    ScanOperand delta; // [b, L, d], before the bias
    ScanOperand B; // [b, L, N]
    ScanOperand C; // [b, L, N]
    ScanOperand z; // [b, L, d]
    const float* A = nullptr; // [d, N] contiguous
    const float* D = nullptr; // [d]
    const float* deltaBias = nullptr; // [d]
};

// States the forward stores per sequence: ceil(length / kScanChunk).
int scanChunks(int length);

// Writes out [b, L, d] (contiguous, the problem's type) and states [b, chunks, d, N] (fp32).
// Throws std::invalid_argument for sizes the kernel does not take, std::runtime_error (with
// file:line) when CUDA reports an error.
void selectiveScanForward(const ScanProblem& p, void* out, float* states, cudaStream_t stream);

struct ScanGradients {
    void* du = nullptr; // [b, L, d] contiguous, the problem's type
    void* ddelta = nullptr; // [b, L, d] (gradient of delta; deltaBias's is ddeltaBias)
    void* dz = nullptr; // [b, L, d]
    float* dB = nullptr; // [b, L, N] contiguous fp32, added to: zero it first
    float* dC = nullptr; // [b, L, N] likewise
    float* dA = nullptr; // [b, d, N]: one sum per sequence, to be summed over the batch
    float* dD = nullptr; // [b, d] likewise
    float* ddeltaBias = nullptr; // [b, d] likewise
};

// dout: the gradient of out, unit stride along d; states: as the forward wrote them.
void selectiveScanBackward(const ScanProblem& p, const ScanOperand& dout, const float* states,
    const ScanGradients& grads, cudaStream_t stream);

} // namespace gpuplan::bench::kernels

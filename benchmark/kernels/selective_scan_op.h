#pragma once

// Mamba's selective scan (Gu and Dao, 2023, Algorithm 2) as one differentiable LibTorch
// operation: the CUDA kernel of benchmark/kernels/selective_scan.cu where this build has it and
// the inputs are on a GPU, the LibTorch reference otherwise. LibTorch has no op for it; spelled
// out as tensor ops it is a loop over positions.

#include <torch/torch.h>

namespace gpuplan::bench {

// The scan's inputs in the layouts a Mamba block produces them: [batch, length, width] with the
// width contiguous (views into a wider tensor, such as z inside in_proj's output, are fine).
struct ScanInputs {
    torch::Tensor u; // [b, L, d] the sequence to scan (the convolution's output)
    torch::Tensor delta; // [b, L, d] dt_proj's output before its bias
    torch::Tensor A; // [d, N] the state matrix's diagonal, negative: -exp(A_log)
    torch::Tensor B; // [b, L, N] input-dependent input projection
    torch::Tensor C; // [b, L, N] input-dependent output projection
    torch::Tensor D; // [d] skip connection
    torch::Tensor z; // [b, L, d] gate
    torch::Tensor deltaBias; // [d] dt_proj's bias
};

// out_t = (C_t . h_t + D u_t) * silu(z_t), with h_t = exp(dt_t A) h_{t-1} + dt_t B_t u_t per
// channel, h_{-1} = 0 and dt_t = softplus(delta_t + deltaBias). The state is kept in fp32 (fp64
// for fp64 inputs); the result has u's dtype.
torch::Tensor selectiveScan(const ScanInputs& in);

// The same function in LibTorch tensor ops, differentiable through autograd, on any device:
// the CPU path, and what the CUDA kernel is checked against.
torch::Tensor selectiveScanReference(const ScanInputs& in);

// Whether this build has the CUDA kernel (a CUDA compiler was found and LibTorch has CUDA).
bool selectiveScanKernelCompiledIn();

} // namespace gpuplan::bench

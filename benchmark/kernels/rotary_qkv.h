#pragma once

// GPT-NeoX's attention input as one CUDA kernel each way, behind plain pointers and a stream (no
// LibTorch here, so nvcc compiles it on its own; rotary_qkv_op.h is the LibTorch operation).
//
// Forward: the fused query-key-value projection's output [batch, positions, heads, 3, headDim]
// (per head: query, key, value side by side, Hugging Face's layout) becomes query, key and value
// as contiguous [batch, heads, positions, headDim], the first rotaryDims of each query and key
// head rotated by the position's angles ("rotate half": with x1, x2 the two halves,
//   out1 = x1 cos - x2 sin,  out2 = x2 cos + x1 sin).
// Backward: the three gradients become the projection output's gradient, in one pass, the
// rotation undone (its transpose: dx1 = g1 cos + g2 sin, dx2 = g2 cos - g1 sin).
//
// Spelled out in LibTorch, the same takes, per query and key, a negation, a concatenation, two
// products, a sum and a second concatenation forward; backward, each of the three slices of the
// projection's output becomes a zero-filled full-size gradient, and the three are summed.
// Arithmetic in fp32 whatever the tensors' type; one rounding per output.

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpuplan::bench::kernels {

enum class RotaryType { Float32, Float16, BFloat16 };

struct RotaryShape {
    int batch = 0;
    int positions = 0;
    int heads = 0;
    int headDim = 0;
    int rotaryDims = 0; // even, at most headDim: GPT-NeoX's rotary_pct x headDim
    RotaryType type = RotaryType::Float32;
};

// A [batch, heads, positions, headDim] operand of the shape's type, with any strides (in
// elements): the attention's gradients come back in whatever layout its backward chose.
struct HeadsOperand {
    const void* data = nullptr;
    std::int64_t batchStride = 0, headStride = 0, positionStride = 0, dimStride = 0;
};

// cos and sin of each position's angles: [positions, rotaryDims] contiguous fp32, the second
// half of each row equal to the first (rotaryTables in models/attention.h).
struct RotaryAngles {
    const float* cos = nullptr;
    const float* sin = nullptr;
};

// Throws std::invalid_argument for a shape the kernels do not take, std::runtime_error (with
// file:line) when CUDA reports an error.
// qkv: contiguous [batch, positions, heads, 3, headDim]; query, key, value: contiguous
// [batch, heads, positions, headDim].
void rotaryQkvForward(const RotaryShape& shape, const void* qkv, const RotaryAngles& angles,
    void* query, void* key, void* value, cudaStream_t stream);

// dqkv: contiguous [batch, positions, heads, 3, headDim], every element written.
void rotaryQkvBackward(const RotaryShape& shape, const HeadsOperand& dquery,
    const HeadsOperand& dkey, const HeadsOperand& dvalue, const RotaryAngles& angles, void* dqkv,
    cudaStream_t stream);

} // namespace gpuplan::bench::kernels

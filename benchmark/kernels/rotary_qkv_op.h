#pragma once

// GPT-NeoX's query, key and value out of its fused projection, rotary embedding applied, as one
// differentiable LibTorch operation (the free lunch): the CUDA kernels of
// benchmark/kernels/rotary_qkv.cu where this build has them and the tensor is on a GPU, LibTorch
// ops writing into one gradient tensor otherwise. Either way one autograd node, where the
// composition of views and ops (the reference) makes seven, and sums three full-size gradients.

#include "benchmark/models/attention.h"

#include <torch/torch.h>

namespace gpuplan::bench {

struct QueryKeyValue {
    torch::Tensor query, key, value; // [batch, heads, positions, headDim]
    std::vector<torch::Tensor> list() const { return { query, key, value }; }
};

// qkv: the projection's output [batch, positions, heads x 3 x headDim], per head query, key and
// value side by side (Hugging Face's GPT-NeoX layout). query and key come back contiguous with
// their first tables.cos.size(-1) dimensions rotated (applyRotary's function), value contiguous.
QueryKeyValue rotaryQkv(const torch::Tensor& qkv, int heads, const RotaryTables& tables);

// The same function as views and applyRotary through autograd, in the input's precision: the
// naive baseline's path, and what rotaryQkv is checked against.
QueryKeyValue rotaryQkvReference(const torch::Tensor& qkv, int heads, const RotaryTables& tables);

// Whether this build has the CUDA kernels (a CUDA compiler was found and LibTorch has CUDA).
bool rotaryQkvKernelCompiledIn();

// The largest error, relative to the fp64 reference's largest magnitude, the kernels are held
// to: each output is one fp32 expression rounded once to the stored type, so two unit
// roundoffs of it (fp16 2^-11, bf16 2^-8), at least 1e-6 for fp32's own rounding.
inline double rotaryKernelTolerance(at::ScalarType type)
{
    return type == torch::kFloat ? 1e-6 : type == torch::kHalf ? 2.0 / 2048 : 2.0 / 256;
}

} // namespace gpuplan::bench

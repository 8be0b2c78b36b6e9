#pragma once

// The rotary query-key-value operation's way into the CUDA kernels (rotary_qkv.h): defined by
// rotary_qkv_op_cuda.cpp where this build has them, by rotary_qkv_op_cpu_only.cpp elsewhere.
// Used by rotary_qkv_op.cpp only.

#include "benchmark/kernels/rotary_qkv_op.h"

namespace gpuplan::bench::detail {

// Whether the kernels take this projection output and these tables: a non-empty fp32, fp16 or
// bf16 tensor on a GPU, contiguous fp32 tables on the same GPU.
bool rotaryKernelTakes(const torch::Tensor& qkv, const RotaryTables& tables);

// qkv5: contiguous [batch, positions, heads, 3, headDim]; out: contiguous, allocated.
void rotaryKernelForward(const torch::Tensor& qkv5, const RotaryTables& tables, QueryKeyValue& out);

// grads: [batch, heads, positions, headDim] of qkv5's type, any strides; dqkv5 as qkv5.
void rotaryKernelBackward(
    const QueryKeyValue& grads, const RotaryTables& tables, torch::Tensor& dqkv5);

} // namespace gpuplan::bench::detail

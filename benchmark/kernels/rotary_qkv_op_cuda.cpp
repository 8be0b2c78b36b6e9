// A build with the rotary CUDA kernels (rotary_qkv.h) and a LibTorch with CUDA: tensors handed
// to the kernels as pointers, strides and the current stream.

#include "benchmark/kernels/rotary_qkv.h"
#include "benchmark/kernels/rotary_qkv_launch.h"

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

namespace gpuplan::bench {

bool rotaryQkvKernelCompiledIn()
{
    return true;
}

namespace detail {

namespace {

kernels::RotaryShape shapeOf(const torch::Tensor& qkv5, const RotaryTables& tables)
{
    kernels::RotaryShape s;
    s.batch = static_cast<int>(qkv5.size(0));
    s.positions = static_cast<int>(qkv5.size(1));
    s.heads = static_cast<int>(qkv5.size(2));
    s.headDim = static_cast<int>(qkv5.size(4));
    s.rotaryDims = static_cast<int>(tables.cos.size(-1));
    s.type = qkv5.scalar_type() == torch::kHalf  ? kernels::RotaryType::Float16
        : qkv5.scalar_type() == torch::kBFloat16 ? kernels::RotaryType::BFloat16
                                                 : kernels::RotaryType::Float32;
    return s;
}

kernels::RotaryAngles anglesOf(const RotaryTables& tables)
{
    return { tables.cos.data_ptr<float>(), tables.sin.data_ptr<float>() };
}

kernels::HeadsOperand operand(const torch::Tensor& t)
{
    return { t.data_ptr(), t.stride(0), t.stride(1), t.stride(2), t.stride(3) };
}

} // namespace

bool rotaryKernelTakes(const torch::Tensor& qkv, const RotaryTables& tables)
{
    const auto type = qkv.scalar_type();
    const auto usable = [&](const torch::Tensor& table) {
        return table.device() == qkv.device() && table.scalar_type() == torch::kFloat
            && table.is_contiguous();
    };
    return qkv.is_cuda() && qkv.numel() > 0
        && (type == torch::kFloat || type == torch::kHalf || type == torch::kBFloat16)
        && usable(tables.cos) && usable(tables.sin);
}

void rotaryKernelForward(const torch::Tensor& qkv5, const RotaryTables& tables, QueryKeyValue& out)
{
    const c10::cuda::CUDAGuard guard(qkv5.device());
    kernels::rotaryQkvForward(shapeOf(qkv5, tables), qkv5.data_ptr(), anglesOf(tables),
        out.query.data_ptr(), out.key.data_ptr(), out.value.data_ptr(),
        at::cuda::getCurrentCUDAStream());
}

void rotaryKernelBackward(
    const QueryKeyValue& grads, const RotaryTables& tables, torch::Tensor& dqkv5)
{
    const c10::cuda::CUDAGuard guard(dqkv5.device());
    kernels::rotaryQkvBackward(shapeOf(dqkv5, tables), operand(grads.query), operand(grads.key),
        operand(grads.value), anglesOf(tables), dqkv5.data_ptr(), at::cuda::getCurrentCUDAStream());
}

} // namespace detail

} // namespace gpuplan::bench

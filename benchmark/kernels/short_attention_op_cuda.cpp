// A build with the short-sequence attention CUDA kernels (short_attention.h) and a LibTorch with
// CUDA: tensors handed to the kernels as pointers and the current stream.

#include "benchmark/kernels/short_attention.h"
#include "benchmark/kernels/short_attention_launch.h"
#include "benchmark/kernels/short_attention_op.h"

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

namespace gpuplan::bench {

bool shortAttentionKernelCompiledIn()
{
    return true;
}

namespace detail {

namespace {

kernels::HeadsView viewOf(const torch::Tensor& t)
{
    return { t.data_ptr<float>(), t.stride(0), t.stride(1), t.stride(2) };
}

kernels::ShortAttentionShape shapeOf(const torch::Tensor& q)
{
    return { static_cast<int>(q.size(0)), static_cast<int>(q.size(1)),
        static_cast<int>(q.size(2)) };
}

} // namespace

bool shortAttentionKernelTakes(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v)
{
    const auto fits = [&](const torch::Tensor& t) {
        return t.is_cuda() && t.device() == q.device() && t.scalar_type() == torch::kFloat
            && t.dim() == 4 && t.sizes() == q.sizes() && t.stride(3) == 1;
    };
    if (!fits(q) || !fits(k) || !fits(v) || q.size(3) != kernels::kShortHeadSize || q.size(2) < 1
        || q.size(2) > kernels::kMostShortPositions || q.size(0) < 1 || q.size(1) < 1
        || q.size(0) * q.size(1) > kernels::kMostShortBatchHeads)
        return false;
    const auto* properties = at::cuda::getDeviceProperties(q.device().index());
    return properties->major >= 8
        && properties->sharedMemPerBlockOptin
        >= kernels::shortAttentionForwardSharedBytes(static_cast<int>(q.size(2)));
}

ShortAttentionOutput shortAttentionKernelForward(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v)
{
    const c10::cuda::CUDAGuard guard(q.device());
    ShortAttentionOutput result;
    result.out = torch::empty(q.sizes(), q.options().memory_format(at::MemoryFormat::Contiguous));
    result.lse = torch::empty({ q.size(0), q.size(1), q.size(2) }, q.options());
    kernels::shortAttentionForward(shapeOf(q), viewOf(q), viewOf(k), viewOf(v),
        result.out.data_ptr<float>(), result.lse.data_ptr<float>(),
        at::cuda::getCurrentCUDAStream());
    return result;
}

std::vector<torch::Tensor> shortAttentionKernelBackward(const torch::Tensor& q,
    const torch::Tensor& k, const torch::Tensor& v, const ShortAttentionOutput& forward,
    const torch::Tensor& dout)
{
    const c10::cuda::CUDAGuard guard(q.device());
    const auto gradient = dout.stride(3) == 1 ? dout : dout.contiguous();
    auto delta = torch::empty_like(forward.lse);
    auto dq = torch::empty_like(forward.out), dk = torch::empty_like(forward.out),
         dv = torch::empty_like(forward.out);
    kernels::shortAttentionBackward(shapeOf(q), viewOf(q), viewOf(k), viewOf(v),
        forward.out.data_ptr<float>(), forward.lse.data_ptr<float>(), viewOf(gradient),
        delta.data_ptr<float>(), dq.data_ptr<float>(), dk.data_ptr<float>(), dv.data_ptr<float>(),
        at::cuda::getCurrentCUDAStream());
    return { dq, dk, dv };
}

} // namespace detail

} // namespace gpuplan::bench

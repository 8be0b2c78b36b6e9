// A build with the softmax-cross-entropy CUDA kernel (softmax_xent.h) and a LibTorch with CUDA:
// tensors handed to the kernel as pointers and the current stream.

#include "benchmark/kernels/softmax_xent.h"
#include "benchmark/kernels/softmax_xent_launch.h"
#include "benchmark/kernels/softmax_xent_op.h"

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#include <limits>

namespace gpuplan::bench {

bool softmaxXentKernelCompiledIn()
{
    return true;
}

namespace detail {

bool softmaxXentKernelTakes(const torch::Tensor& logits, const torch::Tensor& targets)
{
    const auto type = logits.scalar_type();
    constexpr auto kMostInt = std::numeric_limits<int>::max();
    return logits.is_cuda() && logits.dim() == 2 && logits.numel() > 0 && logits.is_contiguous()
        && (type == torch::kFloat || type == torch::kHalf || type == torch::kBFloat16)
        && logits.size(0) <= kMostInt && logits.size(1) <= kernels::kMostLogitVocabulary
        && targets.device() == logits.device() && targets.scalar_type() == torch::kLong
        && targets.dim() == 1 && targets.size(0) == logits.size(0) && targets.is_contiguous();
}

torch::Tensor softmaxXentKernel(torch::Tensor& logits, const torch::Tensor& targets)
{
    const c10::cuda::CUDAGuard guard(logits.device());
    auto picked = torch::empty({ logits.size(0) }, logits.options().dtype(torch::kFloat));
    kernels::LogitRows shape;
    shape.rows = static_cast<int>(logits.size(0));
    shape.vocabulary = static_cast<int>(logits.size(1));
    shape.type = logits.scalar_type() == torch::kHalf ? kernels::LogitType::Float16
        : logits.scalar_type() == torch::kBFloat16    ? kernels::LogitType::BFloat16
                                                      : kernels::LogitType::Float32;
    kernels::softmaxCrossEntropyGradient(shape, logits.data_ptr(), targets.data_ptr<std::int64_t>(),
        picked.data_ptr<float>(), at::cuda::getCurrentCUDAStream());
    return picked;
}

} // namespace detail

} // namespace gpuplan::bench

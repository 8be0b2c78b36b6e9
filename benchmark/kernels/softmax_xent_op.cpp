#include "benchmark/kernels/softmax_xent_op.h"

#include "benchmark/kernels/softmax_xent_launch.h"

namespace gpuplan::bench {

torch::Tensor softmaxCrossEntropyGradient(torch::Tensor& logits, const torch::Tensor& targets)
{
    if (detail::softmaxXentKernelTakes(logits, targets))
        return detail::softmaxXentKernel(logits, targets);
    return softmaxCrossEntropyGradientReference(logits, targets);
}

torch::Tensor softmaxCrossEntropyGradientReference(
    torch::Tensor& logits, const torch::Tensor& targets)
{
    const auto index = targets.unsqueeze(1);
    // fp32 log-probabilities from the low-precision logits (one kernel for fp16 on CUDA; bf16
    // and the CPU go through an fp32 copy of the chunk); fp64 ones from fp64 logits, the form
    // the kernel's tests and benchmark compare with.
    const auto logProbs = torch::log_softmax(
        logits, 1, logits.scalar_type() == torch::kDouble ? torch::kDouble : torch::kFloat);
    const auto picked = logProbs.gather(1, index).squeeze(1);
    // softmax - one-hot, written over the spent logits in their precision; the target's entry
    // from expm1 in fp32, exact also near 1.
    at::exp_out(logits, logProbs);
    logits.scatter_(1, index, torch::expm1(picked).unsqueeze(1).to(logits.scalar_type()));
    return picked;
}

} // namespace gpuplan::bench

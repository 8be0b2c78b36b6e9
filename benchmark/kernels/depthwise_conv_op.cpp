#include "benchmark/kernels/depthwise_conv_op.h"

#include "benchmark/kernels/depthwise_conv_launch.h"
#include "benchmark/timed_choice.h"
#include "benchmark/torch_compat.h"

namespace gpuplan::bench {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

constexpr std::int64_t kKernelSize = 7;
constexpr std::int64_t kHalo = kKernelSize / 2;
constexpr std::int64_t kTaps = kKernelSize * kKernelSize;
// How far our kernels' output and gradients may stray from LibTorch's, relative to the largest
// value, before they are not run (TimedChoice::Check): gross errors only, since cuDNN may take
// TF32 where it is allowed while our kernels compute fp32 (they measured 1e-7 to 6e-7 of fp64).
constexpr double kMostDisagreement = 1e-2;

// The forward, or with `rotated` the input gradient from the output's gradient (each filter
// turned by 180 degrees: exact for stride 1 and padding 3).
torch::Tensor convolve(const torch::Tensor& input, const torch::Tensor& weight,
    const torch::Tensor& bias, bool rotated)
{
    if (detail::depthwiseKernelTakes(input, weight, bias))
        return detail::depthwiseKernelForward(input, weight, bias, rotated);
    return torch::conv2d(
        input, rotated ? weight.flip({ 2, 3 }) : weight, bias, 1, kHalo, 1, input.size(1));
}

// [50, channels]: each tap's gradient (tap i x 7 + j), then the bias's. Without the kernel, tap (i,
// j) is the output's gradient times the input shifted by (i - 3, j - 3), summed over batch and
// image: written from the definition, not through LibTorch's convolution backward, so that the
// tests compare two derivations.
torch::Tensor weightGradient(
    const torch::Tensor& input, const torch::Tensor& outputGradient, const torch::Tensor& weight)
{
    if (detail::depthwiseKernelTakes(input, weight, {}))
        return detail::depthwiseKernelWeightGradient(input, outputGradient);
    const auto height = input.size(2), width = input.size(3);
    const auto padded = torch::constant_pad_nd(input, { kHalo, kHalo, kHalo, kHalo });
    std::vector<torch::Tensor> sums;
    for (std::int64_t i = 0; i < kKernelSize; ++i)
        for (std::int64_t j = 0; j < kKernelSize; ++j)
            sums.push_back((outputGradient * padded.narrow(2, i, height).narrow(3, j, width))
                               .sum({ 0, 2, 3 }));
    sums.push_back(outputGradient.sum({ 0, 2, 3 }));
    return torch::stack(sums, 0);
}

struct DepthwiseFunction : public torch::autograd::Function<DepthwiseFunction> {
    static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& input,
        const torch::Tensor& weight, const torch::Tensor& bias)
    {
        TORCH_CHECK(input.dim() == 4 && weight.dim() == 4 && weight.size(0) == input.size(1)
                && weight.size(1) == 1 && weight.size(2) == kKernelSize
                && weight.size(3) == kKernelSize && bias.dim() == 1
                && bias.size(0) == input.size(1),
            "depthwise convolution: input ", input.sizes(), ", weight ", weight.sizes(), ", bias ",
            bias.sizes(), " (wanted [n, c, h, w], [c, 1, 7, 7], [c])");
        ctx->save_for_backward({ input, weight });
        return convolve(input, weight, bias, /*rotated=*/false);
    }

    static variable_list backward(AutogradContext* ctx, variable_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const auto& input = saved[0];
        const auto& weight = saved[1];
        const auto gradient = grads[0].contiguous(input.suggest_memory_format());
        torch::Tensor inputGradient, weightGrad, biasGrad;
        if (ctx->needs_input_grad(0))
            inputGradient = convolve(gradient, weight, {}, /*rotated=*/true);
        if (ctx->needs_input_grad(1) || ctx->needs_input_grad(2)) {
            const auto sums = weightGradient(input, gradient, weight);
            weightGrad
                = sums.narrow(0, 0, kTaps).t().reshape(weight.sizes()).to(weight.scalar_type());
            if (ctx->needs_input_grad(2))
                biasGrad = sums.select(0, kTaps).to(weight.scalar_type());
        }
        return { inputGradient, weightGrad, biasGrad };
    }
};

// Whether our kernels run for inputs like these: timed against LibTorch's convolution (cuDNN,
// whose autotuner and TF32 settings are part of the case) the first time the shape is met.
bool kernelsChosen(
    const torch::Tensor& input, const torch::Tensor& weight, const torch::Tensor& bias)
{
    static TimedChoice choice(cudaEventTimer());
    const auto& context = at::globalContext();
    ChoiceCase c;
    const std::string sizes = sizesText(input.sizes());
    c.key = sizes + "|" + input.device().str() + "|bias=" + std::to_string(bias.defined())
        + "|cudnn-benchmark=" + std::to_string(context.benchmarkCuDNN())
        + "|tf32=" + std::to_string(context.allowTF32CuDNN());
    c.label = "depthwise convolution " + sizes;
    c.microBatch = static_cast<int>(input.size(0));
    c.device = input.device();
    const ChoicePaths paths { "LibTorch's convolution", "LibTorch's", "our kernels", "ours" };
    const PathForward libTorchs = [](const std::vector<torch::Tensor>& in) {
        return depthwiseConvolutionReference(in[0], in[1], in[2]);
    };
    const PathForward ours = [](const std::vector<torch::Tensor>& in) {
        return depthwiseConvolutionNode(in[0], in[1], in[2]);
    };
    const auto prepare = [&](bool kernels) {
        return forwardBackwardOnCopies({ input, weight, bias }, kernels ? ours : libTorchs);
    };
    const auto check = [&] {
        return disagreementOnCopies({ input, weight, bias }, libTorchs, ours, kMostDisagreement);
    };
    return choice.useAlternative(c, paths, "", prepare, check);
}

} // namespace

torch::Tensor depthwiseConvolution(
    const torch::Tensor& input, const torch::Tensor& weight, const torch::Tensor& bias)
{
    // Under autocast LibTorch's convolution runs in the low precision; the kernels are fp32.
    if (!compat::autocastState(input.device().type()).enabled
        && detail::depthwiseKernelTakes(input, weight, bias) && kernelsChosen(input, weight, bias))
        return depthwiseConvolutionNode(input, weight, bias);
    return depthwiseConvolutionReference(input, weight, bias);
}

torch::Tensor depthwiseConvolutionReference(
    const torch::Tensor& input, const torch::Tensor& weight, const torch::Tensor& bias)
{
    return torch::conv2d(input, weight, bias, 1, kHalo, 1, input.size(1));
}

torch::Tensor depthwiseConvolutionNode(
    const torch::Tensor& input, const torch::Tensor& weight, const torch::Tensor& bias)
{
    // LibTorch 1.13's Function::apply takes no undefined tensor: no bias is a zero one (added
    // in the same pass, so free), whose gradient nobody asks for.
    return DepthwiseFunction::apply(
        input, weight, bias.defined() ? bias : torch::zeros({ input.size(1) }, weight.options()));
}

} // namespace gpuplan::bench

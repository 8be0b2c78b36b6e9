#include "benchmark/models/lm_loss.h"

#include "benchmark/kernels/softmax_xent_op.h"
#include "benchmark/models/attention.h"
#include "benchmark/torch_compat.h"

#include <algorithm>

namespace gpuplan::bench {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

constexpr std::int64_t kIgnoreIndex = -100;

// The loss is the last operation of a step, so its incoming gradient is one scalar: each chunk's
// gradient is computed in the forward pass, while its logits exist, and the backward pass only
// scales the two results. Until 2026-11-26 the backward pass recomputed the logits: a third more
// of the head's products and several more fp32 passes over every logit. On the H100 Pythia-160M's
// forward+backward then took 0.302 s against 0.264 s with the unchunked head of 2026-11-23; other
// changes came in between, so how much of that was the recompute is not yet measured.
struct ChunkedLmLossFunction : public torch::autograd::Function<ChunkedLmLossFunction> {
    // hidden [n, h], weight [v, h], targets [n]; returns the mean loss over scored positions.
    // With `withGradients` false (no backward will follow) only the loss is computed.
    static torch::Tensor forward(AutogradContext* ctx, torch::Tensor hidden, torch::Tensor weight,
        torch::Tensor targets, std::int64_t chunk, bool withGradients)
    {
        const std::int64_t n = hidden.size(0);
        const auto valid = targets.ne(kIgnoreIndex);
        const auto count = valid.sum().to(torch::kFloat);
        auto sum = torch::zeros({}, hidden.options().dtype(torch::kFloat));
        torch::Tensor gradHidden, gradWeight;
        if (withGradients) {
            gradHidden = torch::empty_like(hidden);
            gradWeight = torch::zeros(weight.sizes(), weight.options().dtype(torch::kFloat));
        }
        for (std::int64_t start = 0; start < n; start += chunk) {
            const std::int64_t length = std::min(chunk, n - start);
            const auto h = hidden.narrow(0, start, length);
            const auto index = targets.narrow(0, start, length).clamp_min(0).unsqueeze(1);
            const auto scored = valid.narrow(0, start, length);
            auto logits = torch::matmul(h, weight.t());
            torch::Tensor picked;
            if (withGradients) // the logits become d loss / d logits (softmax_xent_op.h)
                picked = softmaxCrossEntropyGradient(logits, index.squeeze(1));
            else
                picked = torch::log_softmax(logits, 1, torch::kFloat).gather(1, index).squeeze(1);
            sum -= torch::where(scored, picked, torch::zeros_like(picked)).sum();
            if (!withGradients)
                continue;
            // softmax - one-hot on scored positions: the 1/count and the incoming gradient come
            // in the backward pass.
            const auto scoredRows = scored.unsqueeze(1).to(h.scalar_type());
            gradHidden.narrow(0, start, length)
                .copy_(torch::matmul(logits, weight))
                .mul_(scoredRows);
            gradWeight.add_(torch::matmul(logits.t(), h * scoredRows));
        }
        ctx->save_for_backward({ gradHidden, gradWeight, count });
        ctx->saved_data["weight_dtype"] = weight.scalar_type();
        return sum / count;
    }

    static variable_list backward(AutogradContext* ctx, variable_list gradOutputs)
    {
        const auto saved = ctx->get_saved_variables();
        const auto &gradHidden = saved[0], &gradWeight = saved[1], &count = saved[2];
        TORCH_CHECK(gradHidden.defined(),
            "chunkedLmLoss: backward of a loss computed without gradients (no grad mode)");
        const auto scale = gradOutputs[0].to(torch::kFloat) / count;
        // Scaled in fp32: loss scale over count can exceed fp16's range.
        return { (gradHidden.to(torch::kFloat) * scale).to(gradHidden.scalar_type()),
            (gradWeight * scale).to(ctx->saved_data["weight_dtype"].toScalarType()),
            torch::Tensor(), torch::Tensor(), torch::Tensor() };
    }
};

} // namespace

torch::Tensor chunkedLmLoss(const torch::Tensor& hidden, const torch::Tensor& weight,
    const torch::Tensor& targets, std::int64_t chunkPositions)
{
    const std::int64_t vocabulary = weight.size(0);
    const std::int64_t chunk = chunkPositions > 0
        ? chunkPositions
        : std::max<std::int64_t>(1, kLogitChunkElements / std::max<std::int64_t>(vocabulary, 1));
    const auto flat = hidden.reshape({ -1, hidden.size(-1) });
    const auto castWeight = compat::castWeight(weight, flat.scalar_type());
    const bool withGradients
        = torch::GradMode::is_enabled() && (flat.requires_grad() || castWeight.requires_grad());
    return ChunkedLmLossFunction::apply(
        flat, castWeight, targets.reshape({ -1 }), chunk, withGradients);
}

Batch nextTokenBatch(
    std::int64_t vocabSize, int microBatch, int sampleTokens, const torch::Device& device)
{
    auto tokens = torch::randint(vocabSize, { microBatch, sampleTokens },
        torch::TensorOptions().dtype(torch::kLong).device(device));
    const auto positions = sampleTokens - 1;
    return { tokens.narrow(1, 0, positions).contiguous(),
        tokens.narrow(1, 1, positions).contiguous() };
}

torch::Tensor lmHeadLoss(const torch::Tensor& hidden, const torch::Tensor& weight,
    const torch::Tensor& targets, bool chunked)
{
    if (!chunked)
        return crossEntropy(torch::linear(hidden, weight), targets);
    return chunkedLmLoss(
        hidden.to(computeDtype(hidden.device(), hidden.scalar_type())), weight, targets);
}

at::ScalarType computeDtype(const torch::Device& device, at::ScalarType otherwise)
{
    const compat::AutocastState state = compat::autocastState(device.type());
    return state.enabled ? state.dtype : otherwise;
}

} // namespace gpuplan::bench

#include "benchmark/models/lm_loss.h"

#include "benchmark/models/attention.h"
#include "benchmark/torch_compat.h"

#include <algorithm>

namespace gpuplan::bench {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

constexpr std::int64_t kIgnoreIndex = -100;

struct ChunkedLmLossFunction : public torch::autograd::Function<ChunkedLmLossFunction> {
    // hidden [n, h], weight [v, h], targets [n]; returns the mean loss over scored positions.
    static torch::Tensor forward(AutogradContext* ctx, torch::Tensor hidden, torch::Tensor weight,
        torch::Tensor targets, std::int64_t chunk)
    {
        const std::int64_t n = hidden.size(0);
        const auto f32 = hidden.options().dtype(torch::kFloat);
        auto logSumExp = torch::empty({ n }, f32);
        auto sum = torch::zeros({}, f32);
        for (std::int64_t start = 0; start < n; start += chunk) {
            const std::int64_t length = std::min(chunk, n - start);
            const auto t = targets.narrow(0, start, length);
            const auto logits
                = torch::matmul(hidden.narrow(0, start, length), weight.t()).to(torch::kFloat);
            const auto lse = torch::logsumexp(logits, -1);
            logSumExp.narrow(0, start, length).copy_(lse);
            const auto valid = t.ne(kIgnoreIndex);
            const auto picked = logits.gather(1, t.clamp_min(0).unsqueeze(1)).squeeze(1);
            sum += torch::where(valid, lse - picked, torch::zeros_like(lse)).sum();
        }
        const auto count = targets.ne(kIgnoreIndex).sum().to(torch::kFloat);
        ctx->save_for_backward({ hidden, weight, targets, logSumExp, count });
        ctx->saved_data["chunk"] = chunk;
        return sum / count;
    }

    static variable_list backward(AutogradContext* ctx, variable_list gradOutputs)
    {
        const auto saved = ctx->get_saved_variables();
        const auto &hidden = saved[0], &weight = saved[1], &targets = saved[2],
                   &logSumExp = saved[3], &count = saved[4];
        const std::int64_t chunk = ctx->saved_data["chunk"].toInt();
        const std::int64_t n = hidden.size(0);
        const auto scale = gradOutputs[0].to(torch::kFloat) / count;
        auto gradHidden = torch::empty_like(hidden);
        auto gradWeight = torch::zeros(weight.sizes(), weight.options().dtype(torch::kFloat));
        for (std::int64_t start = 0; start < n; start += chunk) {
            const std::int64_t length = std::min(chunk, n - start);
            const auto h = hidden.narrow(0, start, length);
            const auto t = targets.narrow(0, start, length);
            // d loss / d logits = (softmax - one-hot) x scale, on scored positions only.
            auto g = (torch::matmul(h, weight.t()).to(torch::kFloat)
                - logSumExp.narrow(0, start, length).unsqueeze(1))
                         .exp_();
            g.scatter_add_(
                1, t.clamp_min(0).unsqueeze(1), -torch::ones({ length, 1 }, g.options()));
            g.mul_(t.ne(kIgnoreIndex).unsqueeze(1).to(torch::kFloat) * scale);
            const auto gc = g.to(hidden.scalar_type());
            gradHidden.narrow(0, start, length).copy_(torch::matmul(gc, weight));
            gradWeight += torch::matmul(gc.t(), h).to(torch::kFloat);
        }
        return { gradHidden, gradWeight.to(weight.scalar_type()), torch::Tensor(),
            torch::Tensor() };
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
    return ChunkedLmLossFunction::apply(
        flat, compat::castWeight(weight, flat.scalar_type()), targets.reshape({ -1 }), chunk);
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

#include "benchmark/kernels/short_attention_op.h"

#include "benchmark/kernels/short_attention_launch.h"
#include "benchmark/torch_compat.h"

#include <cmath>

namespace gpuplan::bench {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

double scaleOf(const torch::Tensor& q)
{
    return 1.0 / std::sqrt(static_cast<double>(q.size(-1)));
}

// The scores (s q) k^T, as the kernels form them: the scale on the queries.
torch::Tensor scoresOf(const torch::Tensor& q, const torch::Tensor& k)
{
    return torch::matmul(q * scaleOf(q), k.transpose(-2, -1));
}

detail::ShortAttentionOutput forwardOps(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v)
{
    const auto scores = scoresOf(q, k);
    auto lse = torch::logsumexp(scores, -1);
    return { torch::matmul(torch::exp(scores - lse.unsqueeze(-1)), v), lse };
}

// The backward of short_attention.h's formulas, the probabilities recomputed from the
// log-sum-exp.
std::vector<torch::Tensor> backwardOps(const torch::Tensor& q, const torch::Tensor& k,
    const torch::Tensor& v, const detail::ShortAttentionOutput& forward, const torch::Tensor& dout)
{
    const auto delta = (dout * forward.out).sum(-1, /*keepdim=*/true);
    const auto p = torch::exp(scoresOf(q, k) - forward.lse.unsqueeze(-1));
    const auto dv = torch::matmul(p.transpose(-2, -1), dout);
    const auto ds = p * (torch::matmul(dout, v.transpose(-2, -1)) - delta);
    const double scale = scaleOf(q);
    return { torch::matmul(ds, k) * scale, torch::matmul(ds.transpose(-2, -1), q * scale), dv };
}

// The kernels' products are TF32: they run only where TF32 products are allowed, so that the
// node never computes in a lower precision than the setting asks.
bool kernelsRun(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v)
{
    return at::globalContext().allowTF32CuBLAS() && detail::shortAttentionKernelTakes(q, k, v);
}

struct ShortAttentionFunction : public torch::autograd::Function<ShortAttentionFunction> {
    static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& q,
        const torch::Tensor& k, const torch::Tensor& v)
    {
        TORCH_CHECK(q.dim() == 4 && k.sizes() == q.sizes() && v.sizes() == q.sizes(),
            "short attention: q ", q.sizes(), ", k ", k.sizes(), ", v ", v.sizes(),
            " (wanted three [batch, heads, positions, head size] of one shape)");
        const bool kernels = kernelsRun(q, k, v);
        const auto result
            = kernels ? detail::shortAttentionKernelForward(q, k, v) : forwardOps(q, k, v);
        ctx->saved_data["kernels"] = kernels;
        ctx->save_for_backward({ q, k, v, result.out, result.lse });
        return result.out;
    }

    static variable_list backward(AutogradContext* ctx, variable_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const detail::ShortAttentionOutput forward { saved[3], saved[4] };
        return ctx->saved_data["kernels"].toBool()
            ? detail::shortAttentionKernelBackward(saved[0], saved[1], saved[2], forward, grads[0])
            : backwardOps(saved[0], saved[1], saved[2], forward, grads[0]);
    }
};

} // namespace

torch::Tensor shortAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v)
{
    return ShortAttentionFunction::apply(q, k, v);
}

bool shortAttentionOffered(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal)
{
    return !causal && !compat::autocastState(q.device().type()).enabled && kernelsRun(q, k, v);
}

} // namespace gpuplan::bench

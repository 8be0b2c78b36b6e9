#include "benchmark/kernels/rotary_qkv_launch.h"

namespace gpuplan::bench {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// [batch, positions, heads, 3, headDim]: the projection's output with its parts apart.
torch::Tensor byParts(const torch::Tensor& qkv, std::int64_t heads)
{
    return qkv.view({ qkv.size(0), qkv.size(1), heads, 3, -1 });
}

// Part i (query 0, key 1, value 2) of byParts' view as [batch, heads, positions, headDim].
torch::Tensor part(const torch::Tensor& qkv5, std::int64_t i)
{
    return qkv5.select(3, i).permute({ 0, 2, 1, 3 });
}

// dst = src with its first cos.size(-1) dimensions rotated by the angles whose sines are `sin`
// (the forward; the backward passes -sin, the transpose), in src's precision as applyRotary.
void rotateInto(
    const torch::Tensor& src, torch::Tensor dst, const torch::Tensor& cos, const torch::Tensor& sin)
{
    const auto dims = cos.size(-1), headDim = src.size(-1), half = dims / 2;
    if (dims < headDim)
        dst.narrow(-1, dims, headDim - dims).copy_(src.narrow(-1, dims, headDim - dims));
    if (dims == 0)
        return;
    const auto c = cos.narrow(-1, 0, half).to(src.scalar_type());
    const auto s = sin.narrow(-1, 0, half).to(src.scalar_type());
    const auto x1 = src.narrow(-1, 0, half), x2 = src.narrow(-1, half, half);
    dst.narrow(-1, 0, half).copy_(x1 * c - x2 * s);
    dst.narrow(-1, half, half).copy_(x2 * c + x1 * s);
}

struct RotaryQkvFunction : public torch::autograd::Function<RotaryQkvFunction> {
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& qkv,
        const torch::Tensor& cos, const torch::Tensor& sin, std::int64_t heads)
    {
        const auto qkv5 = byParts(qkv.contiguous(), heads);
        const auto batch = qkv5.size(0), positions = qkv5.size(1), headDim = qkv5.size(4);
        TORCH_CHECK(cos.dim() == 2 && cos.size(0) == positions && cos.size(1) <= headDim
                && cos.size(1) % 2 == 0 && sin.sizes() == cos.sizes(),
            "rotary qkv: tables of ", cos.sizes(), " for ", positions, " positions and heads of ",
            headDim);
        const auto options = qkv.options();
        QueryKeyValue out { torch::empty({ batch, heads, positions, headDim }, options),
            torch::empty({ batch, heads, positions, headDim }, options),
            torch::empty({ batch, heads, positions, headDim }, options) };
        if (detail::rotaryKernelTakes(qkv5)) {
            detail::rotaryKernelForward(qkv5, { cos, sin }, out);
        } else {
            rotateInto(part(qkv5, 0), out.query, cos, sin);
            rotateInto(part(qkv5, 1), out.key, cos, sin);
            out.value.copy_(part(qkv5, 2));
        }
        ctx->save_for_backward({ cos, sin });
        ctx->saved_data["sizes"] = qkv.sizes().vec();
        ctx->saved_data["heads"] = heads;
        return { out.query, out.key, out.value };
    }

    static variable_list backward(AutogradContext* ctx, variable_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const auto& cos = saved[0];
        const auto& sin = saved[1];
        const auto sizes = ctx->saved_data["sizes"].toIntVector();
        const auto heads = ctx->saved_data["heads"].toInt();
        auto dqkv = torch::empty(sizes,
            grads[0].defined()       ? grads[0].options()
                : grads[1].defined() ? grads[1].options()
                                     : grads[2].options());
        auto dqkv5 = byParts(dqkv, heads);
        // An output that took no part in the loss has no gradient: zero, in the others' layout.
        const auto shape = part(dqkv5, 0).sizes();
        const auto gradient = [&](int i) {
            return grads[i].defined() ? grads[i].to(dqkv.scalar_type())
                                      : torch::zeros(shape, dqkv.options());
        };
        const QueryKeyValue g { gradient(0), gradient(1), gradient(2) };
        if (detail::rotaryKernelTakes(dqkv5)) {
            detail::rotaryKernelBackward(g, { cos, sin }, dqkv5);
        } else {
            rotateInto(g.query, part(dqkv5, 0), cos, -sin);
            rotateInto(g.key, part(dqkv5, 1), cos, -sin);
            part(dqkv5, 2).copy_(g.value);
        }
        return { dqkv, torch::Tensor(), torch::Tensor(), torch::Tensor() };
    }
};

} // namespace

QueryKeyValue rotaryQkv(const torch::Tensor& qkv, int heads, const RotaryTables& tables)
{
    const auto out = RotaryQkvFunction::apply(qkv, tables.cos, tables.sin, heads);
    return { out[0], out[1], out[2] };
}

QueryKeyValue rotaryQkvReference(const torch::Tensor& qkv, int heads, const RotaryTables& tables)
{
    const auto qkv5 = byParts(qkv, heads);
    return { applyRotary(part(qkv5, 0), tables), applyRotary(part(qkv5, 1), tables),
        part(qkv5, 2) };
}

} // namespace gpuplan::bench

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

// The tables' halves in `type`: cos and sin for the first and the second half of the rotated
// dimensions (equal for rotaryTables, not assumed here).
struct Halves {
    torch::Tensor cos1, cos2, sin1, sin2;
};

Halves halves(const RotaryTables& tables, at::ScalarType type)
{
    const auto half = tables.cos.size(-1) / 2;
    const auto cos = tables.cos.to(type), sin = tables.sin.to(type);
    return { cos.narrow(-1, 0, half), cos.narrow(-1, half, half), sin.narrow(-1, 0, half),
        sin.narrow(-1, half, half) };
}

// dst = src with its rotated dimensions turned forward (direction +1: applyRotary's
// out1 = x1 cos1 - x2 sin1, out2 = x2 cos2 + x1 sin2, the same products and sums, so the same
// roundings) or back (-1, the transpose, for the gradient: dx1 = g1 cos1 + g2 sin2,
// dx2 = g2 cos2 - g1 sin1); the other dimensions copied.
void rotateInto(
    const torch::Tensor& src, torch::Tensor dst, const RotaryTables& tables, int direction)
{
    const auto dims = tables.cos.size(-1), headDim = src.size(-1), half = dims / 2;
    if (dims < headDim)
        dst.narrow(-1, dims, headDim - dims).copy_(src.narrow(-1, dims, headDim - dims));
    if (dims == 0)
        return;
    const Halves h = halves(tables, src.scalar_type());
    const auto x1 = src.narrow(-1, 0, half), x2 = src.narrow(-1, half, half);
    if (direction > 0) {
        dst.narrow(-1, 0, half).copy_(x1 * h.cos1 - x2 * h.sin1);
        dst.narrow(-1, half, half).copy_(x2 * h.cos2 + x1 * h.sin2);
    } else {
        dst.narrow(-1, 0, half).copy_(x1 * h.cos1 + x2 * h.sin2);
        dst.narrow(-1, half, half).copy_(x2 * h.cos2 - x1 * h.sin1);
    }
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
        const RotaryTables tables { cos, sin };
        const auto options = qkv.options();
        QueryKeyValue out { torch::empty({ batch, heads, positions, headDim }, options),
            torch::empty({ batch, heads, positions, headDim }, options),
            torch::empty({ batch, heads, positions, headDim }, options) };
        if (detail::rotaryKernelTakes(qkv5, tables)) {
            detail::rotaryKernelForward(qkv5, tables, out);
        } else {
            rotateInto(part(qkv5, 0), out.query, tables, +1);
            rotateInto(part(qkv5, 1), out.key, tables, +1);
            out.value.copy_(part(qkv5, 2));
        }
        ctx->save_for_backward({ cos, sin });
        ctx->saved_data["sizes"] = qkv.sizes().vec();
        ctx->saved_data["heads"] = heads;
        ctx->saved_data["type"] = static_cast<std::int64_t>(qkv.scalar_type());
        return out.list();
    }

    // Autograd hands an output that took no part in the loss a zero gradient (the context
    // materialises gradients by default), so all three are defined here.
    static variable_list backward(AutogradContext* ctx, variable_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const RotaryTables tables { saved[0], saved[1] };
        const auto type = static_cast<at::ScalarType>(ctx->saved_data["type"].toInt());
        auto dqkv
            = torch::empty(ctx->saved_data["sizes"].toIntVector(), grads[0].options().dtype(type));
        auto dqkv5 = byParts(dqkv, ctx->saved_data["heads"].toInt());
        const QueryKeyValue g { grads[0].to(type), grads[1].to(type), grads[2].to(type) };
        if (detail::rotaryKernelTakes(dqkv5, tables)) {
            detail::rotaryKernelBackward(g, tables, dqkv5);
        } else {
            rotateInto(g.query, part(dqkv5, 0), tables, -1);
            rotateInto(g.key, part(dqkv5, 1), tables, -1);
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

#include "benchmark/checkpoint.h"

#include "benchmark/torch_compat.h"

#include <cstdint>

namespace gpuplan::bench {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// The autocast state the forward ran under, to recompute with the same casts: on CUDA the
// backward runs on the autograd engine's device thread, where autocast is off.
void saveAutocast(AutogradContext* ctx, c10::DeviceType device)
{
    const auto state = compat::autocastState(device);
    ctx->saved_data["autocast"] = state.enabled;
    ctx->saved_data["autocast_dtype"] = static_cast<std::int64_t>(state.dtype);
    ctx->saved_data["device_type"] = static_cast<std::int64_t>(device);
}

compat::AutocastState savedAutocast(AutogradContext* ctx)
{
    return { ctx->saved_data["autocast"].toBool(),
        static_cast<at::ScalarType>(ctx->saved_data["autocast_dtype"].toInt()) };
}

struct CheckpointFunction : public torch::autograd::Function<CheckpointFunction> {
    // Runs in no-grad mode (custom functions' forward always does): nothing inside is kept.
    // Without autocast's cache: a weight cast made here has no gradient path, and the recompute
    // would pick it up from a cache kept for the step and give the block no weight gradients.
    static torch::Tensor forward(AutogradContext* ctx, torch::Tensor hidden, std::int64_t block)
    {
        ctx->save_for_backward({ hidden });
        ctx->saved_data["block"] = block;
        saveAutocast(ctx, hidden.device().type());
        const compat::CastCacheOff uncached;
        return reinterpret_cast<CheckpointedBlock*>(block)->forwardBlock(hidden);
    }

    static variable_list backward(AutogradContext* ctx, variable_list gradOutputs)
    {
        auto hidden = ctx->get_saved_variables()[0].detach().requires_grad_(true);
        auto* block = reinterpret_cast<CheckpointedBlock*>(ctx->saved_data["block"].toInt());
        const auto device = static_cast<c10::DeviceType>(ctx->saved_data["device_type"].toInt());
        torch::Tensor recomputed;
        {
            torch::AutoGradMode enableGrad(true);
            // The block's casts are made afresh, as in its forward; and the casts the step
            // keeps for the other weights stay (the cache may be shared across threads).
            const compat::CastCacheOff uncached;
            compat::AutocastScope autocast(
                device, savedAutocast(ctx), compat::CastCache::KeepForStep);
            recomputed = block->forwardBlock(hidden);
        }
        // Re-entrant backward through the recomputed block: accumulates the block's parameter
        // gradients and yields the gradient for its input.
        torch::autograd::backward({ recomputed }, { gradOutputs[0] });
        return { hidden.grad(), torch::Tensor() };
    }
};

} // namespace

torch::Tensor checkpointed(CheckpointedBlock& block, const torch::Tensor& hidden)
{
    return CheckpointFunction::apply(hidden, reinterpret_cast<std::int64_t>(&block));
}

} // namespace gpuplan::bench

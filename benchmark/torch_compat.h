#pragma once

// The one place that knows which LibTorch it is compiled against. Debian ships 1.13 (CPU);
// GPU servers build against the LibTorch inside a pip PyTorch (2.x). Everything that differs
// between them is gated here on TORCH_VERSION_MAJOR/MINOR, so the rest of benchmark/ reads the
// same for both.

#include "benchmark/torch_version.h"

#include <torch/torch.h>

#include <ATen/autocast_mode.h>

namespace gpuplan::bench::compat {

// Fused scaled-dot-product attention: public since 2.0; 1.13 has only the private op, which
// dispatches to the same math/flash kernels where they exist.
inline torch::Tensor fusedAttention(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal)
{
#if GPUPLAN_TORCH_AT_LEAST(2, 0)
    return at::scaled_dot_product_attention(q, k, v, /*attn_mask=*/ {}, /*dropout_p=*/0.0, causal);
#else
    return std::get<0>(at::_scaled_dot_product_attention(q, k, v, /*attn_mask=*/ {},
        /*dropout_p=*/0.0,
        /*need_attn_weights=*/false, causal));
#endif
}

// Autocast state of one device type; 2.4 replaced the per-device functions by ones that take
// the device type.
struct AutocastState {
    bool enabled = false;
    at::ScalarType dtype = at::kFloat;
};

inline AutocastState autocastState(c10::DeviceType device)
{
#if GPUPLAN_TORCH_AT_LEAST(2, 4)
    return { at::autocast::is_autocast_enabled(device), at::autocast::get_autocast_dtype(device) };
#else
    if (device == c10::DeviceType::CUDA)
        return { at::autocast::is_enabled(), at::autocast::get_autocast_gpu_dtype() };
    return { at::autocast::is_cpu_enabled(), at::autocast::get_autocast_cpu_dtype() };
#endif
}

inline void setAutocastState(c10::DeviceType device, AutocastState state)
{
#if GPUPLAN_TORCH_AT_LEAST(2, 4)
    at::autocast::set_autocast_dtype(device, state.dtype);
    at::autocast::set_autocast_enabled(device, state.enabled);
#else
    if (device == c10::DeviceType::CUDA) {
        at::autocast::set_autocast_gpu_dtype(state.dtype);
        at::autocast::set_enabled(state.enabled);
    } else {
        at::autocast::set_autocast_cpu_dtype(state.dtype);
        at::autocast::set_cpu_enabled(state.enabled);
    }
#endif
}

// What becomes of autocast's cache when a scope ends. Autocast keeps the low-precision copy
// of every fp32 weight it casts (a leaf that requires grad) until the cache is cleared.
// ClearOnExit is Python's torch.autocast: a new copy per forward. KeepForStep lets the
// micro-steps of one optimizer step share one copy per weight; whoever keeps it must clear the
// cache (clearCastCache) when the weights change.
enum class CastCache { ClearOnExit, KeepForStep };

inline void clearCastCache()
{
    at::autocast::clear_cache();
}

// `weight` in `dtype` for an explicit low-precision product (the chunked LM head): through
// autocast's cache where autocast is on for its device, so that it is the same copy as every
// other use of the weight until the cache is cleared, else a plain cast.
inline torch::Tensor castWeight(const torch::Tensor& weight, at::ScalarType dtype)
{
    const auto device = weight.device().type();
    if (weight.scalar_type() != dtype && autocastState(device).enabled)
        return at::autocast::cached_cast(dtype, weight, device);
    return weight.to(dtype);
}

// Turns autocast's cast cache off for a scope (nothing looked up, nothing added) and restores
// it: for casts that must not be shared — made under no-grad, they would carry no gradient —
// or that a CUDA graph must replay.
class CastCacheOff {
public:
    CastCacheOff()
        : was_(at::autocast::is_autocast_cache_enabled())
    {
        at::autocast::set_autocast_cache_enabled(false);
    }
    ~CastCacheOff() { at::autocast::set_autocast_cache_enabled(was_); }
    CastCacheOff(const CastCacheOff&) = delete;
    CastCacheOff& operator=(const CastCacheOff&) = delete;

private:
    bool was_;
};

// Sets an autocast state for a scope and restores the previous one.
class AutocastScope {
public:
    AutocastScope(
        c10::DeviceType device, AutocastState state, CastCache cache = CastCache::ClearOnExit)
        : device_(device)
        , previous_(autocastState(device))
        , cache_(cache)
    {
        setAutocastState(device_, state);
    }
    ~AutocastScope()
    {
        setAutocastState(device_, previous_);
        if (cache_ == CastCache::ClearOnExit)
            clearCastCache();
    }
    AutocastScope(const AutocastScope&) = delete;
    AutocastScope& operator=(const AutocastScope&) = delete;

private:
    c10::DeviceType device_;
    AutocastState previous_;
    CastCache cache_;
};

// Fused (single-kernel, multi-tensor) Adam/AdamW: CUDA since 2.0 (stable signature from 2.1),
// CPU since 2.4.
inline bool hasFusedAdam(c10::DeviceType device)
{
#if GPUPLAN_TORCH_AT_LEAST(2, 4)
    (void)device;
    return true;
#elif GPUPLAN_TORCH_AT_LEAST(2, 1)
    return device == c10::DeviceType::CUDA;
#else
    (void)device;
    return false;
#endif
}

// at::Allocator::allocate lost its const in 2.3, which also added copy_data.
#if GPUPLAN_TORCH_AT_LEAST(2, 3)
#define GPUPLAN_ALLOCATOR_CONST
#define GPUPLAN_ALLOCATOR_HAS_COPY_DATA 1
#else
#define GPUPLAN_ALLOCATOR_CONST const
#define GPUPLAN_ALLOCATOR_HAS_COPY_DATA 0
#endif

// A profiler event's start and duration in nanoseconds (torch/csrc/autograd/profiler_kineto.h's
// KinetoEvent): 2.x reports startNs/durationNs, 1.13 startUs/durationUs. Asked of the type, not
// the version number, since the change came between the two versions we build against.
template <typename ProfilerEvent> std::int64_t eventStartNs(const ProfilerEvent& e)
{
    if constexpr (requires { e.startNs(); })
        return static_cast<std::int64_t>(e.startNs());
    else
        return static_cast<std::int64_t>(e.startUs()) * 1000;
}

template <typename ProfilerEvent> std::int64_t eventDurationNs(const ProfilerEvent& e)
{
    if constexpr (requires { e.durationNs(); })
        return static_cast<std::int64_t>(e.durationNs());
    else
        return static_cast<std::int64_t>(e.durationUs()) * 1000;
}

inline std::string libtorchVersion()
{
    return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "."
        + std::to_string(TORCH_VERSION_PATCH);
}

} // namespace gpuplan::bench::compat

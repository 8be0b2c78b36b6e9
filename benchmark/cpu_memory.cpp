#include "benchmark/cpu_memory.h"

#include "benchmark/torch_compat.h"

#include <c10/core/CPUAllocator.h>

#include <atomic>
#include <cstring>
#include <limits>
#include <mutex>
#include <unordered_map>

namespace gpuplan::bench::cpu_memory {

namespace {

std::atomic<std::int64_t> current { 0 };
std::atomic<std::int64_t> peak { 0 };
std::atomic<std::int64_t> limit { std::numeric_limits<std::int64_t>::max() };

at::DeleterFnPtr baseDeleter = nullptr;
std::mutex sizesMutex;
std::unordered_map<void*, std::int64_t> sizes; // live allocations and their sizes

// LibTorch's raw_allocate (used by some CPU kernels) requires the data pointer to be its own
// context, so sizes are kept beside the allocations rather than in a context object.
void release(void* data)
{
    if (!data)
        return;
    std::int64_t bytes = 0;
    {
        const std::lock_guard<std::mutex> lock(sizesMutex);
        const auto it = sizes.find(data);
        if (it != sizes.end()) {
            bytes = it->second;
            sizes.erase(it);
        }
    }
    current.fetch_sub(bytes);
    baseDeleter(data);
}

class CountingAllocator final : public at::Allocator {
public:
    explicit CountingAllocator(at::Allocator* base)
        : base_(base)
    {
    }

    at::DataPtr allocate(size_t n) GPUPLAN_ALLOCATOR_CONST override
    {
        const auto bytes = static_cast<std::int64_t>(n);
        const std::int64_t now = current.fetch_add(bytes) + bytes;
        if (now > limit.load()) {
            current.fetch_sub(bytes);
            TORCH_CHECK_WITH(OutOfMemoryError, false, "CPU memory limit of ", limit.load(),
                " bytes exceeded: tried to allocate ", bytes, " bytes with ", now - bytes,
                " in use (--memory-limit)");
        }
        std::int64_t seen = peak.load();
        while (now > seen && !peak.compare_exchange_weak(seen, now)) { }
        at::DataPtr inner = base_->allocate(n);
        const auto device = inner.device();
        void* data = inner.release_context(); // the default CPU allocator: data == context
        if (!data) {
            current.fetch_sub(bytes);
            return { nullptr, nullptr, &release, device };
        }
        {
            const std::lock_guard<std::mutex> lock(sizesMutex);
            sizes[data] = bytes;
        }
        return { data, data, &release, device };
    }

    at::DeleterFnPtr raw_deleter() const override { return &release; }

#if GPUPLAN_ALLOCATOR_HAS_COPY_DATA
    void copy_data(void* dest, const void* src, std::size_t count) const override
    {
        std::memcpy(dest, src, count);
    }
#endif

private:
    at::Allocator* base_;
};

} // namespace

void install()
{
    static std::once_flag once;
    std::call_once(once, [] {
        at::Allocator* base = c10::GetCPUAllocator();
        baseDeleter = base->raw_deleter();
        TORCH_CHECK(baseDeleter != nullptr, "the CPU allocator has no raw deleter to wrap");
        static CountingAllocator counting(base);
        c10::SetCPUAllocator(&counting, /*priority=*/100);
    });
}

void setLimit(std::optional<std::int64_t> bytes)
{
    limit.store(bytes.value_or(std::numeric_limits<std::int64_t>::max()));
}

void resetPeak()
{
    peak.store(current.load());
}
std::int64_t peakBytes()
{
    return peak.load();
}
std::int64_t currentBytes()
{
    return current.load();
}

} // namespace gpuplan::bench::cpu_memory

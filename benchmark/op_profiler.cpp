#include "benchmark/op_profiler.h"

#include "benchmark/torch_compat.h"

#include <torch/csrc/autograd/profiler_kineto.h>

#include <set>

namespace gpuplan::bench {

namespace {

// The device work itself, by libkineto's ActivityType (KinetoEvent::activityType), whose first
// values have stayed put from LibTorch 1.13 to 2.x: copies, fills and kernels. Other device
// events (GPU user annotations, synchronisation) span kernels and would count them twice.
constexpr std::uint8_t kGpuMemcpy = 3;
constexpr std::uint8_t kGpuMemset = 4;
constexpr std::uint8_t kConcurrentKernel = 5;

bool isDeviceWork(std::uint8_t activityType)
{
    return activityType == kGpuMemcpy || activityType == kGpuMemset
        || activityType == kConcurrentKernel;
}

} // namespace

std::vector<ProfiledEvent> profiledEvents(const std::function<void()>& work, bool cuda)
{
    namespace profiler = torch::autograd::profiler;
    using torch::profiler::impl::ActivityType;
    const torch::profiler::impl::ProfilerConfig config(
        torch::profiler::impl::ProfilerState::KINETO);
    // On a GPU only the device's activity: the CPU side of every launch would only add to the
    // profiler's own cost.
    const std::set<ActivityType> activities { cuda ? ActivityType::CUDA : ActivityType::CPU };
    profiler::prepareProfiler(config, activities);
    profiler::enableProfiler(config, activities);
    try {
        work();
    } catch (...) {
        profiler::disableProfiler();
        throw;
    }
    const auto result = profiler::disableProfiler();
    std::vector<ProfiledEvent> events;
    for (const auto& e : result->events()) {
        const bool onCpu = e.deviceType() == c10::DeviceType::CPU;
        // A GPU run keeps the device's work, a CPU run the operators.
        if (cuda ? onCpu || !isDeviceWork(e.activityType()) : !onCpu)
            continue;
        events.push_back({ e.name(), onCpu, e.startThreadId(), compat::eventStartNs(e),
            compat::eventDurationNs(e) });
    }
    return events;
}

} // namespace gpuplan::bench

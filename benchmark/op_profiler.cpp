#include "benchmark/op_profiler.h"

#include "benchmark/torch_compat.h"

#include <torch/csrc/autograd/profiler_kineto.h>

#include <set>

namespace gpuplan::bench {

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
        if (onCpu == cuda) // a GPU run keeps the device's events, a CPU run the operators
            continue;
        events.push_back({ e.name(), onCpu, e.startThreadId(), compat::eventStartNs(e),
            compat::eventDurationNs(e) });
    }
    return events;
}

} // namespace gpuplan::bench

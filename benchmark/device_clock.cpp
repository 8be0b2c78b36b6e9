#include "benchmark/device_clock.h"

#include "benchmark/cpu_memory.h"
#include "benchmark/cuda_backend.h"

#include <chrono>

namespace gpuplan::bench {

double DeviceClock::time(const std::function<void()>& work) const
{
    if (device_.is_cuda())
        return cuda::timeWithEvents(index(), work);
    const auto start = std::chrono::steady_clock::now();
    work(); // CPU kernels run synchronously: when work() returns, the work is done
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::vector<double> DeviceClock::timeParts(const std::vector<std::function<void()>>& parts) const
{
    if (device_.is_cuda())
        return cuda::timePartsWithEvents(index(), parts);
    std::vector<double> seconds;
    auto start = std::chrono::steady_clock::now();
    for (const auto& part : parts) {
        part();
        const auto end = std::chrono::steady_clock::now();
        seconds.push_back(std::chrono::duration<double>(end - start).count());
        start = end;
    }
    return seconds;
}

void DeviceClock::synchronize() const
{
    if (device_.is_cuda())
        cuda::synchronize(index());
}

void DeviceClock::resetPeakMemory() const
{
    if (device_.is_cuda())
        cuda::resetPeakMemory(index());
    else
        cpu_memory::resetPeak();
}

std::int64_t DeviceClock::peakMemoryBytes() const
{
    return device_.is_cuda() ? cuda::peakAllocatedBytes(index()) : cpu_memory::peakBytes();
}

void DeviceClock::releaseCachedMemory() const
{
    if (device_.is_cuda())
        cuda::releaseCachedMemory();
}

} // namespace gpuplan::bench

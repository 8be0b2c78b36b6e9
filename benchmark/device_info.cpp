#include "benchmark/device_info.h"

#include "benchmark/cuda_backend.h"

#include <torch/torch.h>

#include <fstream>
#include <unistd.h>

namespace gpuplan::bench {

std::optional<double> DeviceInfo::peakFor(Precision p) const
{
    GpuSpec spec;
    spec.peakTflops = peakTflops;
    return spec.peakTflopsFor(p);
}

void attachGpuTableEntry(DeviceInfo& device, const Catalog& catalog)
{
    for (const auto& gpu : catalog.gpus) {
        for (const auto& name : gpu.deviceNames) {
            if (name == device.name) {
                device.gpuId = gpu.id;
                device.peakTflops = gpu.peakTflops;
                return;
            }
        }
    }
}

DeviceInfo cpuDevice()
{
    DeviceInfo cpu;
    std::ifstream info("/proc/cpuinfo");
    std::string line;
    std::string model = "CPU";
    while (std::getline(info, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos && colon + 2 <= line.size())
                model = line.substr(colon + 2);
            break;
        }
    }
    const int threads = at::get_num_threads();
    cpu.name = model + " (" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)");
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && pageSize > 0)
        cpu.memoryBytes = static_cast<std::int64_t>(pages) * pageSize;
    return cpu;
}

std::vector<DeviceInfo> discoverDevices(const Catalog& catalog)
{
    std::vector<DeviceInfo> devices;
    for (int i = 0; i < cuda::deviceCount(); ++i) {
        DeviceInfo d = cuda::describeDevice(i);
        attachGpuTableEntry(d, catalog);
        devices.push_back(std::move(d));
    }
    devices.push_back(cpuDevice());
    return devices;
}

} // namespace gpuplan::bench

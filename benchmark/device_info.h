#pragma once

// A device gpuplan-bench can measure on, as `devices` lists it and results files record it.

#include "core/catalog.h"
#include "core/precision.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::bench {

struct DeviceInfo {
    int index = -1; // CUDA ordinal; -1 for the CPU
    std::string kind = "cpu"; // "cuda" | "cpu"
    std::string name; // as the driver reports it ("NVIDIA H100 80GB HBM3")
    std::string gpuId; // id in the GPU table, "" when the name is not in it
    std::int64_t memoryBytes = 0;
    std::string computeCapability; // "9.0"; "" on the CPU
    std::map<Precision, double> peakTflops; // from the GPU table; empty = no peak known

    bool isCuda() const { return kind == "cuda"; }
    // Dense peak for training in `p` (fp32 trains in TF32 where the GPU has it); nullopt when
    // the table has none: never guessed.
    std::optional<double> peakFor(Precision p) const;
};

// Finds the GPU table entry whose device_names holds `deviceName` exactly, and fills gpuId and
// peakTflops from it.
void attachGpuTableEntry(DeviceInfo& device, const Catalog& catalog);

// CUDA devices (when this LibTorch has CUDA and a driver sees a GPU), then the CPU.
std::vector<DeviceInfo> discoverDevices(const Catalog& catalog);

// The CPU as a device: model name from /proc/cpuinfo, the threads LibTorch uses, memory.
DeviceInfo cpuDevice();

} // namespace gpuplan::bench

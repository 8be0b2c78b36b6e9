#pragma once

// SkyPilot's GpuInfo column: a Python dict literal written by str(), e.g.
//   {'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 8,
//              'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 655360}
// or, in older RunPod files, a bare name ("A100-80GB"). It is read for two things only, the
// GPU's own name and its memory, by looking for those keys: it is never evaluated.
//
// The memory field means different things per provider, which is why readings come in pairs:
//  - AWS, Nebius, GCP: SizeInMiB is one GPU's memory, TotalGpuMemoryInMiB = Count x SizeInMiB;
//  - Lambda: SizeInMiB is one GPU's memory, and TotalGpuMemoryInMiB repeats it;
//  - Vast: SizeInMiB is the whole instance's memory (2x H200: 287542), and Total repeats it;
//  - RunPod (v8): the numbers are GB written under "SizeInMiB" (80, 141).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::catalog_import {

struct GpuInfo {
    std::string name; // empty when the field names no GPU
    std::optional<double> sizeMiB;
    std::optional<double> totalMiB;
};

GpuInfo parseGpuInfo(std::string_view text);

// One GPU's memory in GB, per the rules above: a single reading where the fields agree on what
// they mean (Total = count x Size, or a value below 1024 that can only be GB), both readings
// (Size and Size / count) where Total repeats Size for several GPUs, none without a Size.
std::vector<double> memoryReadingsGb(const GpuInfo& info, double gpuCount);

} // namespace gpuplan::catalog_import

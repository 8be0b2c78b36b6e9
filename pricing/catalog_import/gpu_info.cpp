#include "pricing/catalog_import/gpu_info.h"

#include "core/limits.h"

#include <charconv>
#include <cmath>

namespace gpuplan::catalog_import {

namespace {

constexpr double kMiBPerGB = 1024.0;
// No GPU has less than 1 GB, so a "SizeInMiB" below 1024 can only be GB (RunPod).
constexpr double kSmallestMiB = 1024.0;

// The text of the quoted value after `'key': '`.
std::string quotedValue(std::string_view text, std::string_view key)
{
    const std::string pattern = "'" + std::string(key) + "': '";
    const auto at = text.find(pattern);
    if (at == std::string_view::npos)
        return {};
    const auto start = at + pattern.size();
    const auto end = text.find('\'', start);
    if (end == std::string_view::npos)
        return {};
    return std::string(text.substr(start, end - start));
}

// The number after `'key': `, when it is a finite, positive one.
std::optional<double> numberValue(std::string_view text, std::string_view key)
{
    const std::string pattern = "'" + std::string(key) + "': ";
    const auto at = text.find(pattern);
    if (at == std::string_view::npos)
        return std::nullopt;
    const char* begin = text.data() + at + pattern.size();
    const char* end = text.data() + text.size();
    double value = 0.0;
    const auto [next, error] = std::from_chars(begin, end, value);
    if (error != std::errc() || next == begin || !std::isfinite(value) || value <= 0.0)
        return std::nullopt;
    return value;
}

} // namespace

GpuInfo parseGpuInfo(std::string_view text)
{
    GpuInfo info;
    if (text.empty())
        return info;
    if (text.front() != '{') {
        info.name = std::string(text); // a bare name (SkyPilot v7 RunPod)
        return info;
    }
    info.name = quotedValue(text, "Name");
    info.sizeMiB = numberValue(text, "SizeInMiB");
    info.totalMiB = numberValue(text, "TotalGpuMemoryInMiB");
    return info;
}

std::vector<double> memoryReadingsGb(const GpuInfo& info, double gpuCount)
{
    if (!info.sizeMiB)
        return {};
    const double size = *info.sizeMiB;
    std::vector<double> readings;
    if (size < kSmallestMiB) {
        readings = { size };
    } else if (const double perGpu = size / kMiBPerGB; gpuCount <= 1.0) {
        readings = { perGpu };
    } else if (info.totalMiB && std::abs(*info.totalMiB - size * gpuCount) <= gpuCount) {
        readings = { perGpu }; // Total = count x Size (within a MiB each): Size is one GPU's
    } else if (info.totalMiB && *info.totalMiB != size) {
        readings = { perGpu }; // Total says something else again: trust Size as one GPU's
    } else {
        readings = { perGpu, perGpu / gpuCount };
    }
    // A reading no GPU could have (core/limits.h) tells nothing about the GPU.
    std::erase_if(readings, [](double gb) { return !limits::kMemoryGb.bounds.contains(gb); });
    return readings;
}

} // namespace gpuplan::catalog_import

#pragma once

// One row of a cloud catalog, read from either format into the same shape, before any GPU is
// mapped or any price judged. Prices are per instance-hour, as every catalog writes them.

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::catalog_import {

struct CatalogRow {
    // The CSV lines this row comes from: one, or two where a GCP accelerator row was added to
    // its host VM's row (the accelerator's line first).
    std::vector<int> lines;
    std::string instance; // "p5.48xlarge"; empty in a GCP accelerator-only row
    std::string gpuName; // AcceleratorName / gpu_name as written; empty: no GPU
    std::string gpuInfoName; // the name inside SkyPilot's GpuInfo, where there is one
    double gpuCount = 0; // as written: fractional counts are dropped later, with the reason
    // Readings of one GPU's memory in GB (MiB / 1024, as nvidia-smi reports "80 GB"). Empty when
    // the catalog does not say; two readings where the catalog's field is ambiguous (see
    // gpu_info.h). Used only to tell GPUs of one name apart.
    std::vector<double> memoryGb;
    std::optional<double> onDemandUsd; // nullopt: the cell was empty
    std::optional<double> spotUsd;
    std::string region;
    std::string zone; // availability zone, where the catalog lists one row per zone

    int line() const { return lines.empty() ? 0 : lines.front(); }
};

} // namespace gpuplan::catalog_import

#pragma once

#include "core/provenance.h"

#include <optional>
#include <string>

namespace gpuplan {

// One rentable instance type. Rates are USD per instance-hour.
struct CloudOffer {
    std::string id;        // "runpod-h100-sxm"
    std::string provider;  // "RunPod"
    std::string instance;  // "H100 SXM" or "p4de.24xlarge"
    std::string gpuId;     // refers to GpuSpec::id
    int gpusPerInstance = 1;
    std::optional<double> onDemandUsdPerHour;
    std::optional<double> spotUsdPerHour;
    std::optional<double> reserved1yrUsdPerHour;
    std::optional<double> reserved3yrUsdPerHour;
    std::string region;
    Provenance source;
};

} // namespace gpuplan

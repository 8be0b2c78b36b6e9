#pragma once

#include "core/provenance.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

// A reservation: pay `usdPerHour` for every hour of `years`, used or not.
struct ReservedRate {
    double years = 0.0;
    double usdPerHour = 0.0;
};

// One rentable instance type. Rates are USD per instance-hour.
struct CloudOffer {
    std::string id; // "runpod-h100-sxm"
    std::string provider; // "RunPod"
    std::string instance; // "H100 SXM" or "p4de.24xlarge"
    std::string gpuId; // refers to GpuSpec::id
    int gpusPerInstance = 1;
    std::optional<double> onDemandUsdPerHour;
    std::optional<double> spotUsdPerHour;
    std::vector<ReservedRate> reserved;
    std::string region;
    Provenance source;
};

} // namespace gpuplan

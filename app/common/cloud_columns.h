#pragma once

#include "core/evaluate.h"

#include <QString>
#include <QVariant>

namespace gpuplan::views {

// The columns of the cloud-offers table (GUI, CLI, CSV).
enum class CloudColumn {
    Provider,
    Offer,
    Gpu,
    GpuCount,
    Instances,
    Days,
    OnDemandRate,
    SpotRate,
    OnDemandCost,
    SpotCost,
    CheapestCost,
    RateDate,
    Flags,
};
inline constexpr int kCloudColumnCount = 13;

// Rates are per instance (an instance may hold 8 GPUs); with an indirect rate, the per-run
// costs include it and their headers say so.
QString header(CloudColumn c, double indirectRate = 0.0);
QString displayText(const CloudOption& o, CloudColumn c);
QVariant sortValue(const CloudOption& o, CloudColumn c);

} // namespace gpuplan::views

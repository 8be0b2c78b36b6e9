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

QString header(CloudColumn c);
QString displayText(const CloudOption& o, CloudColumn c);
QVariant sortValue(const CloudOption& o, CloudColumn c);

} // namespace gpuplan::views

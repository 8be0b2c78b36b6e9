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

// The column's name: stable, as the CSV's header reads it.
QString header(CloudColumn c);
// The name a table shows: rates say they are per instance (an instance may hold 8 GPUs), and
// with an indirect rate the per-run costs say that they include it.
QString displayHeader(CloudColumn c, double indirectRate);
QString displayText(const CloudOption& o, CloudColumn c);
QVariant sortValue(const CloudOption& o, CloudColumn c);

} // namespace gpuplan::views

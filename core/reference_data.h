#pragma once

#include "core/provenance.h"

#include <optional>
#include <string>

namespace gpuplan {

// One cell of a published table of training days (the paper's Tables 1 and 4).
struct ReferenceMeasurement {
    enum class Table { Optimal, Naive };
    Table table = Table::Optimal;
    std::string modelId;
    std::string gpuId;
    int gpuCount = 0;
    std::optional<double> days; // absent: published as infeasible ("—")
    std::string configuration; // e.g. "MBS 16, GAS 8, ZeRO-1" (Appendix J), may be empty
    Provenance source;
};

// One configuration measured by gpuplan-bench and read back from its results file.
struct MeasuredResult {
    std::string modelId;
    std::string gpuId; // GpuSpec::id of the device, or empty if the device is unknown
    std::string deviceName;
    int gpuCount = 1;
    double trainingDays = 0.0;
    double trainingDaysLow = 0.0;
    double trainingDaysHigh = 0.0;
    std::string configuration;
    std::optional<double> impliedUtilization;
    std::optional<double> validationError; // relative, from --validate
    std::string file; // where it was read from
    Provenance source; // date of measurement, tool version, host
};

} // namespace gpuplan

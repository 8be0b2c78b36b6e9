#pragma once

// A configuration's time breakdown (time_breakdown.h) as the run summary shows it: lines under
// the configuration in the table, a field of its JSON object. The results file's form is in
// results_writer.cpp with the rest of that format.

#include "benchmark/time_breakdown.h"

#include <optional>
#include <string>

namespace gpuplan::bench {

// Indented lines: the profiled time against the measured step, one line per kind (seconds per
// step, share), the compute-only ceiling (computeOnlyUtilization), and the largest events.
std::string timeBreakdownText(
    const TimeBreakdown& breakdown, double stepSeconds, std::optional<double> utilization);

// {"source": ..., "profiled_micro_steps": ..., "profiled_seconds": ...,
//  "compute_only_utilization": ..., "kinds": [{"kind", "seconds", "share"}],
//  "top": [{"name", "kind", "seconds", "calls"}]}
std::string timeBreakdownJson(
    const TimeBreakdown& breakdown, double stepSeconds, std::optional<double> utilization);

} // namespace gpuplan::bench

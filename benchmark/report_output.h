#pragma once

// Human tables and JSON for `describe` and the end of `run`.

#include "benchmark/measurement.h"

#include <ostream>
#include <string>

namespace gpuplan::bench {

std::string describeJson(const ModelSpec& spec, const Recipe& recipe);
void printDescription(
    const ModelSpec& spec, const Recipe& recipe, const std::string& format, std::ostream& out);
std::string runSummaryJson(const RunReport& report);
void printRunSummary(const RunReport& report, const std::string& format, std::ostream& out);

} // namespace gpuplan::bench

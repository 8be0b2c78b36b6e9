#pragma once

// Progress of a run as events; `--progress jsonl` prints them one JSON object per line on
// stdout (docs/results-format.md), a table run prints a line per event on stderr.

#include "core/benchmark_protocol.h"

#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace gpuplan::bench {

// Phases: core/benchmark_protocol.h, shared with the programs that read the progress.
struct ProgressEvent {
    ProgressPhase phase = ProgressPhase::Start;
    std::string configuration;
    std::optional<int> microBatch;
    double percent = 0.0; // share of the whole run, 0-100, non-decreasing
    std::string message;
};

using ProgressSink = std::function<void(const ProgressEvent&)>;

std::string toJsonLine(const ProgressEvent& event);
ProgressSink jsonLinesSink(std::ostream& out);
ProgressSink humanSink(std::ostream& out);

} // namespace gpuplan::bench

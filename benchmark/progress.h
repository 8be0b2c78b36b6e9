#pragma once

// Progress of a run as events; `--progress jsonl` prints them one JSON object per line on
// stdout (docs/results-format.md), a table run prints a line per event on stderr.

#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace gpuplan::bench {

// Phases: start, build, search, warmup, measure, validate, configuration_done, done, error;
// multi-process runs add launch (the --nproc-per-node launcher started the ranks) and
// comm_probe (measuring the interconnect before the first configuration).
struct ProgressEvent {
    std::string phase;
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

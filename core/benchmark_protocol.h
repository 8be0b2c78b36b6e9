#pragma once

// The contract between gpuplan-bench and the programs that run it (the GUI's Benchmark view):
// the phases of `--progress jsonl` (docs/results-format.md). Both sides spell them through this
// one table, so a phase renamed on one side cannot go unnoticed on the other.

#include <array>
#include <optional>
#include <string_view>

namespace gpuplan {

enum class ProgressPhase {
    Start,
    Build,
    Launch, // --nproc-per-node started the ranks
    CommProbe, // measuring the interconnect before the first configuration
    Search,
    Warmup,
    Measure,
    Validate,
    ConfigurationDone,
    Done,
    Error,
};

inline constexpr std::array kProgressPhases { ProgressPhase::Start, ProgressPhase::Build,
    ProgressPhase::Launch, ProgressPhase::CommProbe, ProgressPhase::Search, ProgressPhase::Warmup,
    ProgressPhase::Measure, ProgressPhase::Validate, ProgressPhase::ConfigurationDone,
    ProgressPhase::Done, ProgressPhase::Error };

std::string_view toString(ProgressPhase phase); // "start", ..., "comm_probe", "configuration_done"
std::optional<ProgressPhase> progressPhaseFromString(std::string_view text);

} // namespace gpuplan

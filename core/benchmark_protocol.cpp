#include "core/benchmark_protocol.h"

namespace gpuplan {

std::string_view toString(ProgressPhase phase)
{
    switch (phase) {
    case ProgressPhase::Start:
        return "start";
    case ProgressPhase::Build:
        return "build";
    case ProgressPhase::Launch:
        return "launch";
    case ProgressPhase::CommProbe:
        return "comm_probe";
    case ProgressPhase::Search:
        return "search";
    case ProgressPhase::Warmup:
        return "warmup";
    case ProgressPhase::Measure:
        return "measure";
    case ProgressPhase::Validate:
        return "validate";
    case ProgressPhase::ConfigurationDone:
        return "configuration_done";
    case ProgressPhase::Done:
        return "done";
    case ProgressPhase::Error:
        return "error";
    }
    return "error";
}

std::optional<ProgressPhase> progressPhaseFromString(std::string_view text)
{
    for (ProgressPhase phase : kProgressPhases)
        if (toString(phase) == text)
            return phase;
    return std::nullopt;
}

} // namespace gpuplan

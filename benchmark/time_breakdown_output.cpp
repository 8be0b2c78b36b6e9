#include "benchmark/time_breakdown_output.h"

#include "benchmark/json_text.h"

#include <cstdio>

namespace gpuplan::bench {

namespace {

constexpr std::size_t kTopEventsShown = 3; // in the table; all kTopEvents in JSON and YAML

} // namespace

std::string timeBreakdownText(
    const TimeBreakdown& breakdown, double stepSeconds, std::optional<double> utilization)
{
    char line[512];
    std::snprintf(line, sizeof line,
        "    time breakdown (%s, %d micro-step(s) profiled): %.4f s of the %.4f s step\n",
        breakdown.source.c_str(), breakdown.profiledMicroSteps, breakdown.profiledSeconds,
        stepSeconds);
    std::string out = line;
    for (const KindTime& k : breakdown.kinds) {
        std::snprintf(line, sizeof line, "      %-18s %10.4f s %6.1f%%\n",
            std::string(toString(k.kind)).c_str(), k.seconds, 100.0 * k.share);
        out += line;
    }
    if (const auto ceiling = computeOnlyUtilization(breakdown, stepSeconds, utilization)) {
        std::snprintf(line, sizeof line,
            "      with only its products, attention and convolutions the step would reach %.1f%% "
            "utilisation\n",
            100.0 * *ceiling);
        out += line;
    }
    for (std::size_t i = 0; i < breakdown.top.size() && i < kTopEventsShown; ++i) {
        const EventTime& e = breakdown.top[i];
        std::snprintf(line, sizeof line, "      largest: %.4f s, %dx %s (%s)\n", e.seconds, e.calls,
            e.name.c_str(), std::string(toString(e.kind)).c_str());
        out += line;
    }
    return out;
}

std::string timeBreakdownJson(
    const TimeBreakdown& breakdown, double stepSeconds, std::optional<double> utilization)
{
    std::string j = "{\"source\": " + json::quote(breakdown.source) + ", \"profiled_micro_steps\": "
        + std::to_string(breakdown.profiledMicroSteps) + ", \"profiled_seconds\": "
        + json::number(breakdown.profiledSeconds) + ", \"compute_only_utilization\": "
        + json::number(computeOnlyUtilization(breakdown, stepSeconds, utilization))
        + ", \"kinds\": [";
    for (std::size_t i = 0; i < breakdown.kinds.size(); ++i) {
        const KindTime& k = breakdown.kinds[i];
        j += std::string(i ? ", " : "") + "{\"kind\": " + json::quote(toString(k.kind))
            + ", \"seconds\": " + json::number(k.seconds) + ", \"share\": " + json::number(k.share)
            + "}";
    }
    j += "], \"top\": [";
    for (std::size_t i = 0; i < breakdown.top.size(); ++i) {
        const EventTime& e = breakdown.top[i];
        j += std::string(i ? ", " : "") + "{\"name\": " + json::quote(e.name) + ", \"kind\": "
            + json::quote(toString(e.kind)) + ", \"seconds\": " + json::number(e.seconds)
            + ", \"calls\": " + std::to_string(e.calls) + "}";
    }
    return j + "]}";
}

} // namespace gpuplan::bench

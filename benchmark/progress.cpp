#include "benchmark/progress.h"

#include "benchmark/json_text.h"

#include <cstdio>

namespace gpuplan::bench {

std::string toJsonLine(const ProgressEvent& e)
{
    std::string line = "{\"phase\": " + json::quote(std::string(toString(e.phase)))
        + ", \"configuration\": " + json::quote(e.configuration);
    if (e.microBatch)
        line += ", \"micro_batch_size\": " + std::to_string(*e.microBatch);
    line += ", \"percent\": " + json::number(e.percent) + ", \"message\": " + json::quote(e.message)
        + "}";
    return line;
}

ProgressSink jsonLinesSink(std::ostream& out)
{
    return [&out](const ProgressEvent& e) { out << toJsonLine(e) << std::endl; };
}

ProgressSink humanSink(std::ostream& out)
{
    return [&out](const ProgressEvent& e) {
        char percent[16];
        std::snprintf(percent, sizeof percent, "%5.1f%%", e.percent);
        out << "[" << percent << "] " << toString(e.phase);
        if (!e.configuration.empty())
            out << " " << e.configuration;
        if (!e.message.empty())
            out << ": " << e.message;
        out << std::endl;
    };
}

} // namespace gpuplan::bench

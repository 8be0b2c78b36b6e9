#include "benchmark/free_lunch_parts.h"

#include <algorithm>
#include <array>
#include <utility>

namespace gpuplan::bench {

namespace {

constexpr std::array<std::pair<FreeLunchPart, std::string_view>, 11> kNames { {
    { FreeLunchPart::FusedAttention, "fused-attention" },
    { FreeLunchPart::FusedRotary, "fused-rotary" },
    { FreeLunchPart::ChunkedLmHead, "chunked-lm-head" },
    { FreeLunchPart::FusedScan, "fused-scan" },
    { FreeLunchPart::ChannelsLast, "channels-last" },
    { FreeLunchPart::DepthwiseKernel, "depthwise-kernel" },
    { FreeLunchPart::KeptCasts, "kept-casts" },
    { FreeLunchPart::FusedAdam, "fused-adam" },
    { FreeLunchPart::Tf32, "tf32" },
    { FreeLunchPart::CudnnBenchmark, "cudnn-benchmark" },
    { FreeLunchPart::CudaGraph, "cuda-graph" },
} };

std::string knownNames()
{
    std::string text;
    for (const auto& [part, name] : kNames)
        text.append(text.empty() ? "" : ", ").append(name);
    return text;
}

} // namespace

std::string_view toString(FreeLunchPart part)
{
    for (const auto& [known, name] : kNames)
        if (known == part)
            return name;
    return "?";
}

FreeLunchPartsParse parseFreeLunchParts(std::string_view list)
{
    FreeLunchPartsParse parse;
    std::size_t start = 0;
    while (start <= list.size()) {
        const auto comma = std::min(list.find(',', start), list.size());
        const auto name = list.substr(start, comma - start);
        const auto known = std::find_if(
            kNames.begin(), kNames.end(), [&](const auto& entry) { return entry.second == name; });
        if (known == kNames.end()) {
            parse.error = "unknown free-lunch part '" + std::string(name)
                + "' (known: " + knownNames() + ")";
            parse.parts.clear();
            return parse;
        }
        if (std::find(parse.parts.begin(), parse.parts.end(), known->first) == parse.parts.end())
            parse.parts.push_back(known->first);
        start = comma + 1;
    }
    return parse;
}

std::string joinedNames(const std::vector<FreeLunchPart>& parts)
{
    std::string text;
    for (const auto part : parts)
        text.append(text.empty() ? "" : ",").append(toString(part));
    return text;
}

} // namespace gpuplan::bench

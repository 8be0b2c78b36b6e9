#include "benchmark/distributed/comm_probe.h"

#include "benchmark/distributed/bus_bandwidth.h"
#include "benchmark/json_text.h"
#include "benchmark/statistics.h"

#include <torch/torch.h>

#include <cstdio>

namespace gpuplan::bench::distributed {

namespace {

constexpr double kGigabyte = 1e9; // nccl-tests reports GB/s in powers of ten

CollectiveSample probeOne(Communicator& communicator, Collective collective, std::int64_t bytes,
    const ProbePlan& plan, const torch::TensorOptions& options,
    const std::function<double(const std::function<void()>&)>& time)
{
    const int ranks = communicator.worldSize();
    // Elements per rank's slice, so every rank's part is whole: S = slice x ranks.
    const std::int64_t slice = std::max<std::int64_t>(1, bytes / 4 / ranks);
    const std::int64_t total = slice * ranks;
    auto full = torch::ones({ total }, options);
    auto part = torch::ones({ slice }, options);
    const auto once = [&] {
        switch (collective) {
        case Collective::AllReduce:
            communicator.allReduceSum(full)->wait();
            break;
        case Collective::ReduceScatter:
            communicator.reduceScatterSum(full, part)->wait();
            break;
        case Collective::AllGather:
            communicator.allGather(part, full)->wait();
            break;
        }
    };
    for (int i = 0; i < plan.warmup; ++i)
        once();
    std::vector<double> samples;
    for (int i = 0; i < plan.iterations; ++i) {
        full.fill_(1.0); // all-reduce would overflow to inf after enough sums
        const double mine = time(once);
        samples.push_back(communicator.maxOverRanks(mine));
    }
    CollectiveSample sample;
    sample.collective = std::string(toString(collective));
    sample.bytes = total * 4;
    sample.seconds = spreadOf(samples).median;
    // Alone, a rank moves nothing (each collective returns at once): bytes over the call's own
    // time had read as hundreds of GB/s of an interconnect never used.
    sample.algorithmBandwidth = ranks > 1 ? algorithmBandwidth(sample.bytes, sample.seconds) : 0.0;
    sample.busBandwidth = busBandwidth(collective, ranks, sample.bytes, sample.seconds);
    return sample;
}

std::string formatted(const char* pattern, double value)
{
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

} // namespace

Interconnect probeInterconnect(Communicator& communicator, const ProbePlan& plan, bool cuda,
    int cudaDevice, const std::function<double(const std::function<void()>&)>& time, int nodeCount)
{
    Interconnect result;
    result.backend = communicator.backend();
    result.worldSize = communicator.worldSize();
    result.nodeCount = nodeCount;
    // One rank runs no collective, so how the backend would carry one says nothing here (the
    // Gloo note on reduce-scatter's doubled bytes had stood beside a probe of nothing).
    result.notes = communicator.worldSize() > 1
        ? communicator.notes()
        : std::vector<std::string> { "one rank: no collective moves data (each returns at once), "
                                     "so the times are the calls' own cost and no bandwidth is "
                                     "measured; probe 2 or more ranks (--nproc-per-node N, or "
                                     "a launcher) to measure the interconnect" };
    const auto options
        = torch::TensorOptions()
              .dtype(torch::kFloat)
              .device(cuda ? torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(cudaDevice))
                           : torch::Device(torch::kCPU));
    torch::NoGradGuard noGrad;
    for (const auto collective :
        { Collective::AllReduce, Collective::ReduceScatter, Collective::AllGather })
        for (std::int64_t bytes = plan.minBytes; bytes <= plan.maxBytes; bytes *= plan.factor)
            result.samples.push_back(
                probeOne(communicator, collective, bytes, plan, options, time));
    communicator.resetCount(); // the probe is not part of any step
    return result;
}

std::string interconnectTable(const Interconnect& ic)
{
    std::string text = "backend " + ic.backend + ", " + std::to_string(ic.worldSize) + " ranks on "
        + std::to_string(ic.nodeCount) + " node(s)\n";
    char line[160];
    std::snprintf(line, sizeof line, "%-15s %12s %12s %14s %14s\n", "collective", "bytes",
        "time us", "algbw GB/s", "busbw GB/s");
    text += line;
    for (const auto& s : ic.samples) {
        std::snprintf(line, sizeof line, "%-15s %12lld %12s %14s %14s\n", s.collective.c_str(),
            static_cast<long long>(s.bytes), formatted("%.1f", s.seconds * 1e6).c_str(),
            formatted("%.3f", s.algorithmBandwidth / kGigabyte).c_str(),
            formatted("%.3f", s.busBandwidth / kGigabyte).c_str());
        text += line;
    }
    for (const auto& note : ic.notes)
        text += "note: " + note + "\n";
    return text;
}

std::string interconnectJson(const Interconnect& ic)
{
    std::string j = "{\"backend\": " + json::quote(ic.backend)
        + ", \"world_size\": " + std::to_string(ic.worldSize)
        + ", \"node_count\": " + std::to_string(ic.nodeCount) + ", \"samples\": [";
    for (std::size_t i = 0; i < ic.samples.size(); ++i) {
        const auto& s = ic.samples[i];
        j += std::string(i ? ", " : "") + "{\"collective\": " + json::quote(s.collective)
            + ", \"bytes\": " + std::to_string(s.bytes)
            + ", \"seconds\": " + json::number(s.seconds)
            + ", \"algbw_bytes_per_second\": " + json::number(s.algorithmBandwidth)
            + ", \"busbw_bytes_per_second\": " + json::number(s.busBandwidth) + "}";
    }
    j += "], \"notes\": [";
    for (std::size_t i = 0; i < ic.notes.size(); ++i)
        j += (i ? ", " : "") + json::quote(ic.notes[i]);
    return j + "]}";
}

} // namespace gpuplan::bench::distributed

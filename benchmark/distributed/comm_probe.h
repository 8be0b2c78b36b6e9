#pragma once

// comm-probe: algorithm and bus bandwidth of all-reduce, reduce-scatter and all-gather against
// message size between the ranks of a run (bus_bandwidth.h has the definitions). Each size is
// timed `iterations` times after `warmup` untimed runs; a sample is the slowest rank's time,
// and the reported time the median sample.

#include "benchmark/distributed/communicator.h"
#include "benchmark/measurement.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace gpuplan::bench::distributed {

// The smallest message comm-probe times: --max-bytes below it would time nothing.
inline constexpr std::int64_t kSmallestProbeBytes = 1024;

struct ProbePlan {
    std::int64_t minBytes = kSmallestProbeBytes;
    std::int64_t maxBytes = 64ll << 20;
    int factor = 4; // sizes minBytes, x4, x16, ... up to maxBytes
    int warmup = 2;
    int iterations = 5;
};

// `time` runs work and returns its seconds with the device synchronised (DeviceClock::time).
// `cuda`: the buffers live on the current CUDA device.
Interconnect probeInterconnect(Communicator& communicator, const ProbePlan& plan, bool cuda,
    int cudaDevice, const std::function<double(const std::function<void()>&)>& time, int nodeCount);

std::string interconnectTable(const Interconnect& interconnect);
std::string interconnectJson(const Interconnect& interconnect);

} // namespace gpuplan::bench::distributed

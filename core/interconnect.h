#pragma once

// How fast the GPUs of one machine exchange gradients: the bus bandwidth NCCL reaches for an
// all-reduce between them (nccl-tests' "busbw", which is the same for any GPU count), per GPU
// type, dated and sourced. The planner's `extrapolated` source uses it where gpuplan-bench has
// not measured the machine's own interconnect (comm-probe), and the `analytic` source for the
// gradients' exchange between several GPUs. GPUs absent here are "unknown":
// PCIe cards depend on the board, the CPU's lanes and whether peer-to-peer is enabled (it is
// not on GeForce cards), so no estimate is extrapolated for them rather than a guess.

#include <string_view>

namespace gpuplan {

struct Interconnect {
    std::string_view gpuId;
    std::string_view name; // "NVLink 4 through NVSwitch"
    double busGBps = 0.0; // decimal GB/s
    std::string_view date;
    std::string_view source;
};

// nullptr: no bus bandwidth known for that GPU.
const Interconnect* interconnectFor(std::string_view gpuId);

// Seconds a ring all-reduce of `bytes` takes between `ranks` GPUs at `busBytesPerSecond`:
// 2 (n - 1) / n x bytes / busbw (the nccl-tests relation between algorithm and bus bandwidth).
double allReduceSeconds(double bytes, int ranks, double busBytesPerSecond);

} // namespace gpuplan

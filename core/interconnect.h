#pragma once

// How fast the GPUs of one machine exchange gradients: the bus bandwidth NCCL reaches for an
// all-reduce between them (nccl-tests' "busbw"), per GPU type, dated and sourced. The
// planner's `extrapolated` source uses it where gpuplan-bench has not measured the machine's
// own (the bandwidth a multi-GPU run's step collectives reached on one machine), and the
// `analytic` source for the gradients' exchange between
// several GPUs. NVLink through NVSwitch reaches the same busbw at any GPU count; PCIe cards
// depend on the board (switches or the CPU's root ports, one socket or two), the CPU's memory
// and whether peer-to-peer works, so a card is listed only where someone published nccl-tests
// figures for a whole machine of them, with the slowest such figure as the range's slow end.
// GPUs absent here are "unknown" (RTX 3090, RTX 4090, RTX A6000, L40S, A100 and H100 PCIe: no
// large-message figure found), and no exchange is priced for them rather than a guess.

#include <string_view>

namespace gpuplan {

struct Interconnect {
    std::string_view gpuId;
    std::string_view name; // "NVLink 4 through NVSwitch"
    double busGBps = 0.0; // decimal GB/s, what the estimate uses
    // The slowest figure published for such a machine (NCCL's default channels, a second CPU
    // socket, more GPUs): the slow end of the estimate's range. busGBps where there is one.
    double lowBusGBps = 0.0;
    std::string_view date;
    std::string_view source;
    // busGBps was measured on at most this many GPUs; more reach only lowBusGBps (RTX 5090:
    // 35 GB/s on 4 cards, 28 on 8). 0: busGBps holds at any count.
    int busGBpsUpToGpus = 0;
    // What lowBusGBps is, for an estimate's note: "the slowest published" for these tables'
    // machines; a share of a listed rate for a network between instances.
    std::string_view lowBusIs = "the slowest published";
};

// nullptr: no bus bandwidth known for that GPU.
const Interconnect* interconnectFor(std::string_view gpuId);

// The bus bandwidth an estimate on `gpuCount` GPUs uses: busGBps, or lowBusGBps past the GPU
// count busGBps was measured on.
double busGBpsAt(const Interconnect& link, int gpuCount);

// Seconds a ring all-reduce of `bytes` takes between `ranks` GPUs at `busBytesPerSecond`:
// 2 (n - 1) / n x bytes / busbw (the nccl-tests relation between algorithm and bus bandwidth).
double allReduceSeconds(double bytes, int ranks, double busBytesPerSecond);

} // namespace gpuplan

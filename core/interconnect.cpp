#include "core/interconnect.h"

#include <array>

namespace gpuplan {

namespace {

// The NCCL maintainer's figure for NVLink 4 (H100/H200 on NVSwitch): of the 450 GB/s line rate,
// about 20% goes to protocol overhead, so ring collectives reach ~370 GB/s bus bandwidth;
// all-reduce with NVLink SHARP reaches ~480 GB/s on 8 GPUs, which we leave as headroom.
constexpr std::string_view kNvlink4Source
    = "S. Jeaugey (NCCL), NVIDIA/nccl-tests issue #212: 'With the protocol overhead (~20%) NCCL "
      "can get an effective NVLink bandwidth of 370GB/s' of the 450 GB/s line rate (NVLink "
      "SHARP all-reduce: ~480 GB/s on 8 GPUs)";
// A100's NVLink 3: 600 GB/s GPU-to-GPU in both directions (NVIDIA A100 whitepaper), 300 GB/s
// each way, less the same ~20% protocol overhead.
constexpr std::string_view kNvlink3Source
    = "derived: 300 GB/s per direction (NVIDIA A100 Tensor Core GPU Architecture whitepaper: "
      "600 GB/s GPU-to-GPU through NVSwitch) less NCCL's ~20% protocol overhead (NVIDIA/"
      "nccl-tests issue #212)";

// B200's NVLink 5: 1.8 TB/s between any two GPUs of an HGX B200 in both directions, 900 GB/s
// each way, less the same ~20% protocol overhead.
constexpr std::string_view kNvlink5Source
    = "derived: 900 GB/s per direction (Vultr docs, 'NVIDIA HGX B200 Hardware Overview', "
      "updated 2026-03-11: NVSwitch 5.0 gives 1.8 TB/s bidirectional between any two of the 8 "
      "GPUs, nvidia-smi topo NV18 on every pair) less NCCL's ~20% protocol overhead "
      "(NVIDIA/nccl-tests issue #212)";

// RTX PRO 6000 Blackwell: peer-to-peer works on the stock driver over PCIe 5.0 x16. Eight
// cards, nccl-tests all_reduce_perf swept 8 MB-2 GB with NCCL_MIN_NCHANNELS=8: 41.1 GB/s on one
// CPU with three PCIe switches, 39.4 with four, 37.6 on two AMD Turin sockets; the same dual
// socket machine with NCCL's default channels, 22.2 GB/s (at 32 MB; the four-switch box with
// its defaults reached 40.1). The slowest tuned sweep is the estimate, the dual-socket box
// untuned its slow end: boards differ, and an untuned two-socket box is a common build.
constexpr std::string_view kRtxPro6000Source
    = "voipmonitor/rtx6kpro wiki, hardware/pcie-bandwidth.md (@070506ff), 'NCCL AllReduce Bus "
      "Bandwidth', 8-GPU results: 41.1 GB/s (3 PCIe switches), 39.4 (4 switches), 37.6 (dual "
      "Turin), each NCCL_MIN_NCHANNELS=8 swept 8M-2G; with NCCL's defaults at 32M, 40.1 (4 "
      "switches) and 22.2 (dual Turin)";
// RTX 5090 (peer-to-peer not stated): 8 cards on two Xeon 8480+ sockets, ACS disabled,
// all_reduce_perf 1-8 GB with NCCL_MIN_NCHANNELS=8: 35 GB/s on 4 of them, 28 on all 8, so up
// to 4 cards at 35 (slow end 28) and more at 28. The NCCL maintainer's reply: on PCIe machines
// the CPU's and memory's bandwidth sets the figure.
constexpr std::string_view kRtx5090Source
    = "wowlizw1, NVIDIA/nccl issue #1639 (2025-03-14): '8 GPU max performance: bwbus 28GB/s / "
      "4GPU max performance: bwbus 35GB/s' (2x Xeon 8480+, ACS disabled, all_reduce_perf -b 1g "
      "-e 8g); S. Jeaugey (NCCL): 'On PCI systems, the performance you get is usually determined "
      "by the bandwidth your CPU and memory can deliver'";

constexpr std::array kInterconnects {
    Interconnect { "h100-80gb-sxm", "NVLink 4 through NVSwitch", 370.0, 370.0, "2024-05-06",
        kNvlink4Source, 0 },
    Interconnect { "h200-141gb-sxm", "NVLink 4 through NVSwitch", 370.0, 370.0, "2024-05-06",
        kNvlink4Source, 0 },
    Interconnect { "b200-180gb-sxm", "NVLink 5 through NVSwitch", 720.0, 720.0, "2026-03-11",
        kNvlink5Source, 0 },
    Interconnect {
        "a100-80gb-sxm", "NVLink 3 through NVSwitch", 240.0, 240.0, "2020-05", kNvlink3Source, 0 },
    Interconnect {
        "a100-40gb-sxm", "NVLink 3 through NVSwitch", 240.0, 240.0, "2020-05", kNvlink3Source, 0 },
    Interconnect { "rtx-pro-6000-blackwell", "PCIe 5.0 peer-to-peer, 8-GPU servers", 37.6, 22.2,
        "undated", kRtxPro6000Source, 0 },
    Interconnect {
        "rtx-5090", "PCIe 5.0, one 8-GPU server", 35.0, 28.0, "2025-03-14", kRtx5090Source, 4 },
};

} // namespace

const Interconnect* interconnectFor(std::string_view gpuId)
{
    for (const auto& link : kInterconnects)
        if (link.gpuId == gpuId)
            return &link;
    return nullptr;
}

double busGBpsAt(const Interconnect& link, int gpuCount)
{
    const bool beyondMeasured = link.busGBpsUpToGpus > 0 && gpuCount > link.busGBpsUpToGpus;
    return beyondMeasured ? link.lowBusGBps : link.busGBps;
}

double allReduceSeconds(double bytes, int ranks, double busBytesPerSecond)
{
    if (ranks <= 1 || busBytesPerSecond <= 0.0)
        return 0.0;
    return 2.0 * (ranks - 1) / ranks * bytes / busBytesPerSecond;
}

} // namespace gpuplan

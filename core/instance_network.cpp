#include "core/instance_network.h"

#include "core/costing/renting.h"

#include <algorithm>
#include <cstdio>

namespace gpuplan {

namespace {

constexpr double kBitsPerByte = 8.0;

constexpr std::string_view kSocketShareSource
    = "NCCL over TCP reached about half the line rate on tuned data-centre networks: 1.7 GB/s "
      "of 25 Gbit/s (NVIDIA/nccl-tests issue #83), 4-6 GB/s of 100 Gbit/s (NVIDIA/nccl issue "
      "#450), at most 60% of 32 Gbit/s with NCCL's defaults (NVIDIA/nccl issue #209)";
constexpr std::string_view kSlowEndIs = "32% of the listed rate, the slowest share reported";

} // namespace

std::optional<NetworkBetweenInstances> NetworkBetweenInstances::of(const CloudOffer& offer)
{
    if (!offer.network || !(offer.network->gbps > 0.0))
        return std::nullopt;
    NetworkBetweenInstances n;
    n.m_gpuId = offer.gpuId;
    n.m_lowBusIs = kSlowEndIs;
    const double lineGBps = offer.network->gbps / kBitsPerByte;
    n.m_busGBps = lineGBps * kSocketShareOfLineRate;
    n.m_lowBusGBps = lineGBps * kSlowestSocketShareOfLineRate;
    char name[200];
    std::snprintf(name, sizeof name,
        "each instance's listed %g Gbit/s network, half of it over TCP", offer.network->gbps);
    // Several GPUs in one instance also pass the ring through their own link: the cap where it
    // is the slower (no listed network is yet, but 8 RTX 5090s' 28 GB/s is 224 Gbit/s).
    const int perInstance = mostGpusInOneInstance(offer);
    if (const Interconnect* machine = interconnectFor(offer.gpuId); machine && perInstance > 1) {
        const double own = busGBpsAt(*machine, perInstance);
        if (own < n.m_busGBps)
            std::snprintf(name, sizeof name,
                "the instance's own %s, slower than half its listed %g Gbit/s network",
                std::string(machine->name).c_str(), offer.network->gbps);
        n.m_busGBps = std::min(n.m_busGBps, own);
        if (machine->lowBusGBps < n.m_lowBusGBps) {
            n.m_lowBusGBps = machine->lowBusGBps;
            n.m_lowBusIs = "the instance's own link, " + std::string(machine->lowBusIs);
        }
    }
    n.m_name = name;
    n.m_date = offer.network->source.date;
    n.m_source = "network: " + offer.network->source.source + " (" + n.m_date + "); "
        + std::string(kSocketShareSource);
    return n;
}

Interconnect NetworkBetweenInstances::link() const&
{
    return Interconnect { m_gpuId, m_name, m_busGBps, m_lowBusGBps, m_date, m_source, 0,
        m_lowBusIs };
}

} // namespace gpuplan

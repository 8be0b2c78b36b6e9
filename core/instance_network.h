#pragma once

// How the instances of a cloud run that spans several (CloudOption::instances > 1) exchange
// gradients: over the network each instance lists (CloudOffer::network: its TCP/IP rate, not an
// RDMA fabric's), by NCCL's socket transport. None of the offers that list one has RDMA between
// such instances (Azure's NC A100 v4: "InfiniBand: Not Supported"; AWS's p5.4xlarge: no EFA
// found for it; RunPod's pods: a 100 Mbit/s overlay; Vast.ai's hosts: the public internet).
//
// A ring all-reduce over machines with one network link each passes every rank's share through
// each machine's link once a direction, so its bus bandwidth is at most that link's rate, however
// many GPUs a machine holds. Over TCP NCCL reached about half of it on tuned data-centre
// networks, 2019-2021: 1.7 GB/s of a 25 Gbit/s Azure network after TCP tuning
// (NVIDIA/nccl-tests#83, 54%), 4-6 GB/s of 100 Gbit/s between four machines (NVIDIA/nccl#450,
// 32-48%), "not more than 60% of wire speed over 32Gbps" with NCCL's defaults (NVIDIA/nccl#209,
// where 8 rings on NCCL 2.3.7 later reached 94%). The estimate takes half the listed rate, its
// range's slow end the slowest of those, 32%. The share is carried over, unmeasured, to the
// internet and RunPod's overlay, and no latency is counted (tens of milliseconds a hop over the
// internet): optimistic there. AWS caps one TCP flow at 5 Gbit/s (10 in a cluster placement
// group), so its listed rate needs a placement group and NCCL's many sockets. A machine's own
// GPUs exchange faster than any of these networks, so its NVLink or PCIe is the cap only where
// it is slower still.

#include "core/cloud_offer.h"
#include "core/interconnect.h"

#include <optional>
#include <string>

namespace gpuplan {

inline constexpr double kSocketShareOfLineRate = 0.5;
inline constexpr double kSlowestSocketShareOfLineRate = 0.32;

class NetworkBetweenInstances {
public:
    // nullopt where the offer lists no network.
    static std::optional<NetworkBetweenInstances> of(const CloudOffer& offer);

    // As the estimators take a machine's interconnect (core/estimators.h). Its text views into
    // this object, which must outlive it: not taken from a temporary (`*of(offer)` dangled
    // here; `of(offer)->link()` still can, so keep the optional while the link is used).
    Interconnect link() const&;
    Interconnect link() const&& = delete;

private:
    std::string m_gpuId;
    std::string m_name; // "each instance's listed 100 Gbit/s network, half of it over TCP"
    std::string m_date;
    std::string m_source;
    double m_busGBps = 0.0;
    double m_lowBusGBps = 0.0;
    std::string m_lowBusIs; // "32% of the listed rate, the slowest share reported"
};

} // namespace gpuplan

#pragma once

#include "core/provenance.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan {

// A reservation: pay `usdPerHour` for every hour of `years`, used or not.
struct ReservedRate {
    double years = 0.0;
    double usdPerHour = 0.0;
};

// Where the GPUs come from when they are not bought.
enum class OfferKind {
    Cloud, // a commercial provider: on-demand, spot and reserved rates
    Campus, // an institution's cluster at a recharge rate (on_demand_usd_per_hour)
    Allocation, // a granted allocation (NSF ACCESS, NAIRR): no cash, but lead time and queues
};

std::string_view toString(OfferKind kind); // "cloud", "campus", "allocation"
std::optional<OfferKind> offerKindFromString(std::string_view text);

// The network one instance of an offer has to the others: the rate the provider lists, dated
// and sourced apart from the offer's prices (it comes from another page).
struct InstanceNetwork {
    double gbps = 0.0; // Gbit/s per instance, decimal, as listed ("100 Gigabit", "20000 Mbps")
    Provenance source;
};

// One rentable instance type. Rates are USD an hour for gpusPerInstance GPUs (an instance's, or
// one GPU's where the provider bills per GPU).
struct CloudOffer {
    std::string id; // "runpod-h100-sxm"
    OfferKind kind = OfferKind::Cloud;
    std::string provider; // "RunPod"
    std::string instance; // "H100 SXM" or "p4de.24xlarge"
    std::string gpuId; // refers to GpuSpec::id
    int gpusPerInstance = 1; // GPUs one hourly rate buys
    // Where the provider puts any number of these in one instance up to a most (a RunPod pod of
    // 1 to 8): up to this many on one machine, each gpusPerInstance of them at the rate. 0 (and
    // instanceGpuCounts empty): an instance holds gpusPerInstance GPUs only, so more are more
    // machines, which exchange gradients over the provider's network (AWS's p5.4xlarge).
    int maxGpusPerInstance = 0;
    // Where the provider takes only some counts in one instance (GCP attaches 1, 2, 4 or 8
    // V100s to a VM): those counts, ascending, the first gpusPerInstance, each a multiple of it.
    // A count between them is rented as the fewest such instances (3 V100s: a VM of 2 and one
    // of 1). Empty: maxGpusPerInstance says it. The two are not given together.
    std::vector<int> instanceGpuCounts;
    // The network each instance has to the others, as the provider lists it, where a run spans
    // several instances: their exchange of gradients crosses it rather than one machine's NVLink
    // or PCIe (core/instance_network.h). Unset: not listed, and such a run is priced at one
    // machine's interconnect and flagged multi_instance.
    std::optional<InstanceNetwork> network;
    std::optional<double> onDemandUsdPerHour;
    std::optional<double> spotUsdPerHour;
    std::vector<ReservedRate> reserved;
    std::string region;
    // Days from applying to the first run (allocations), and waiting in a queue before each
    // run (shared clusters and allocations).
    double applicationLeadDays = 0.0;
    double queueWaitDays = 0.0;
    Provenance source;
};

// The same instance listed twice: its hourly rates and its reserved terms as offers of their own,
// each with its source's date (AWS's P4). Same provider, GPU, GPUs per instance and region.
bool sameInstance(const CloudOffer& a, const CloudOffer& b);

} // namespace gpuplan

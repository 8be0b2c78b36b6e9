#pragma once

// What renting the same work costs: rates billed and instances, spot run time, cost per run at
// an hourly rate.

#include "core/assumptions.h"
#include "core/cloud_offer.h"
#include "core/sponsor.h"

namespace gpuplan {

// How a rented GPU is paid for: pay-as-you-go (on-demand, spot, a campus recharge rate), a
// reservation for a term, or an allocation (no cash).
enum class Pricing { OnDemand, Spot, Reserved, Allocation };

// The offer's hourly rates a run on `gpuCount` of its GPUs pays: ceil(n / GPUs per instance).
int ratesBilled(const CloudOffer& offer, int gpuCount);

// The most of the offer's GPUs one instance holds: max_gpus_per_instance where the provider
// puts several in one (a pod of 8 at the per-GPU rate), the largest of instance_gpu_counts where
// it takes only some counts, else GPUs per instance.
int mostGpusInOneInstance(const CloudOffer& offer);

// Every GPU count one instance of the offer takes, ascending: instance_gpu_counts where the
// provider takes only some (GCP's V100s: 1, 2, 4, 8), else each multiple of GPUs per instance up
// to mostGpusInOneInstance (a RunPod pod: 1 to 8; a p5.4xlarge: 1).
std::vector<int> gpuCountsInOneInstance(const CloudOffer& offer);

// Instances, each a machine of its own, that provide `gpuCount` GPUs of an offer:
// ceil(n / mostGpusInOneInstance), or where only some counts fit in one instance the fewest of
// them that add up to n (3 of GCP's V100s: 2 VMs). More than one exchange gradients over the
// network.
int instancesNeeded(const CloudOffer& offer, int gpuCount);

// How long a run takes on spot instances: the training days lengthened by the restart overhead
// (time lost to pre-emptions and restarts from the last checkpoint).
double spotRunDays(double trainingDays, const Assumptions& a);

// Days a run occupies at a pricing: spot runs are lengthened by the restart overhead.
double runDays(double trainingDays, Pricing pricing, const Assumptions& a);

// Cloud spend of one run at one hourly rate before indirect costs: rate * hours * rates billed
// (ratesBilled), spot runs lengthened by the restart overhead.
double cloudSpendUsd(double usdPerInstanceHour, int rates, double trainingDays, Pricing pricing,
    const Assumptions& a);

// Cloud cost of one run at one hourly rate: rate * hours * rates billed, spot runs lengthened by
// the restart overhead, and the indirect (F&A) rate added where the sponsor's rules put computing
// services in the base.
double cloudCostUsd(double usdPerInstanceHour, int rates, double trainingDays, Pricing pricing,
    const Assumptions& a, const SponsorRules& sponsor);

// Every hour of a reservation's term, for `rates` billed, with F&A as cloudCostUsd adds it: what
// a commitment costs.
double commitmentCostUsd(double usdPerInstanceHour, int rates, double termYears,
    const Assumptions& a, const SponsorRules& sponsor);

} // namespace gpuplan

#pragma once

// What renting the same work costs: instances, spot run time, cost per run at an hourly rate.

#include "core/assumptions.h"
#include "core/cloud_offer.h"
#include "core/sponsor.h"

namespace gpuplan {

// How a rented GPU is paid for: pay-as-you-go (on-demand, spot, a campus recharge rate), a
// reservation for a term, or an allocation (no cash).
enum class Pricing { OnDemand, Spot, Reserved, Allocation };

// Instances needed to provide `gpuCount` GPUs of an offer: ceil(n / GPUs per instance).
int instancesNeeded(const CloudOffer& offer, int gpuCount);

// How long a run takes on spot instances: the training days lengthened by the restart overhead
// (time lost to pre-emptions and restarts from the last checkpoint).
double spotRunDays(double trainingDays, const Assumptions& a);

// Days a run occupies at a pricing: spot runs are lengthened by the restart overhead.
double runDays(double trainingDays, Pricing pricing, const Assumptions& a);

// Cloud spend of one run at one hourly rate before indirect costs: rate * hours * instances,
// spot runs lengthened by the restart overhead.
double cloudSpendUsd(double usdPerInstanceHour, int instances, double trainingDays, Pricing pricing,
    const Assumptions& a);

// Cloud cost of one run at one hourly rate: rate * hours * instances, spot runs lengthened by
// the restart overhead, and the indirect (F&A) rate added where the sponsor's rules put computing
// services in the base.
double cloudCostUsd(double usdPerInstanceHour, int instances, double trainingDays, Pricing pricing,
    const Assumptions& a, const SponsorRules& sponsor);

// Every hour of a reservation's term, for `instances`, with F&A as cloudCostUsd adds it: what a
// commitment costs.
double commitmentCostUsd(double usdPerInstanceHour, int instances, double termYears,
    const Assumptions& a, const SponsorRules& sponsor);

} // namespace gpuplan

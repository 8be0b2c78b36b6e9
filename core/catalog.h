#pragma once

#include "core/assumptions.h"
#include "core/cloud_offer.h"
#include "core/hardware.h"
#include "core/reference_data.h"
#include "core/sponsor.h"
#include "core/workload.h"

#include <string_view>
#include <vector>

namespace gpuplan {

// Everything the planner knows: price tables, models, reference and measured data, and the
// default assumptions. Built by pricing/ from YAML; plain data here.
struct Catalog {
    std::vector<GpuSpec> gpus;
    std::vector<ChassisSpec> chassis;
    std::vector<SystemSpec> systems;
    std::vector<CloudOffer> cloudOffers;
    std::vector<Workload> workloads;
    std::vector<ReferenceMeasurement> reference;
    std::vector<MeasuredResult> measured;
    Assumptions defaults;
    std::vector<SponsorRules> sponsors; // budget rules by sponsor (grant budgets)
    std::string priceSet; // the shipped price set the tables started from ("current", "paper")

    const GpuSpec* findGpu(std::string_view id) const;
    const ChassisSpec* findChassis(std::string_view id) const;
    const Workload* findWorkload(std::string_view id) const;
    const CloudOffer* findCloudOffer(std::string_view id) const;
    const SponsorRules* findSponsor(std::string_view id) const;
    // The sponsor's rules a plan is weighed by unless one is chosen: US federal where the
    // tables have it, else their first; "" (cloud spend carries F&A only) where they have none.
    // Every view starts from it: the CLI had refused tables without us-federal while the GUI
    // took their first.
    std::string defaultSponsorId() const;
};

} // namespace gpuplan

#pragma once

// From rows to offers. Catalogs list one row per instance type and region, and for some clouds
// per availability zone (AWS, GCP, RunPod), with spot rates that differ by zone; gpuhunt puts
// the spot rate in a row of its own. One offer is made per instance type and region: each rate
// the cheapest of the region's rows (the zone a user would launch in). With an aggregate, one
// offer per instance type: each rate the cheapest, or the median, of its regions' rates.

#include "pricing/catalog_import/catalog_row.h"
#include "pricing/catalog_import/import_summary.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::catalog_import {

enum class RegionAggregate {
    None, // one offer per region
    Cheapest,
    Median,
};

// A row whose GPU is known and whose rates were judged (rate_checks.h).
struct MappedRow {
    CatalogRow row;
    std::string gpuId;
    int gpus = 0;
};

struct OfferDraft {
    std::string instance;
    std::string gpuId;
    int gpus = 0;
    std::string region; // empty when regions were aggregated
    std::optional<double> onDemandUsd;
    std::optional<double> spotUsd;
    std::vector<int> lines; // every line that went into it, in order
    std::string note; // how rows were combined, where more than one was
};

// Offers in the order the file first lists them. A spot rate not below the combined on-demand
// rate is left out (recorded in `adjusted`).
std::vector<OfferDraft> groupIntoOffers(const std::vector<MappedRow>& rows,
    RegionAggregate aggregate, std::vector<AdjustedRow>& adjusted);

} // namespace gpuplan::catalog_import

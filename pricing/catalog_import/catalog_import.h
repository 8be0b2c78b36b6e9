#pragma once

// Importing a public cloud catalog (SkyPilot vms.csv, dstack gpuhunt) as gpuplan cloud offers:
//   read the CSV (csv_reader.h) in its format (skypilot_catalog.h, gpuhunt_catalog.h)
//   -> add GCP's GPU rows to their host VMs (gcp_host_vms.h)
//   -> keep the chosen region -> map GPU names to gpuplan ids (gpu_aliases.h)
//   -> judge the rates (rate_checks.h) -> one offer per instance type and region, or per
//      instance type across regions (offer_grouping.h) -> stable ids (offer_ids.h).
// Every row read ends up kept (in an offer) or dropped with its reason (import_summary.h).
// Plain C++ without Qt, so that the GUI, the CLI and the fuzzer run the same code.

#include "core/cloud_offer.h"
#include "pricing/catalog_import/gcp_host_vms.h"
#include "pricing/catalog_import/gpu_aliases.h"
#include "pricing/catalog_import/import_options.h"
#include "pricing/catalog_import/import_summary.h"
#include "pricing/load_issue.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::catalog_import {

// What the import maps onto: the alias and host tables, and the GPU ids the loaded price
// tables define. A GPU the alias table maps to an id not in `knownGpuIds` is reported
// unmapped (the shipped alias table may name GPUs a user's tables lack).
struct ImportTables {
    const GpuAliasTable& aliases;
    const GcpHostVmTable& hosts;
    std::set<std::string> knownGpuIds;
};

struct ImportedOffer {
    CloudOffer offer;
    std::vector<int> lines; // the catalog lines it was made from
};

struct CatalogImport {
    std::vector<ImportedOffer> offers;
    ImportSummary summary;
    // Errors: the file is malformed, and nothing of it may be used. Warnings: unknown columns.
    std::vector<LoadIssue> issues;
    // The regions of the file's GPU rows, in the order it lists them (to choose one from).
    std::vector<std::string> regions;

    bool ok() const { return !hasErrors(issues); }
};

// Imports `text` (the file's contents; `fileName` names it in messages and in each offer's
// source). Options must have passed checkOptions().
CatalogImport importCatalog(std::string_view text, const std::string& fileName,
    const ImportOptions& options, const ImportTables& tables);

} // namespace gpuplan::catalog_import

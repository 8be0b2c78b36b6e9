#pragma once

// Reader for gpuplan-bench results files (format: docs/results-format.md), the planner's
// `measured` source. Shared by gpuplan-cli --results, the GUI and its Benchmark view.

#include "core/catalog.h"
#include "pricing/catalog_loader.h"
#include "pricing/load_issue.h"

#include <string>
#include <string_view>
#include <vector>

namespace gpuplan {

struct MeasuredLoad {
    // One per file read without errors: the file's best configuration (the fastest one of a
    // partial file), keyed by model id, device gpu_id and gpu_count.
    std::vector<MeasuredResult> results;
    // The model and recipe each result was measured with. A shipped model measured with its
    // shipped recipe keeps its id; anything else (a custom config.json, a reduced recipe for a
    // CPU trial run) gets its own id, so it never passes for the shipped experiment.
    std::vector<Workload> workloads;
    std::vector<LoadIssue> issues;
    bool ok() const { return !hasErrors(issues); }
};

// `catalog` supplies the shipped models, to tell whether a result used a shipped recipe.
MeasuredLoad readMeasuredResults(
    std::string_view text, const std::string& fileName, const Catalog& catalog);
// Reads each file from disk; a missing or unreadable file is an issue, the others still load.
MeasuredLoad loadMeasuredResultsFiles(
    const std::vector<std::string>& paths, const Catalog& catalog);

// Adds the results, and the workloads the catalog does not have yet, to `catalog`.
void addMeasurements(Catalog& catalog, const MeasuredLoad& load);

// What every view plans with: the shipped tables of `priceSet`, the price files layered over
// them in order, then the results files. Issues of all files are collected; entries with errors
// are left out.
CatalogLoad loadPlannerCatalog(const std::vector<std::string>& pricePaths,
    const std::vector<std::string>& resultPaths, std::string_view priceSet = kDefaultPriceSet);

} // namespace gpuplan

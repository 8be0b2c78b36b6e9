#pragma once

// Judging a catalog row's rates before they become an offer. Catalogs write "no price" in
// several ways: an empty cell, 0 (Vast's spot 0.00, GCP's a4 host 0.0), a placeholder far above
// any real rate, and a "spot" rate equal to or above on-demand (AWS lists zones without spot
// capacity at the on-demand rate). Each such rate is left out, with the reason; a row left with
// no rate is dropped, with the reason.

#include "pricing/catalog_import/catalog_row.h"
#include "pricing/catalog_import/import_summary.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::catalog_import {

// The highest plausible rate per GPU-hour: core/limits.h's highest instance rate for its
// largest instance (kHourlyUsd.max / kGpusPerInstance.max = 10,000 / 64 = $156.25), pro rata,
// so a placeholder of $700 for one GPU is caught while an 8-GPU instance may cost $1,250.
double maxUsdPerGpuHour();

// Leaves out of `row` each rate that is 0, implausible for `gpus` GPUs, or (spot) not below
// on-demand, recording each in `adjusted`. Returns the reason to drop the row when no rate is
// left, nullopt when it keeps one.
std::optional<std::string> checkRates(
    CatalogRow& row, int gpus, std::vector<AdjustedRow>& adjusted);

// After rows are combined into an offer (zones, regions, gpuhunt's separate spot rows): a spot
// rate not below the on-demand rate is left out. True when it was.
bool dropSpotNotBelowOnDemand(std::optional<double>& spot, const std::optional<double>& onDemand);

inline constexpr const char* kSpotNotBelowOnDemand
    = "spot rate left out: not below the on-demand rate (no discount; a zone without spot "
      "capacity)";

} // namespace gpuplan::catalog_import

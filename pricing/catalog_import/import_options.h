#pragma once

// What the user says about a catalog file: its format, whose prices it holds, the date they
// were collected, and which regions to keep. The date cannot be read from the file (neither
// SkyPilot nor gpuhunt writes one), so it is always given: every imported offer is dated.

#include "pricing/catalog_import/offer_grouping.h"

#include <optional>
#include <string>

namespace gpuplan::catalog_import {

enum class CatalogFormat { SkyPilot, Gpuhunt };

struct ImportOptions {
    CatalogFormat format = CatalogFormat::SkyPilot;
    std::string provider; // as it should read in tables: "AWS", "Lambda"
    std::string date; // YYYY-MM-DD: when the catalog's prices were collected
    std::string region; // keep only this region ("" = every region)
    RegionAggregate aggregate = RegionAggregate::None;
};

// What is wrong with the options, in words; nullopt when they can be used. `today`
// (YYYY-MM-DD; empty: not checked): a collection date after it is a typo, and would make the
// prices look fresh for years (a price dated in the future is 0 months old).
std::optional<std::string> checkOptions(
    const ImportOptions& options, const std::string& today = {});

// "skypilot" / "gpuhunt", as in --from; nullopt for anything else.
std::optional<CatalogFormat> formatFromName(std::string_view name);
std::string_view formatName(CatalogFormat format); // "skypilot"
std::string_view formatTitle(CatalogFormat format); // "SkyPilot vms.csv"
// "cheapest" / "median"; nullopt for anything else.
std::optional<RegionAggregate> aggregateFromName(std::string_view name);
std::string_view aggregateName(RegionAggregate aggregate); // "none", "cheapest", "median"

// The source every offer of the import carries: provider, file, format, date and how regions
// were treated: "AWS rates in vms.csv (SkyPilot vms.csv) as of 2025-06-30; one offer per
// instance type: the cheapest of its regions".
std::string offerSource(const ImportOptions& options, const std::string& fileName);

// The user file's name: "aws-vms-2025-06-30.yaml".
std::string importedFileName(const ImportOptions& options, const std::string& fileName);

} // namespace gpuplan::catalog_import

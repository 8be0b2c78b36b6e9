#pragma once

// Reading a catalog CSV from disk with a size limit checked before anything is read: a 200 MB
// file (a whole-cloud dump, a wrong file) fails at once with its size, instead of being loaded
// into memory first.

#include "pricing/load_issue.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::catalog_import {

// SkyPilot's largest vms.csv (AWS, all regions and zones) is about 3 MB and a whole gpuhunt
// catalog tens of MB; 64 MiB leaves room for growth and bounds the memory an import takes.
inline constexpr std::uintmax_t kMaxCatalogBytes = 64ull * 1024 * 1024;

// The file's text, or nullopt with an error in `issues`: readTextFile (pricing/text_file.h)
// with the catalog's limit.
std::optional<std::string> readCatalogFile(const std::string& path, std::vector<LoadIssue>& issues,
    std::uintmax_t maxBytes = kMaxCatalogBytes);

} // namespace gpuplan::catalog_import

#pragma once

#include "core/catalog.h"
#include "pricing/load_issue.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

// One YAML data file's text and the name to use in messages (a path, or "shipped:gpus.yaml").
struct DataFile {
    std::string name;
    std::string text;
};

struct CatalogLoad {
    std::shared_ptr<const Catalog> catalog; // never null; holds every entry that was valid
    std::vector<LoadIssue> issues;
    bool ok() const { return !hasErrors(issues); }
};

// The default tables compiled into the binaries (pricing/data/*.yaml), in load order.
std::vector<DataFile> shippedDataFiles();

// Reads `files` in order. An entry whose id appeared in an earlier file replaces it, so user
// files layer over the defaults without editing them. References between files (a cloud offer's
// GPU, a reference table's models) are checked once every file is read. An entry with an error
// is left out; everything else is kept.
CatalogLoad loadCatalog(const std::vector<DataFile>& files);

// The shipped defaults, then each user file from disk.
CatalogLoad loadCatalogWithUserFiles(const std::vector<std::string>& userPaths);

// Reads a file from disk; reports a missing or unreadable file as an issue.
std::optional<DataFile> readDataFile(const std::string& path, std::vector<LoadIssue>& issues);

} // namespace gpuplan

#pragma once

// An import as a user price file: the offers in the schema of pricing/data/cloud.yaml, checked
// with the planner's own loader before anything is written, so that no import leaves a file the
// planner would reject.

#include "pricing/catalog_import/catalog_import.h"
#include "pricing/catalog_loader.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::catalog_import {

// The YAML text of the user file.
std::string writeImportedTable(
    const CatalogImport& result, const ImportOptions& options, const std::string& fileName);

// What stops the import from being written, in words: no offer kept, or more offers or bytes
// than a price table may hold (yaml_reader.h); nullopt when it can be written.
std::optional<std::string> checkImportSize(
    const CatalogImport& result, const std::string& yamlText);

// The loader's issues with `imported` read after `base` (the shipped tables and the user's own
// files, as the planner will read them): the imported file's issues only. Empty when it loads
// cleanly, warnings included.
std::vector<LoadIssue> checkImportedTable(std::vector<DataFile> base, const DataFile& imported);

} // namespace gpuplan::catalog_import

#include "pricing/catalog_import/catalog_file.h"

#include "pricing/text_file.h"

namespace gpuplan::catalog_import {

std::optional<std::string> readCatalogFile(
    const std::string& path, std::vector<LoadIssue>& issues, std::uintmax_t maxBytes)
{
    return readTextFile(
        path, issues, maxBytes, "a catalog may have: import one provider's file, not a whole dump");
}

} // namespace gpuplan::catalog_import

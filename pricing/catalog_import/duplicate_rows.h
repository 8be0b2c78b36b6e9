#pragma once

// Exact duplicate rows: some catalogs list the same row twice (SkyPilot's GCP file repeats
// TPU rows). A duplicate would count twice in a median, so the second copy is dropped and said.

#include "pricing/catalog_import/csv_reader.h"

#include <string>
#include <unordered_set>

namespace gpuplan::catalog_import {

class DuplicateRows {
public:
    // True when a record with the same fields was seen before.
    bool seenBefore(const CsvRecord& record);

private:
    std::unordered_set<std::string> m_seen;
};

} // namespace gpuplan::catalog_import

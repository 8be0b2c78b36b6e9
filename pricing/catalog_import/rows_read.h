#pragma once

// What a format reader hands on: the catalog's rows sorted by kind, and the rows it dropped
// itself (no GPU, duplicates). Prices are not judged yet.

#include "pricing/catalog_import/catalog_row.h"
#include "pricing/catalog_import/import_summary.h"

#include <vector>

namespace gpuplan::catalog_import {

struct RowsRead {
    int rowsRead = 0;
    std::vector<CatalogRow> gpuRows; // an instance with its GPUs
    // GCP lists a GPU's price in a row of its own, without an instance type, to be added to
    // the price of the VM that carries it (a row in hostRows).
    std::vector<CatalogRow> acceleratorRows;
    std::vector<CatalogRow> hostRows; // instances without a GPU: GCP's GPU hosts or CPU-only
    std::vector<DroppedRow> dropped; // one entry per line of a dropped row
    std::vector<AdjustedRow> adjusted;

    // Drops every line of `row` with `reason`.
    void drop(const CatalogRow& row, const std::string& reason)
    {
        for (int line : row.lines)
            dropped.push_back({ line, row.instance, row.gpuName, row.region, reason });
    }
};

inline constexpr const char* kCpuOnly = "CPU only (no GPU)";
inline constexpr const char* kExactDuplicate = "exact duplicate of an earlier row";

} // namespace gpuplan::catalog_import

#pragma once

// What an import did with every row it read: kept (in which offer), dropped (with the reason),
// or kept with a rate left out (with the reason), and the GPU names it could not map. The CLI
// prints it, the GUI previews it, and tests compare it with golden files.

#include <string>
#include <vector>

namespace gpuplan::catalog_import {

struct DroppedRow {
    int line = 0;
    std::string instance;
    std::string gpuName;
    std::string region;
    // Worded the same for every row dropped for the same cause, so rows group by it: the row's
    // own details are in the fields above.
    std::string reason;
};

// A row that was kept, without one of its rates (a spot price of 0, a placeholder).
struct AdjustedRow {
    int line = 0;
    std::string what;
};

struct UnmappedGpu {
    std::string name; // as the catalog writes it, with its memory where known: "RTX4090 (48 GB)"
    int rows = 0;
};

struct ImportSummary {
    std::string file; // the catalog's file name, as given
    int rowsRead = 0; // data rows, the header not counted
    int rowsKept = 0; // rows that went into at least one offer
    std::vector<DroppedRow> dropped; // in line order, one per line
    std::vector<AdjustedRow> adjusted;
    std::vector<UnmappedGpu> unmapped; // by number of rows, most first
};

struct ReasonGroup {
    std::string reason;
    std::vector<int> lines; // in order
};

// Dropped (or adjusted) rows grouped by reason, the most frequent reason first.
std::vector<ReasonGroup> groupDropped(const std::vector<DroppedRow>& dropped);
std::vector<ReasonGroup> groupAdjusted(const std::vector<AdjustedRow>& adjusted);

// "lines 2, 3, 5, ... (12 more)": the first `shown` line numbers.
std::string lineList(const std::vector<int>& lines, std::size_t shown);

// The summary as text, the same in the CLI's table output and the golden files:
//   vms.csv: 28 rows read, 16 kept in 9 offers, 12 dropped
//   dropped:
//        7  CPU only (no GPU): lines 2, 3, 4
//   ...
std::string formatSummary(const ImportSummary& summary, std::size_t offerCount);

// "1 row", "2 rows".
std::string counted(std::size_t count, const std::string& one, const std::string& many);

} // namespace gpuplan::catalog_import

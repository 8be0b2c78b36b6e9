#pragma once

// What every catalog format reader does around its own columns: read the header by column
// name, name the other format when the user chose the wrong --from, check each row's field
// count, and report the reader's errors. A format reader says only how one row becomes a
// CatalogRow (skypilot_catalog.cpp, gpuhunt_catalog.cpp).

#include "pricing/catalog_import/row_fields.h"
#include "pricing/catalog_import/rows_read.h"

#include <functional>
#include <span>
#include <string_view>

namespace gpuplan::catalog_import {

struct CatalogFormat {
    std::span<const ColumnSpec> columns;
    std::string_view name; // in messages: "a SkyPilot vms.csv"
    // A column only the other format has, and what to tell a user who chose the wrong --from.
    std::string_view otherFormatColumn;
    std::string_view otherFormatMessage;
};

// Reads the header, then calls `readRow` for each row with the header's field count; readRow
// returns false when RowFields reported a malformed field. False, with the errors in `issues`,
// when anything in the file was malformed: then nothing of it is used.
bool readCatalogRows(CsvReader& reader, const CatalogFormat& format, RowsRead& out,
    std::vector<LoadIssue>& issues,
    const std::function<bool(const CsvRecord& record, RowFields& fields)>& readRow);

} // namespace gpuplan::catalog_import

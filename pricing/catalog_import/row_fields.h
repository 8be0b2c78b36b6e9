#pragma once

// Reading one catalog row's fields by column name, with every malformed value reported at its
// line and column: a number that is not one ("abc", "NaN", "-3") is bad input, never a
// quietly skipped row, so that a broken file is noticed before its prices are used.

#include "pricing/catalog_import/csv_columns.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::catalog_import {

class RowFields {
public:
    RowFields(const CsvRecord& record, const CsvColumns& columns, const std::string& file,
        std::vector<LoadIssue>& issues);

    // The field without surrounding blanks; "" when the file has no such column.
    std::string text(std::string_view column) const;
    // A finite, non-negative number; nullopt for an empty field, and nullopt with an error for
    // anything else that is not such a number.
    std::optional<double> number(std::string_view column);
    // "True"/"False" (any case), as Python's csv module writes booleans.
    std::optional<bool> boolean(std::string_view column);
    bool ok() const { return m_ok; }

private:
    void error(std::string_view column, const std::string& message);

    const CsvRecord& m_record;
    const CsvColumns& m_columns;
    const std::string& m_file;
    std::vector<LoadIssue>& m_issues;
    bool m_ok = true;
};

// A row must have as many fields as the header: otherwise every field after the gap would be
// read from the wrong column. False with an error naming both counts.
bool checkFieldCount(const CsvRecord& record, const CsvColumns& columns, const std::string& file,
    std::vector<LoadIssue>& issues);

// A whole number of GPUs as written ("8", "8.0"); the count itself when fractional (0.5 GPU).
bool isWholeCount(double count);

} // namespace gpuplan::catalog_import

#pragma once

// A catalog's columns, found by name in its header row: providers write the same columns in
// different orders (SkyPilot's AWS, GCP, Lambda and RunPod files each differ) and add columns
// over time (SkyPilot v8's Arch, gpuhunt's flags), so positions are never assumed. Names match
// case-insensitively (SkyPilot's own README writes GPUInfo, its files GpuInfo).

#include "pricing/catalog_import/csv_reader.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::catalog_import {

struct ColumnSpec {
    std::string_view name;
    bool required = false;
};

class CsvColumns {
public:
    // Maps the header to `known` columns. A missing required column or a repeated name is an
    // error; a column not in `known` is a warning (it is ignored: catalogs gain columns).
    // `formatName` names the format in messages ("a SkyPilot vms.csv"). nullopt on error.
    static std::optional<CsvColumns> fromHeader(const CsvRecord& header,
        std::span<const ColumnSpec> known, std::string_view formatName, const std::string& file,
        std::vector<LoadIssue>& issues);

    bool has(std::string_view name) const { return index(name).has_value(); }
    // The field of `record` in column `name`, "" when the file has no such column.
    const std::string& field(const CsvRecord& record, std::string_view name) const;
    // Where that field starts on its line (for messages); 0 when the column is absent.
    int column(const CsvRecord& record, std::string_view name) const;
    std::size_t count() const { return m_count; }

private:
    std::optional<std::size_t> index(std::string_view name) const;

    std::vector<std::pair<std::string, std::size_t>> m_indexes; // lower-cased name -> position
    std::size_t m_count = 0;
};

std::string toLower(std::string_view text);
std::string trimmed(std::string_view text);

} // namespace gpuplan::catalog_import

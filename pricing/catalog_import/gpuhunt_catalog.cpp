#include "pricing/catalog_import/gpuhunt_catalog.h"

#include "core/limits.h"

#include "pricing/catalog_import/duplicate_rows.h"
#include "pricing/catalog_import/row_fields.h"

#include <array>

namespace gpuplan::catalog_import {

namespace {

constexpr std::array kColumns {
    ColumnSpec { "instance_name", true },
    ColumnSpec { "location", true },
    ColumnSpec { "price", true },
    ColumnSpec { "gpu_count", true },
    ColumnSpec { "gpu_name", true },
    ColumnSpec { "spot", true },
    ColumnSpec { "gpu_memory", false },
    ColumnSpec { "cpu", false },
    ColumnSpec { "memory", false },
    ColumnSpec { "disk_size", false },
    ColumnSpec { "gpu_vendor", false },
    ColumnSpec { "flags", false },
    ColumnSpec { "cpu_arch", false },
    ColumnSpec { "provider_data", false },
};

bool looksLikeSkyPilot(const CsvRecord& header)
{
    for (const auto& field : header.fields)
        if (toLower(trimmed(field)) == "instancetype")
            return true;
    return false;
}

} // namespace

bool readGpuhuntCatalog(CsvReader& reader, RowsRead& out, std::vector<LoadIssue>& issues)
{
    const std::string& file = reader.fileName();
    CsvRecord record;
    if (!reader.next(record)) {
        if (reader.error())
            issues.push_back(*reader.error());
        else
            issues.push_back({ LoadIssue::Severity::Error, file, 0, 0, "the file is empty" });
        return false;
    }
    if (looksLikeSkyPilot(record)) {
        issues.push_back({ LoadIssue::Severity::Error, file, record.line, 1,
            "this is a SkyPilot catalog (it has InstanceType): import it with --from skypilot" });
        return false;
    }
    const auto columns
        = CsvColumns::fromHeader(record, kColumns, "a gpuhunt catalog", file, issues);
    if (!columns)
        return false;

    DuplicateRows duplicates;
    bool ok = true;
    while (reader.next(record)) {
        ++out.rowsRead;
        if (!checkFieldCount(record, *columns, file, issues)) {
            ok = false;
            continue;
        }
        RowFields fields(record, *columns, file, issues);
        CatalogRow row;
        row.lines = { record.line };
        row.instance = fields.text("instance_name");
        row.region = fields.text("location");
        row.gpuName = fields.text("gpu_name");
        row.gpuCount = fields.number("gpu_count").value_or(0.0);
        if (const auto memory = fields.number("gpu_memory");
            memory && limits::kMemoryGb.bounds.contains(*memory))
            row.memoryGb = { *memory };
        const auto price = fields.number("price");
        const auto spot = fields.boolean("spot");
        if (!fields.ok()) {
            ok = false;
            continue;
        }
        (*spot ? row.spotUsd : row.onDemandUsd) = price;
        const auto drop = [&](const std::string& reason) {
            out.dropped.push_back({ record.line, row.instance, row.gpuName, row.region, reason });
        };
        if (row.instance.empty())
            drop("no instance name");
        else if (row.gpuName.empty() || row.gpuCount <= 0.0)
            drop(kCpuOnly);
        else if (duplicates.seenBefore(record))
            drop(kExactDuplicate);
        else
            out.gpuRows.push_back(std::move(row));
    }
    if (reader.error()) {
        issues.push_back(*reader.error());
        return false;
    }
    return ok;
}

} // namespace gpuplan::catalog_import

#include "pricing/catalog_import/skypilot_catalog.h"

#include "pricing/catalog_import/duplicate_rows.h"
#include "pricing/catalog_import/gpu_info.h"
#include "pricing/catalog_import/row_fields.h"

#include <array>

namespace gpuplan::catalog_import {

namespace {

constexpr std::array kColumns {
    ColumnSpec { "InstanceType", true },
    ColumnSpec { "AcceleratorName", true },
    ColumnSpec { "AcceleratorCount", true },
    ColumnSpec { "Price", true },
    ColumnSpec { "Region", true },
    ColumnSpec { "SpotPrice", false },
    ColumnSpec { "GpuInfo", false },
    ColumnSpec { "AvailabilityZone", false },
    ColumnSpec { "vCPUs", false },
    ColumnSpec { "MemoryGiB", false },
    ColumnSpec { "Arch", false },
};

// Column names only a gpuhunt catalog has: a file given with the wrong --from is named so.
bool looksLikeGpuhunt(const CsvRecord& header)
{
    for (const auto& field : header.fields)
        if (toLower(trimmed(field)) == "instance_name")
            return true;
    return false;
}

} // namespace

bool readSkyPilotCatalog(CsvReader& reader, RowsRead& out, std::vector<LoadIssue>& issues)
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
    if (looksLikeGpuhunt(record)) {
        issues.push_back({ LoadIssue::Severity::Error, file, record.line, 1,
            "this is a dstack gpuhunt catalog (it has instance_name): import it with --from "
            "gpuhunt" });
        return false;
    }
    const auto columns
        = CsvColumns::fromHeader(record, kColumns, "a SkyPilot vms.csv", file, issues);
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
        row.instance = fields.text("InstanceType");
        row.gpuName = fields.text("AcceleratorName");
        row.gpuCount = fields.number("AcceleratorCount").value_or(0.0);
        row.onDemandUsd = fields.number("Price");
        row.spotUsd = fields.number("SpotPrice");
        row.region = fields.text("Region");
        row.zone = fields.text("AvailabilityZone");
        const GpuInfo info = parseGpuInfo(fields.text("GpuInfo"));
        row.gpuInfoName = info.name;
        row.memoryGb = memoryReadingsGb(info, row.gpuCount);
        if (!fields.ok()) {
            ok = false;
            continue;
        }
        const bool hasGpu = !row.gpuName.empty() && row.gpuCount > 0.0;
        const auto drop = [&](const std::string& reason) {
            out.dropped.push_back({ record.line, row.instance, row.gpuName, row.region, reason });
        };
        if (row.gpuName.empty() && row.instance.empty()) {
            drop("neither an instance type nor a GPU");
        } else if (!row.gpuName.empty() && row.gpuCount <= 0.0) {
            drop("GPU named without a GPU count");
        } else if (duplicates.seenBefore(record)) {
            drop(kExactDuplicate);
        } else if (!hasGpu) {
            out.hostRows.push_back(std::move(row)); // CPU-only unless a GCP host (decided later)
        } else if (row.instance.empty()) {
            out.acceleratorRows.push_back(std::move(row));
        } else {
            out.gpuRows.push_back(std::move(row));
        }
    }
    if (reader.error()) {
        issues.push_back(*reader.error());
        return false;
    }
    return ok;
}

} // namespace gpuplan::catalog_import

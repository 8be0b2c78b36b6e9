#include "pricing/catalog_import/gpuhunt_catalog.h"

#include "core/limits.h"

#include "pricing/catalog_import/catalog_rows.h"
#include "pricing/catalog_import/duplicate_rows.h"

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

} // namespace

bool readGpuhuntCatalog(CsvReader& reader, RowsRead& out, std::vector<LoadIssue>& issues)
{
    const CatalogFormat format { kColumns, "a gpuhunt catalog", "InstanceType",
        "this is a SkyPilot catalog (it has InstanceType): import it with --from skypilot" };
    DuplicateRows duplicates;
    return readCatalogRows(
        reader, format, out, issues, [&](const CsvRecord& record, RowFields& fields) {
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
            if (!fields.ok())
                return false;
            (*spot ? row.spotUsd : row.onDemandUsd) = price; // gpuhunt lists spot prices as rows
            if (row.instance.empty())
                out.drop(row, "no instance name");
            else if (row.gpuName.empty() || row.gpuCount <= 0.0)
                out.drop(row, kCpuOnly);
            else if (duplicates.seenBefore(record))
                out.drop(row, kExactDuplicate);
            else
                out.gpuRows.push_back(std::move(row));
            return true;
        });
}

} // namespace gpuplan::catalog_import

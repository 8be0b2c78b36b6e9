#include "pricing/catalog_import/skypilot_catalog.h"

#include "pricing/catalog_import/catalog_rows.h"
#include "pricing/catalog_import/duplicate_rows.h"
#include "pricing/catalog_import/gpu_info.h"

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

} // namespace

bool readSkyPilotCatalog(CsvReader& reader, RowsRead& out, std::vector<LoadIssue>& issues)
{
    const CatalogFormat format { kColumns, "a SkyPilot vms.csv", "instance_name",
        "this is a dstack gpuhunt catalog (it has instance_name): import it with --from "
        "gpuhunt" };
    DuplicateRows duplicates;
    return readCatalogRows(
        reader, format, out, issues, [&](const CsvRecord& record, RowFields& fields) {
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
            if (!fields.ok())
                return false;
            const bool hasGpu = !row.gpuName.empty() && row.gpuCount > 0.0;
            if (row.gpuName.empty() && row.instance.empty())
                out.drop(row, "neither an instance type nor a GPU");
            else if (!row.gpuName.empty() && row.gpuCount <= 0.0)
                out.drop(row, "GPU named without a GPU count");
            else if (duplicates.seenBefore(record))
                out.drop(row, kExactDuplicate);
            else if (!hasGpu)
                out.hostRows.push_back(
                    std::move(row)); // CPU-only unless a GCP host (decided later)
            else if (row.instance.empty())
                out.acceleratorRows.push_back(std::move(row));
            else
                out.gpuRows.push_back(std::move(row));
            return true;
        });
}

} // namespace gpuplan::catalog_import

#pragma once

// SkyPilot's catalog files (skypilot-org/skypilot-catalog, catalogs/v7 and v8/<cloud>/vms.csv):
// one row per instance type, region and (for some clouds) availability zone, with
//   InstanceType, AcceleratorName, AcceleratorCount, vCPUs, MemoryGiB, GpuInfo, Price,
//   SpotPrice, Region, AvailabilityZone, Arch (v8)
// in an order that differs per cloud. Rows without an accelerator are CPU-only instances,
// except GCP's GPU hosts, whose GPUs are priced in rows of their own (see gcp_host_vms.h).

#include "pricing/catalog_import/csv_reader.h"
#include "pricing/catalog_import/rows_read.h"

namespace gpuplan::catalog_import {

// Reads every record after the header. False, with the errors in `issues`, when the file is
// malformed: then nothing of it is used.
bool readSkyPilotCatalog(CsvReader& reader, RowsRead& out, std::vector<LoadIssue>& issues);

} // namespace gpuplan::catalog_import

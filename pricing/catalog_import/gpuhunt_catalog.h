#pragma once

// dstack's gpuhunt catalogs (dstackai/gpuhunt, one CSV per provider): one row per instance and
// location, with a spot price in a row of its own (spot=True), columns
//   instance_name, location, price, cpu, memory, gpu_count, gpu_name, gpu_memory, spot,
//   disk_size, gpu_vendor, flags, cpu_arch, provider_data
// (older catalogs stop after spot or disk_size). gpu_memory is one GPU's memory in GB.

#include "pricing/catalog_import/csv_reader.h"
#include "pricing/catalog_import/rows_read.h"

namespace gpuplan::catalog_import {

// Reads every record after the header; each row carries either an on-demand or a spot price,
// joined with its partner row later, when rows are grouped into offers. False, with the errors
// in `issues`, when the file is malformed.
bool readGpuhuntCatalog(CsvReader& reader, RowsRead& out, std::vector<LoadIssue>& issues);

} // namespace gpuplan::catalog_import

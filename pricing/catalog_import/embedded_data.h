#pragma once

// The catalog importer's reference tables, compiled in by pricing/embed_data.cmake from
// pricing/data/gpu-aliases.yaml and gcp-host-vms.yaml. They are not price tables: the
// catalog loader never sees them (shippedDataFiles() does not list them).

#include "pricing/catalog_loader.h"

#include <vector>

namespace gpuplan::catalog_import {

std::vector<DataFile> embeddedGpuAliasFiles();
std::vector<DataFile> embeddedGcpHostVmFiles();

} // namespace gpuplan::catalog_import

#pragma once

// GCP's GPUs in SkyPilot's catalog: an A100, H100, H200, B200 or L4 is priced in a row of its
// own, without an instance type (",,,H100,8,...,us-central1,us-central1-a,33.60609,22.8008"),
// and the VM that carries it (a3-highgpu-8g) in another row without a GPU. Only the sum is
// what a user pays. Which VM carries which GPUs is fixed by Google for these GPUs, and listed
// in pricing/data/gcp-host-vms.yaml (compiled in); GPUs that attach to a VM of the user's
// choice (T4, V100 on N1) have no fixed host, so their VM price is unknown and the row is
// dropped, saying so.

#include "pricing/catalog_import/rows_read.h"
#include "pricing/catalog_loader.h"

#include <string>
#include <vector>

namespace gpuplan::catalog_import {

struct GcpHostVm {
    std::string accelerator; // normalised GPU name (normaliseGpuName)
    int gpus = 0;
    std::vector<std::string> instances; // host VM types, any of which carries these GPUs
};

class GcpHostVmTable {
public:
    static GcpHostVmTable read(const std::vector<DataFile>& files, std::vector<LoadIssue>& issues);
    static const GcpHostVmTable& shipped();

    const GcpHostVm* find(std::string_view accelerator, int gpus) const;
    bool isHost(std::string_view instance) const;
    const std::vector<GcpHostVm>& hosts() const { return m_hosts; }

private:
    std::vector<GcpHostVm> m_hosts;
};

// Adds each accelerator row to the host rows of its VM types in the same region and zone: one
// GPU row per pair (lines: accelerator, host), priced at the sum, a rate only where both rows
// have it. Host rows of a GPU VM left without an accelerator, accelerators without a host,
// and instances that are neither (CPU-only) are dropped with the reason. Empties
// acceleratorRows and hostRows.
void pairGcpAccelerators(RowsRead& rows, const GcpHostVmTable& table);

} // namespace gpuplan::catalog_import

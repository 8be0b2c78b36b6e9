#include "pricing/catalog_import/gcp_host_vms.h"

#include "pricing/catalog_import/embedded_data.h"
#include "pricing/catalog_import/gpu_aliases.h"
#include "pricing/catalog_import/row_fields.h"
#include "pricing/yaml_reader.h"

#include <algorithm>
#include <unordered_map>

namespace gpuplan::catalog_import {

namespace {

constexpr std::string_view kKind = "gpuplan-gcp-host-vms";

// The VM's rate: host + GPUs where both rows have one. A 0 in either is a placeholder (SkyPilot
// writes 0.0 for a4-highgpu-8g's host), never a free VM, so there is no total then.
std::optional<double> total(const std::optional<double>& host, const std::optional<double>& gpus)
{
    if (host && gpus && *host > 0.0 && *gpus > 0.0)
        return *host + *gpus;
    return std::nullopt;
}

bool notBelow(const std::optional<double>& spot, const std::optional<double>& onDemand)
{
    return spot && onDemand && *spot >= *onDemand;
}

bool isPlaceholder(const std::optional<double>& rate)
{
    return !rate || *rate == 0.0;
}

std::string placeKey(std::string_view instance, std::string_view region, std::string_view zone)
{
    std::string key;
    key.append(instance).append(1, '\n').append(region).append(1, '\n').append(zone);
    return key;
}

} // namespace

GcpHostVmTable GcpHostVmTable::read(
    const std::vector<DataFile>& files, std::vector<LoadIssue>& issues)
{
    GcpHostVmTable table;
    for (const auto& file : files) {
        yaml::Reader reader(file.name, issues);
        const auto root = reader.parse(file.text);
        if (!root)
            continue;
        reader.warnUnknownKeys(*root,
            { "schema_version", "kind", "title", "description", "source", "hosts" }, "the file");
        if (const auto kind = reader.string(*root, "kind", "the host VM file");
            kind && *kind != kKind)
            reader.error(
                (*root)["kind"], "kind must be '" + std::string(kKind) + "', not '" + *kind + "'");
        const YAML::Node list = (*root)["hosts"];
        if (!list || !reader.expectSequence(list, "hosts"))
            continue;
        for (const auto& entry : list) {
            if (!reader.expectMap(entry, "a host VM entry"))
                continue;
            const auto errorsBefore = reader.errorCount();
            reader.warnUnknownKeys(
                entry, { "accelerator", "gpus", "instances" }, "a host VM entry");
            GcpHostVm host;
            host.accelerator = normaliseGpuName(
                reader.string(entry, "accelerator", "a host VM entry").value_or(""));
            host.gpus = static_cast<int>(
                reader.integer(entry, "gpus", "a host VM entry", limits::kGpusPerInstance.bounds)
                    .value_or(0));
            if (const YAML::Node instances = entry["instances"];
                instances && reader.expectSequence(instances, "instances"))
                for (const auto& instance : instances)
                    if (instance.IsScalar())
                        host.instances.push_back(instance.Scalar());
            if (host.instances.empty())
                reader.error(entry, "a host VM entry needs at least one instance type");
            if (reader.errorCount() == errorsBefore)
                table.m_hosts.push_back(std::move(host));
        }
    }
    return table;
}

const GcpHostVmTable& GcpHostVmTable::shipped()
{
    static const GcpHostVmTable table = [] {
        std::vector<LoadIssue> issues;
        return read(embeddedGcpHostVmFiles(), issues);
    }();
    return table;
}

const GcpHostVm* GcpHostVmTable::find(std::string_view accelerator, int gpus) const
{
    const std::string name = normaliseGpuName(accelerator);
    for (const auto& host : m_hosts)
        if (host.accelerator == name && host.gpus == gpus)
            return &host;
    return nullptr;
}

bool GcpHostVmTable::isHost(std::string_view instance) const
{
    return std::any_of(m_hosts.begin(), m_hosts.end(), [&](const GcpHostVm& host) {
        return std::find(host.instances.begin(), host.instances.end(), instance)
            != host.instances.end();
    });
}

void pairGcpAccelerators(RowsRead& rows, const GcpHostVmTable& table)
{
    std::vector<bool> hostUsed(rows.hostRows.size(), false);
    std::unordered_map<std::string, std::vector<std::size_t>> hostsByPlace;
    for (std::size_t i = 0; i < rows.hostRows.size(); ++i) {
        const CatalogRow& vm = rows.hostRows[i];
        hostsByPlace[placeKey(vm.instance, vm.region, vm.zone)].push_back(i);
    }
    for (const CatalogRow& accelerator : rows.acceleratorRows) {
        // Bounded before the conversion: a count of 1e90 does not fit an int (found by
        // fuzz_catalog_import; tests/catalog_import/data/regression-fuzz-gpu-count-overflow).
        const bool plausible = isWholeCount(accelerator.gpuCount)
            && limits::kGpusPerInstance.bounds.contains(accelerator.gpuCount);
        const GcpHostVm* host = plausible
            ? table.find(accelerator.gpuName, static_cast<int>(accelerator.gpuCount))
            : nullptr;
        if (!host) {
            rows.drop(accelerator,
                "GPU row without an instance type, and no fixed GCP host VM for it: the VM's "
                "price is unknown");
            continue;
        }
        bool paired = false;
        std::vector<std::size_t> vms;
        for (const auto& instance : host->instances) {
            const auto found
                = hostsByPlace.find(placeKey(instance, accelerator.region, accelerator.zone));
            if (found != hostsByPlace.end())
                vms.insert(vms.end(), found->second.begin(), found->second.end());
        }
        for (std::size_t i : vms) {
            const CatalogRow& vm = rows.hostRows[i];
            hostUsed[i] = true;
            paired = true;
            CatalogRow row = accelerator;
            row.instance = vm.instance;
            row.lines = { accelerator.line(), vm.line() };
            if (isPlaceholder(vm.onDemandUsd) && isPlaceholder(vm.spotUsd)) {
                rows.drop(row,
                    "GCP host VM priced 0 or not at all (a placeholder): the VM's total is "
                    "unknown");
                continue;
            }
            row.onDemandUsd = total(vm.onDemandUsd, accelerator.onDemandUsd);
            row.spotUsd = total(vm.spotUsd, accelerator.spotUsd);
            // A part whose spot rate is not below its own on-demand rate (GCP lists H200 spot
            // above on-demand in some regions) makes the sum's spot rate meaningless too.
            if (row.spotUsd
                && (notBelow(accelerator.spotUsd, accelerator.onDemandUsd)
                    || notBelow(vm.spotUsd, vm.onDemandUsd))) {
                row.spotUsd.reset();
                rows.adjusted.push_back({ row.line(),
                    "spot rate left out: the GCP GPU or host VM row's spot rate is not below its "
                    "on-demand rate" });
            } else if (!row.spotUsd && (accelerator.spotUsd || vm.spotUsd))
                rows.adjusted.push_back({ row.line(),
                    "spot rate left out: the GCP host VM or its GPUs have no spot rate (or 0)" });
            if (!row.onDemandUsd && (accelerator.onDemandUsd || vm.onDemandUsd))
                rows.adjusted.push_back({ row.line(),
                    "on-demand rate left out: the GCP host VM or its GPUs have no on-demand rate "
                    "(or 0)" });
            rows.gpuRows.push_back(std::move(row));
        }
        if (!paired)
            rows.drop(
                accelerator, "GCP GPU row without its host VM's row in the same region and zone");
    }
    for (std::size_t i = 0; i < rows.hostRows.size(); ++i) {
        if (hostUsed[i])
            continue;
        const CatalogRow& vm = rows.hostRows[i];
        rows.drop(vm,
            table.isHost(vm.instance) ? "GCP GPU host VM without its GPU row in the same zone"
                                      : kCpuOnly);
    }
    rows.acceleratorRows.clear();
    rows.hostRows.clear();
}

} // namespace gpuplan::catalog_import

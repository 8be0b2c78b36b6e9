#pragma once

// The GPU alias table (pricing/data/gpu-aliases.yaml, compiled in): which gpuplan GPU id a
// catalog's GPU name stands for. Catalogs collapse variants into one name (SkyPilot writes
// "H100" for SXM, PCIe and NVL boards alike), so an alias may also require a memory size and
// one of a set of tokens of the instance or GPU name ("sxm5", "pcie", "p5"), or exclude tokens
// ("ti": an RTX 3090 Ti is not an RTX 3090). A row maps only when exactly one GPU id fits it;
// otherwise it is dropped with the reason, and its GPU is listed as unmapped: never guessed.

#include "pricing/catalog_loader.h"
#include "pricing/load_issue.h"

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::catalog_import {

struct GpuAlias {
    std::string gpuId;
    std::vector<std::string> names; // normalised (see normaliseGpuName)
    std::optional<double> minMemoryGb;
    std::optional<double> maxMemoryGb;
    std::vector<std::string> tokens; // any one of them must be present (none listed: no need)
    std::vector<std::string> excludeTokens; // none of them may be present
    int layer = 0; // which file it came from: a later file's aliases of a name replace earlier ones
};

// What identifies a row's GPU.
struct GpuEvidence {
    std::string name; // the catalog's GPU name
    std::string otherName; // a second name for the same GPU (SkyPilot's GpuInfo), or empty
    std::string instance;
    std::vector<double> memoryGb; // readings of one GPU's memory (catalog_row.h)
};

struct GpuMatch {
    std::string gpuId; // empty when the row maps to no GPU id
    std::string reason; // why not, worded the same for every row of the same GPU
};

class GpuAliasTable {
public:
    // Reads alias files in order (the shipped table first); issues carry file:line:column.
    // Where a later file has aliases for a name, only those are used for it: a user's file
    // overrides the shipped table name by name.
    static GpuAliasTable read(const std::vector<DataFile>& files, std::vector<LoadIssue>& issues);
    // The compiled-in table; an error in it is a bug caught by the tests.
    static const GpuAliasTable& shipped();

    GpuMatch match(const GpuEvidence& evidence) const;
    const std::vector<GpuAlias>& aliases() const { return m_aliases; }
    std::set<std::string> gpuIds() const;

private:
    std::vector<GpuAlias> m_aliases;
};

// "H100 SXM", "h100-sxm", "H100_SXM" -> "H100SXM": upper-case letters and digits only.
std::string normaliseGpuName(std::string_view name);
// "gpu_1x_h100_sxm5" -> {gpu, 1x, h100, sxm5}: lower-case runs of letters and digits.
std::vector<std::string> nameTokens(std::string_view text);

} // namespace gpuplan::catalog_import

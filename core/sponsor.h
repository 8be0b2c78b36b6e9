#pragma once

// A sponsor's budget rules: what counts as equipment, and which categories of cost carry the
// institution's indirect (F&A) rate. Presets are data (pricing/data/sponsors.yaml and the
// user's own files), not code.

#include "core/provenance.h"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gpuplan {

// The categories a grant budget form asks for, as far as computing is concerned.
enum class BudgetCategory : std::size_t {
    Equipment, // a machine at or above the sponsor's equipment threshold
    Supplies, // a machine below it (computing devices below the threshold are supplies)
    Energy, // electricity for the runs, PUE included
    Hosting, // colocation or machine-room fees
    Support, // a vendor's support contract
    Staff, // staff time to run the machine (salary)
    Fringe, // fringe benefits on that staff time
    ComputingServices, // cloud, campus recharge; an allocation is listed at no cash
};
inline constexpr std::size_t kBudgetCategoryCount = 8;

std::string_view toString(BudgetCategory category); // "equipment", "computing_services", ...
std::optional<BudgetCategory> budgetCategoryFromString(std::string_view text);

struct SponsorRules {
    std::string id; // "us-federal"
    std::string name; // "US federal (NSF/NIH style)"
    // Per-unit acquisition cost from which a machine is equipment; below it, supplies.
    double equipmentThresholdUsd = 0.0;
    // By category: whether the indirect rate applies to it.
    std::array<bool, kBudgetCategoryCount> carriesIndirect {};
    Provenance source;

    bool carries(BudgetCategory c) const { return carriesIndirect[static_cast<std::size_t>(c)]; }
};

} // namespace gpuplan

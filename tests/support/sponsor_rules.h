#pragma once

// US federal budget rules as pricing/data/sponsors.yaml ships them, for core tests that build
// their own catalogs: equipment from $5,000 exempt, every other category in the F&A base.

#include "core/sponsor.h"

namespace gpuplan::test {

inline SponsorRules usFederal()
{
    SponsorRules s;
    s.id = "us-federal";
    s.name = "US federal";
    s.equipmentThresholdUsd = 5000;
    for (auto c : { BudgetCategory::Supplies, BudgetCategory::Energy, BudgetCategory::Hosting,
             BudgetCategory::Support, BudgetCategory::Staff, BudgetCategory::Fringe,
             BudgetCategory::ComputingServices })
        s.carriesIndirect[static_cast<std::size_t>(c)] = true;
    return s;
}

} // namespace gpuplan::test

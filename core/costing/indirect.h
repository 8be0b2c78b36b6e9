#pragma once

// Which costs carry the institution's indirect (F&A) rate: the sponsor's rules applied to a
// direct cost. The per-run costs, break-evens and plans use these as the grant budget does, so
// that a report's verdict and its budget weigh F&A alike.

#include "core/assumptions.h"
#include "core/sponsor.h"

namespace gpuplan {

// The rules where no sponsor is named: F&A on computing services (cloud, campus recharge) only,
// every machine equipment exempt from the base. A scenario without a sponsor, and a catalog
// without sponsors' rules, use them.
SponsorRules cloudSpendOnlyRules();

// Whether a machine is equipment under the sponsor's rules: its unit acquisition cost, to the
// cent, at or above the equipment threshold (2 CFR 200.1: a per-unit acquisition cost that
// equals or exceeds it). Below it, supplies, though the budget may print it rounded up to the
// threshold ($4,999.50 as $5,000): until 2026-12-07 the rounded figure was compared, and a
// machine a cent below the threshold was exempted from F&A as equipment (review).
bool budgetedAsEquipment(double machineCostUsd, const SponsorRules& sponsor);

// Equipment or supplies, as budgetedAsEquipment says.
BudgetCategory machineCategory(double machineCostUsd, const SponsorRules& sponsor);

// The indirect rate on a category: assumptions.indirectRate where the sponsor's rules put the
// category in the base, else 0.
double indirectRateOn(BudgetCategory category, const SponsorRules& sponsor, const Assumptions& a);

// What a direct cost of a category costs the grant: the indirect rate added where it applies.
double withIndirectUsd(
    double directUsd, BudgetCategory category, const SponsorRules& sponsor, const Assumptions& a);

} // namespace gpuplan

#include "core/costing/indirect.h"

namespace gpuplan {

SponsorRules cloudSpendOnlyRules()
{
    SponsorRules rules;
    rules.id = "cloud-spend-only";
    rules.name = "no sponsor's rules loaded";
    rules.equipmentThresholdUsd = 0.0;
    rules.carriesIndirect[static_cast<std::size_t>(BudgetCategory::ComputingServices)] = true;
    return rules;
}

bool budgetedAsEquipment(double machineCostUsd, const SponsorRules& sponsor)
{
    return machineCostUsd >= sponsor.equipmentThresholdUsd;
}

BudgetCategory machineCategory(double machineCostUsd, const SponsorRules& sponsor)
{
    return budgetedAsEquipment(machineCostUsd, sponsor) ? BudgetCategory::Equipment
                                                        : BudgetCategory::Supplies;
}

double indirectRateOn(BudgetCategory category, const SponsorRules& sponsor, const Assumptions& a)
{
    return sponsor.carries(category) ? a.indirectRate : 0.0;
}

double withIndirectUsd(
    double directUsd, BudgetCategory category, const SponsorRules& sponsor, const Assumptions& a)
{
    return directUsd * (1.0 + indirectRateOn(category, sponsor, a));
}

} // namespace gpuplan

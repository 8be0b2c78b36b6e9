#include "core/sponsor.h"

namespace gpuplan {

namespace {
constexpr std::array<std::string_view, kBudgetCategoryCount> kCategoryKeys { "equipment",
    "supplies", "energy", "hosting", "support", "staff", "fringe", "computing_services" };
} // namespace

std::string_view toString(BudgetCategory category)
{
    return kCategoryKeys[static_cast<std::size_t>(category)];
}

std::optional<BudgetCategory> budgetCategoryFromString(std::string_view text)
{
    for (std::size_t i = 0; i < kCategoryKeys.size(); ++i)
        if (kCategoryKeys[i] == text)
            return static_cast<BudgetCategory>(i);
    return std::nullopt;
}

} // namespace gpuplan

#include "core/assumption_table.h"

namespace gpuplan {

std::optional<AssumptionId> assumptionFromKey(std::string_view key)
{
    for (const auto& spec : kAssumptionSpecs)
        if (spec.key == key)
            return spec.id;
    return std::nullopt;
}

std::vector<std::string_view> assumptionKeys()
{
    std::vector<std::string_view> keys;
    for (const auto& spec : kAssumptionSpecs)
        keys.push_back(spec.key);
    return keys;
}

} // namespace gpuplan

#include "core/provenance.h"

#include <array>
#include <utility>

namespace gpuplan {

namespace {
constexpr std::array<std::pair<PriceKind, std::string_view>, 4> kKinds { {
    { PriceKind::Quote, "quote" },
    { PriceKind::List, "list" },
    { PriceKind::Street, "street" },
    { PriceKind::Resale, "resale" },
} };
} // namespace

std::string_view toString(PriceKind kind)
{
    for (const auto& [value, name] : kKinds)
        if (value == kind)
            return name;
    return "";
}

std::optional<PriceKind> priceKindFromString(std::string_view text)
{
    for (const auto& [value, name] : kKinds)
        if (name == text)
            return value;
    return std::nullopt;
}

} // namespace gpuplan

#include "core/cloud_offer.h"

#include <array>
#include <utility>

namespace gpuplan {

namespace {
constexpr std::array<std::pair<OfferKind, std::string_view>, 3> kKinds { {
    { OfferKind::Cloud, "cloud" },
    { OfferKind::Campus, "campus" },
    { OfferKind::Allocation, "allocation" },
} };
} // namespace

std::string_view toString(OfferKind kind)
{
    for (const auto& [value, name] : kKinds)
        if (value == kind)
            return name;
    return "cloud";
}

std::optional<OfferKind> offerKindFromString(std::string_view text)
{
    for (const auto& [value, name] : kKinds)
        if (name == text)
            return value;
    return std::nullopt;
}

bool sameInstance(const CloudOffer& a, const CloudOffer& b)
{
    return a.provider == b.provider && a.gpuId == b.gpuId && a.gpusPerInstance == b.gpusPerInstance
        && a.region == b.region;
}

} // namespace gpuplan

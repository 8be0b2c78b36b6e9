#include "core/catalog.h"

#include <algorithm>

namespace gpuplan {

namespace {
template <typename T> const T* findById(const std::vector<T>& items, std::string_view id)
{
    auto it = std::find_if(items.begin(), items.end(), [id](const T& t) { return t.id == id; });
    return it == items.end() ? nullptr : &*it;
}
} // namespace

const GpuSpec* Catalog::findGpu(std::string_view id) const
{
    return findById(gpus, id);
}
const ChassisSpec* Catalog::findChassis(std::string_view id) const
{
    return findById(chassis, id);
}
const Workload* Catalog::findWorkload(std::string_view id) const
{
    return findById(workloads, id);
}
const CloudOffer* Catalog::findCloudOffer(std::string_view id) const
{
    return findById(cloudOffers, id);
}

const SponsorRules* Catalog::findSponsor(std::string_view id) const
{
    return findById(sponsors, id);
}

std::string Catalog::defaultSponsorId() const
{
    if (findSponsor("us-federal"))
        return "us-federal";
    return sponsors.empty() ? std::string() : sponsors.front().id;
}

} // namespace gpuplan

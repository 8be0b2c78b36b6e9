#include "pricing/catalog_import/import_options.h"

#include "pricing/catalog_import/offer_ids.h"
#include "pricing/yaml_reader.h"

#include <filesystem>

namespace gpuplan::catalog_import {

namespace {
constexpr std::size_t kMaxProviderLength = 40; // leaves room in a 64-character id
} // namespace

std::optional<std::string> checkOptions(const ImportOptions& o, const std::string& today)
{
    if (o.provider.empty())
        return "say whose catalog it is with a provider name (e.g. AWS)";
    if (o.provider.size() > kMaxProviderLength)
        return "the provider name is longer than " + std::to_string(kMaxProviderLength)
            + " characters";
    if (sanitisedIdPart(o.provider).empty())
        return "the provider name '" + o.provider + "' holds no letter or digit";
    if (o.date.size() != 10 || !yaml::isIsoDate(o.date))
        return "the date must be YYYY-MM-DD (when the catalog's prices were collected), not '"
            + o.date + "'";
    if (!today.empty() && o.date > today) // ISO dates compare as text
        return "the date " + o.date + " is after today (" + today
            + "): give the day the catalog's prices were collected";
    if (!o.region.empty() && o.aggregate != RegionAggregate::None)
        return "choose one region or an aggregate of all regions, not both";
    return std::nullopt;
}

std::optional<CatalogFormat> formatFromName(std::string_view name)
{
    if (name == "skypilot")
        return CatalogFormat::SkyPilot;
    if (name == "gpuhunt")
        return CatalogFormat::Gpuhunt;
    return std::nullopt;
}

std::string_view formatName(CatalogFormat format)
{
    return format == CatalogFormat::SkyPilot ? "skypilot" : "gpuhunt";
}

std::string_view formatTitle(CatalogFormat format)
{
    return format == CatalogFormat::SkyPilot ? "SkyPilot vms.csv" : "dstack gpuhunt catalog";
}

std::optional<RegionAggregate> aggregateFromName(std::string_view name)
{
    if (name == "cheapest")
        return RegionAggregate::Cheapest;
    if (name == "median")
        return RegionAggregate::Median;
    return std::nullopt;
}

std::string_view aggregateName(RegionAggregate aggregate)
{
    switch (aggregate) {
    case RegionAggregate::None:
        break;
    case RegionAggregate::Cheapest:
        return "cheapest";
    case RegionAggregate::Median:
        return "median";
    }
    return "none";
}

std::string offerSource(const ImportOptions& o, const std::string& fileName)
{
    std::string source = o.provider + " rates in " + fileName + " ("
        + std::string(formatTitle(o.format)) + ") as of " + o.date;
    if (!o.region.empty())
        source += "; region " + o.region + " only";
    if (o.aggregate == RegionAggregate::Cheapest)
        source += "; one offer per instance type: the cheapest of its regions";
    if (o.aggregate == RegionAggregate::Median)
        source += "; one offer per instance type: the median of its regions";
    return source;
}

std::string importedFileName(const ImportOptions& o, const std::string& fileName)
{
    const std::string stem = sanitisedIdPart(std::filesystem::path(fileName).stem().string());
    std::string name = sanitisedIdPart(o.provider);
    if (!stem.empty())
        name += "-" + stem;
    if (!o.region.empty())
        name += "-" + sanitisedIdPart(o.region);
    if (o.aggregate != RegionAggregate::None)
        name += "-" + std::string(aggregateName(o.aggregate));
    return name + "-" + o.date + ".yaml";
}

} // namespace gpuplan::catalog_import

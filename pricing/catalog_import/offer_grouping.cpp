#include "pricing/catalog_import/offer_grouping.h"

#include "pricing/catalog_import/rate_checks.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace gpuplan::catalog_import {

namespace {

// A rate of one region and where it came from.
struct RegionalRate {
    double usd = 0.0;
    std::string region;
};

struct Regional {
    OfferDraft draft;
    std::set<std::string> zones;
};

void sortUnique(std::vector<int>& lines)
{
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
}

void keepCheapest(std::optional<double>& into, const std::optional<double>& rate)
{
    if (rate && (!into || *rate < *into))
        into = rate;
}

std::optional<double> median(std::vector<double> values)
{
    if (values.empty())
        return std::nullopt;
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

// One offer per instance type and region; each rate the cheapest of the region's rows.
std::vector<Regional> byRegion(const std::vector<MappedRow>& rows)
{
    std::vector<Regional> regional;
    std::map<std::tuple<std::string, std::string, int, std::string>, std::size_t> index;
    for (const MappedRow& mapped : rows) {
        const CatalogRow& row = mapped.row;
        const auto key = std::make_tuple(row.instance, mapped.gpuId, mapped.gpus, row.region);
        auto [it, added] = index.emplace(key, regional.size());
        if (added) {
            Regional r;
            r.draft.instance = row.instance;
            r.draft.gpuId = mapped.gpuId;
            r.draft.gpus = mapped.gpus;
            r.draft.region = row.region;
            regional.push_back(std::move(r));
        }
        Regional& r = regional[it->second];
        keepCheapest(r.draft.onDemandUsd, row.onDemandUsd);
        keepCheapest(r.draft.spotUsd, row.spotUsd);
        r.draft.lines.insert(r.draft.lines.end(), row.lines.begin(), row.lines.end());
        if (!row.zone.empty())
            r.zones.insert(row.zone);
    }
    for (Regional& r : regional)
        if (r.zones.size() > 1)
            r.draft.note = "each rate the cheapest of " + std::to_string(r.zones.size())
                + " availability zones";
    return regional;
}

std::string aggregateNote(RegionAggregate aggregate, const std::vector<RegionalRate>& onDemand,
    const std::vector<RegionalRate>& spot)
{
    const auto part = [&](const char* which, const std::vector<RegionalRate>& rates) {
        if (rates.empty())
            return std::string();
        std::string text = std::string(which) + ": ";
        if (aggregate == RegionAggregate::Median)
            return text + "median of " + std::to_string(rates.size())
                + (rates.size() == 1 ? " region" : " regions");
        const auto cheapest = std::min_element(rates.begin(), rates.end(),
            [](const RegionalRate& a, const RegionalRate& b) { return a.usd < b.usd; });
        return text + "cheapest of " + std::to_string(rates.size())
            + (rates.size() == 1 ? " region (" : " regions (") + cheapest->region + ")";
    };
    const std::string first = part("on-demand", onDemand);
    const std::string second = part("spot", spot);
    return first.empty() ? second : second.empty() ? first : first + "; " + second;
}

std::vector<OfferDraft> acrossRegions(std::vector<Regional> regional, RegionAggregate aggregate)
{
    struct Combined {
        OfferDraft draft;
        std::vector<RegionalRate> onDemand;
        std::vector<RegionalRate> spot;
    };
    std::vector<Combined> combined;
    std::map<std::tuple<std::string, std::string, int>, std::size_t> index;
    for (Regional& r : regional) {
        const auto key = std::make_tuple(r.draft.instance, r.draft.gpuId, r.draft.gpus);
        auto [it, added] = index.emplace(key, combined.size());
        if (added) {
            Combined c;
            c.draft.instance = r.draft.instance;
            c.draft.gpuId = r.draft.gpuId;
            c.draft.gpus = r.draft.gpus;
            combined.push_back(std::move(c));
        }
        Combined& c = combined[it->second];
        if (r.draft.onDemandUsd)
            c.onDemand.push_back({ *r.draft.onDemandUsd, r.draft.region });
        if (r.draft.spotUsd)
            c.spot.push_back({ *r.draft.spotUsd, r.draft.region });
        c.draft.lines.insert(c.draft.lines.end(), r.draft.lines.begin(), r.draft.lines.end());
    }
    std::vector<OfferDraft> drafts;
    for (Combined& c : combined) {
        const auto combine = [&](const std::vector<RegionalRate>& rates) -> std::optional<double> {
            std::vector<double> values;
            for (const auto& rate : rates)
                values.push_back(rate.usd);
            if (aggregate == RegionAggregate::Median)
                return median(values);
            if (values.empty())
                return std::nullopt;
            return *std::min_element(values.begin(), values.end());
        };
        c.draft.onDemandUsd = combine(c.onDemand);
        c.draft.spotUsd = combine(c.spot);
        c.draft.note = aggregateNote(aggregate, c.onDemand, c.spot);
        sortUnique(c.draft.lines);
        drafts.push_back(std::move(c.draft));
    }
    return drafts;
}

} // namespace

std::vector<OfferDraft> groupIntoOffers(const std::vector<MappedRow>& rows,
    RegionAggregate aggregate, std::vector<AdjustedRow>& adjusted)
{
    std::vector<Regional> regional = byRegion(rows);
    std::vector<OfferDraft> drafts;
    if (aggregate == RegionAggregate::None) {
        for (Regional& r : regional) {
            sortUnique(r.draft.lines);
            drafts.push_back(std::move(r.draft));
        }
    } else {
        drafts = acrossRegions(std::move(regional), aggregate);
    }
    for (OfferDraft& draft : drafts)
        if (dropSpotNotBelowOnDemand(draft.spotUsd, draft.onDemandUsd))
            adjusted.push_back({ draft.lines.front(), kSpotNotBelowOnDemand });
    return drafts;
}

} // namespace gpuplan::catalog_import

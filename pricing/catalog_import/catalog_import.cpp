#include "pricing/catalog_import/catalog_import.h"

#include "core/limits.h"
#include "pricing/catalog_import/csv_columns.h"
#include "pricing/catalog_import/csv_reader.h"
#include "pricing/catalog_import/gpuhunt_catalog.h"
#include "pricing/catalog_import/offer_ids.h"
#include "pricing/catalog_import/rate_checks.h"
#include "pricing/catalog_import/row_fields.h"
#include "pricing/catalog_import/skypilot_catalog.h"
#include "pricing/text_checks.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace gpuplan::catalog_import {

namespace {

// The GPU of each row, or the reason there is none; rows dropped here name their GPU in the
// summary's list of unmapped GPUs.
std::vector<MappedRow> mapGpus(
    RowsRead& rows, const ImportTables& tables, std::map<std::string, int>& unmapped)
{
    std::vector<MappedRow> mapped;
    for (CatalogRow& row : rows.gpuRows) {
        if (!isWholeCount(row.gpuCount)) {
            rows.drop(row, "a fraction of a GPU: gpuplan prices whole GPUs");
            continue;
        }
        if (!limits::kGpusPerInstance.bounds.contains(row.gpuCount)) {
            rows.drop(row,
                "more GPUs per instance than the plausible "
                    + std::to_string(static_cast<int>(limits::kGpusPerInstance.bounds.max)));
            continue;
        }
        const GpuMatch match
            = tables.aliases.match({ row.gpuName, row.gpuInfoName, row.instance, row.memoryGb });
        std::string reason = match.reason;
        if (match.reason.empty() && !tables.knownGpuIds.count(match.gpuId))
            reason = "GPU '" + row.gpuName + "' maps to " + match.gpuId
                + ", which the loaded price tables do not define";
        if (!reason.empty()) {
            // Memory only where the catalog's reading is unambiguous (gpu_info.h).
            std::string name = row.gpuName;
            if (row.memoryGb.size() == 1)
                name += " (" + std::to_string(static_cast<int>(std::lround(row.memoryGb.front())))
                    + " GB)";
            ++unmapped[name];
            rows.drop(row, reason);
            continue;
        }
        const int gpus = static_cast<int>(row.gpuCount);
        mapped.push_back({ std::move(row), match.gpuId, gpus });
    }
    rows.gpuRows.clear();
    return mapped;
}

bool sameRegion(const std::string& a, const std::string& b)
{
    return toLower(trimmed(a)) == toLower(trimmed(b));
}

CloudOffer toOffer(const OfferDraft& draft, const std::string& id, const ImportOptions& options,
    const std::string& source)
{
    CloudOffer offer;
    offer.id = id;
    offer.provider = options.provider;
    offer.instance = draft.instance;
    offer.gpuId = draft.gpuId;
    offer.gpusPerInstance = draft.gpus;
    offer.region = draft.region;
    offer.onDemandUsdPerHour = draft.onDemandUsd;
    offer.spotUsdPerHour = draft.spotUsd;
    offer.source = { options.date, source, draft.note };
    return offer;
}

// The summary's accounting: a line that went into an offer is kept, whatever else happened to
// it (a GCP accelerator line is dropped with one host VM and kept with another); every other
// line read is dropped once, with the first reason found.
void account(CatalogImport& result, RowsRead& rows, const std::map<std::string, int>& unmapped)
{
    std::set<int> kept;
    for (const auto& offer : result.offers)
        kept.insert(offer.lines.begin(), offer.lines.end());
    std::sort(rows.dropped.begin(), rows.dropped.end(),
        [](const DroppedRow& a, const DroppedRow& b) { return a.line < b.line; });
    std::set<int> dropped;
    for (auto& row : rows.dropped)
        if (!kept.count(row.line) && dropped.insert(row.line).second)
            result.summary.dropped.push_back(std::move(row));
    for (auto& row : rows.adjusted)
        if (kept.count(row.line))
            result.summary.adjusted.push_back(std::move(row));
    std::stable_sort(result.summary.adjusted.begin(), result.summary.adjusted.end(),
        [](const AdjustedRow& a, const AdjustedRow& b) { return a.line < b.line; });
    result.summary.rowsRead = rows.rowsRead;
    result.summary.rowsKept = static_cast<int>(kept.size());
    for (const auto& [name, count] : unmapped)
        result.summary.unmapped.push_back({ name, count });
    std::stable_sort(result.summary.unmapped.begin(), result.summary.unmapped.end(),
        [](const UnmappedGpu& a, const UnmappedGpu& b) { return a.rows > b.rows; });
}

} // namespace

CatalogImport importCatalog(std::string_view text, const std::string& fileName,
    const ImportOptions& options, const ImportTables& tables)
{
    CatalogImport result;
    result.summary.file = fileName;
    if (auto junk = findBinaryJunk(text, fileName)) {
        result.issues.push_back(std::move(*junk));
        return result;
    }
    RowsRead rows;
    CsvReader reader(text, fileName);
    const bool read = options.format == CatalogFormat::SkyPilot
        ? readSkyPilotCatalog(reader, rows, result.issues)
        : readGpuhuntCatalog(reader, rows, result.issues);
    if (!read)
        return result;
    pairGcpAccelerators(rows, tables.hosts);
    for (const CatalogRow& row : rows.gpuRows)
        if (std::find(result.regions.begin(), result.regions.end(), row.region)
            == result.regions.end())
            result.regions.push_back(row.region);

    if (!options.region.empty()) {
        std::vector<CatalogRow> inRegion;
        for (CatalogRow& row : rows.gpuRows) {
            if (sameRegion(row.region, options.region))
                inRegion.push_back(std::move(row));
            else
                rows.drop(row, "not in region " + options.region);
        }
        rows.gpuRows = std::move(inRegion);
    }

    std::map<std::string, int> unmapped;
    std::vector<MappedRow> priced;
    for (MappedRow& mapped : mapGpus(rows, tables, unmapped)) {
        if (auto reason = checkRates(mapped.row, mapped.gpus, rows.adjusted))
            rows.drop(mapped.row, *reason);
        else
            priced.push_back(std::move(mapped));
    }

    const std::vector<OfferDraft> drafts
        = groupIntoOffers(priced, options.aggregate, rows.adjusted);
    std::vector<OfferKey> keys;
    for (const auto& draft : drafts)
        keys.push_back({ draft.instance, draft.region });
    const std::vector<std::string> ids = makeOfferIds(options.provider, keys);
    const std::string source = offerSource(options, fileName);
    for (std::size_t i = 0; i < drafts.size(); ++i)
        result.offers.push_back({ toOffer(drafts[i], ids[i], options, source), drafts[i].lines });
    account(result, rows, unmapped);
    return result;
}

} // namespace gpuplan::catalog_import

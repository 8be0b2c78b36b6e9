#include "pricing/catalog_import/imported_table.h"

#include "pricing/scenario/price_table_writer.h"
#include "pricing/yaml_reader.h"

namespace gpuplan::catalog_import {

std::string writeImportedTable(
    const CatalogImport& result, const ImportOptions& options, const std::string& fileName)
{
    std::vector<CloudOffer> offers;
    for (const auto& imported : result.offers)
        offers.push_back(imported.offer);
    const std::string title = options.provider + " cloud offers from " + fileName + " ("
        + std::string(formatTitle(options.format)) + "), as of " + options.date;
    const std::string description = "Imported by gpuplan: "
        + counted(static_cast<std::size_t>(result.summary.rowsRead), "row", "rows") + " read, "
        + std::to_string(result.summary.rowsKept) + " kept in "
        + counted(result.offers.size(), "offer", "offers") + ", "
        + std::to_string(result.summary.dropped.size())
        + " dropped. Rates are USD per instance-hour.";
    return writeCloudOfferTable(offers, title, description);
}

std::optional<std::string> checkImportSize(const CatalogImport& result, const std::string& yamlText)
{
    if (result.offers.empty())
        return std::string("no offer to import: every row was dropped (see the summary)");
    if (result.offers.size() > yaml::kMaxEntries)
        return std::to_string(result.offers.size()) + " offers, more than the "
            + std::to_string(yaml::kMaxEntries)
            + " a price table may hold: keep one region or aggregate the regions";
    if (yamlText.size() > yaml::kMaxFileBytes)
        return "the price table would be " + std::to_string(yamlText.size())
            + " bytes, more than the " + std::to_string(yaml::kMaxFileBytes)
            + " a price table may have: keep one region or aggregate the regions";
    return std::nullopt;
}

std::vector<LoadIssue> checkImportedTable(std::vector<DataFile> base, const DataFile& imported)
{
    base.push_back(imported);
    const CatalogLoad load = loadCatalog(base);
    std::vector<LoadIssue> own;
    for (const auto& issue : load.issues)
        if (issue.file == imported.name)
            own.push_back(issue);
    return own;
}

} // namespace gpuplan::catalog_import

#include "pricing/catalog_loader.h"

#include "pricing/text_file.h"

#include "pricing/section_readers.h"
#include "pricing/yaml_reader.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace gpuplan {

namespace {

constexpr std::string_view kShipped = "shipped:";
constexpr std::string_view kPriceSetsDir = "price-sets/";

// "paper" for "shipped:price-sets/paper/cloud.yaml"; nothing for a shared or a user file.
std::optional<std::string> priceSetOf(const DataFile& file)
{
    const std::string prefix = std::string(kShipped) + std::string(kPriceSetsDir);
    if (file.name.rfind(prefix, 0) != 0)
        return std::nullopt;
    const std::size_t slash = file.name.find('/', prefix.size());
    if (slash == std::string::npos)
        return std::nullopt;
    return file.name.substr(prefix.size(), slash - prefix.size());
}

template <typename T> void upsertById(std::vector<T>& into, T item)
{
    auto it = std::find_if(into.begin(), into.end(), [&](const T& t) { return t.id == item.id; });
    if (it != into.end())
        *it = std::move(item);
    else
        into.push_back(std::move(item));
}

void upsertReference(std::vector<ReferenceMeasurement>& into, ReferenceMeasurement cell)
{
    auto it = std::find_if(into.begin(), into.end(), [&](const ReferenceMeasurement& r) {
        return r.table == cell.table && r.modelId == cell.modelId && r.gpuId == cell.gpuId
            && r.gpuCount == cell.gpuCount;
    });
    if (it != into.end())
        *it = std::move(cell);
    else
        into.push_back(std::move(cell));
}

void merge(Catalog& into, CatalogLayer&& layer)
{
    for (auto& g : layer.catalog.gpus)
        upsertById(into.gpus, std::move(g));
    for (auto& c : layer.catalog.chassis)
        upsertById(into.chassis, std::move(c));
    for (auto& sys : layer.catalog.systems)
        upsertById(into.systems, std::move(sys));
    // A price set prices GPUs an earlier file defined (an unknown one is reported with the
    // other references once every file is read).
    for (auto& p : layer.gpuPrices)
        if (auto it = std::find_if(into.gpus.begin(), into.gpus.end(),
                [&p](const GpuSpec& g) { return g.id == p.gpuId; });
            it != into.gpus.end()) {
            if (p.priceUsd) {
                it->priceUsd = p.priceUsd;
                it->priceSource = p.priceSource;
            }
            if (!p.otherPrices.empty())
                it->otherPrices = std::move(p.otherPrices);
        }
    for (auto& o : layer.catalog.cloudOffers)
        upsertById(into.cloudOffers, std::move(o));
    for (auto& sponsor : layer.catalog.sponsors)
        upsertById(into.sponsors, std::move(sponsor));
    for (auto& w : layer.catalog.workloads)
        upsertById(into.workloads, std::move(w));
    for (auto& r : layer.catalog.reference)
        upsertReference(into.reference, std::move(r));
    if (layer.assumptions)
        layer.assumptions->applyTo(into.defaults);
}

// Drops what refers to an id no file defined, and says where the reference was written.
void resolveReferences(Catalog& catalog, const std::vector<PendingReference>& references,
    std::vector<LoadIssue>& issues)
{
    auto known = [&catalog](const PendingReference& ref) {
        return ref.kind == PendingReference::Kind::Gpu ? catalog.findGpu(ref.id) != nullptr
                                                       : catalog.findWorkload(ref.id) != nullptr;
    };
    for (const auto& ref : references) {
        if (known(ref))
            continue;
        issues.push_back({ LoadIssue::Severity::Error, ref.file, ref.line, ref.column,
            "unknown " + std::string(ref.kind == PendingReference::Kind::Gpu ? "GPU '" : "model '")
                + ref.id + "' in " + ref.context });
    }
    std::erase_if(catalog.cloudOffers,
        [&](const CloudOffer& o) { return catalog.findGpu(o.gpuId) == nullptr; });
    std::erase_if(
        catalog.systems, [&](const SystemSpec& s) { return catalog.findGpu(s.gpuId) == nullptr; });
    std::erase_if(catalog.reference, [&](const ReferenceMeasurement& r) {
        return catalog.findGpu(r.gpuId) == nullptr || catalog.findWorkload(r.modelId) == nullptr;
    });
}

} // namespace

CatalogLoad loadCatalog(const std::vector<DataFile>& files)
{
    auto catalog = std::make_shared<Catalog>();
    CatalogLoad result;
    std::vector<PendingReference> references;
    for (const auto& file : files) {
        yaml::Reader reader(file.name, result.issues);
        const auto root = reader.parse(file.text);
        if (!root)
            continue;
        if (auto set = priceSetOf(file))
            catalog->priceSet = *set;
        CatalogLayer layer;
        if (!reader.guarded([&] { layer = readCatalogLayer(reader, *root); }))
            continue;
        references.insert(references.end(), layer.references.begin(), layer.references.end());
        merge(*catalog, std::move(layer));
    }
    resolveReferences(*catalog, references, result.issues);
    result.catalog = std::move(catalog);
    return result;
}

std::optional<DataFile> readDataFile(const std::string& path, std::vector<LoadIssue>& issues)
{
    auto text = readTextFile(path, issues, yaml::kMaxFileBytes, "a gpuplan data file may have");
    if (!text)
        return std::nullopt;
    return DataFile { path, std::move(*text) };
}

std::vector<std::string> priceSetNames()
{
    return { std::string(kDefaultPriceSet), std::string(kPaperPriceSet) };
}

std::string priceSetChoices()
{
    std::string text;
    for (const auto& name : priceSetNames())
        text += (text.empty() ? "" : " or ") + name;
    return text;
}

bool isPriceSet(std::string_view name)
{
    return name == kDefaultPriceSet || name == kPaperPriceSet;
}

std::vector<DataFile> shippedDataFiles(std::string_view priceSet)
{
    const std::string ownDir
        = std::string(kShipped) + std::string(kPriceSetsDir) + std::string(priceSet) + "/";
    const std::string anySet = std::string(kShipped) + std::string(kPriceSetsDir);
    std::vector<DataFile> common;
    std::vector<DataFile> own;
    for (auto& file : allShippedDataFiles()) {
        if (file.name.rfind(ownDir, 0) == 0)
            own.push_back(std::move(file));
        else if (file.name.rfind(anySet, 0) != 0)
            common.push_back(std::move(file));
    }
    common.insert(
        common.end(), std::make_move_iterator(own.begin()), std::make_move_iterator(own.end()));
    return common;
}

CatalogLoad loadCatalogWithUserFiles(
    const std::vector<std::string>& userPaths, std::string_view priceSet)
{
    std::vector<DataFile> files = shippedDataFiles(priceSet);
    std::vector<LoadIssue> readIssues;
    for (const auto& path : userPaths)
        if (auto file = readDataFile(path, readIssues))
            files.push_back(std::move(*file));
    CatalogLoad load = loadCatalog(files);
    load.issues.insert(load.issues.begin(), readIssues.begin(), readIssues.end());
    return load;
}

} // namespace gpuplan

#include "pricing/catalog_loader.h"

#include "pricing/section_readers.h"
#include "pricing/yaml_reader.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace gpuplan {

namespace {

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
    for (auto& o : layer.catalog.cloudOffers)
        upsertById(into.cloudOffers, std::move(o));
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
        CatalogLayer layer = readCatalogLayer(reader, *root);
        references.insert(references.end(), layer.references.begin(), layer.references.end());
        merge(*catalog, std::move(layer));
    }
    resolveReferences(*catalog, references, result.issues);
    result.catalog = std::move(catalog);
    return result;
}

std::optional<DataFile> readDataFile(const std::string& path, std::vector<LoadIssue>& issues)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        issues.push_back({ LoadIssue::Severity::Error, path, 0, 0, "cannot open the file" });
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        issues.push_back({ LoadIssue::Severity::Error, path, 0, 0, "cannot read the file" });
        return std::nullopt;
    }
    return DataFile { path, text.str() };
}

CatalogLoad loadCatalogWithUserFiles(const std::vector<std::string>& userPaths)
{
    std::vector<DataFile> files = shippedDataFiles();
    std::vector<LoadIssue> readIssues;
    for (const auto& path : userPaths)
        if (auto file = readDataFile(path, readIssues))
            files.push_back(std::move(*file));
    CatalogLoad load = loadCatalog(files);
    load.issues.insert(load.issues.begin(), readIssues.begin(), readIssues.end());
    return load;
}

} // namespace gpuplan

#include "pricing/catalog_import/gpu_aliases.h"

#include "pricing/catalog_import/embedded_data.h"
#include "pricing/yaml_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace gpuplan::catalog_import {

namespace {

constexpr std::string_view kKind = "gpuplan-gpu-aliases";

std::string memoryText(double gb)
{
    return yaml::formatNumber(std::round(gb * 10.0) / 10.0) + " GB";
}

bool hasAny(const std::vector<std::string>& tokens, const std::vector<std::string>& wanted)
{
    return std::any_of(wanted.begin(), wanted.end(), [&](const std::string& w) {
        return std::find(tokens.begin(), tokens.end(), w) != tokens.end();
    });
}

std::string joined(const std::vector<std::string>& items, std::string_view separator)
{
    std::string text;
    for (const auto& item : items)
        text += (text.empty() ? "" : std::string(separator)) + item;
    return text;
}

std::vector<std::string> readList(yaml::Reader& reader, const YAML::Node& map, std::string_view key,
    std::string_view what, bool required)
{
    std::vector<std::string> items;
    const YAML::Node list = map[std::string(key)];
    if (!list) {
        if (required)
            reader.error(map, std::string(what) + " is missing '" + std::string(key) + "'");
        return items;
    }
    if (!reader.expectSequence(list, std::string(key) + " of " + std::string(what)))
        return items;
    for (const auto& item : list) {
        if (!item.IsScalar() || item.Scalar().empty()) {
            reader.error(item, std::string(key) + " of " + std::string(what) + " must be names");
            continue;
        }
        items.push_back(item.Scalar());
    }
    return items;
}

} // namespace

std::string normaliseGpuName(std::string_view name)
{
    std::string out;
    for (char c : name)
        if (std::isalnum(static_cast<unsigned char>(c)))
            out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

std::vector<std::string> nameTokens(std::string_view text)
{
    std::vector<std::string> tokens;
    std::string current;
    for (char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            current += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!current.empty()) {
            tokens.push_back(std::move(current));
            current.clear();
        }
    }
    if (!current.empty())
        tokens.push_back(std::move(current));
    return tokens;
}

GpuAliasTable GpuAliasTable::read(
    const std::vector<DataFile>& files, std::vector<LoadIssue>& issues)
{
    GpuAliasTable table;
    int layer = 0;
    for (const auto& file : files) {
        ++layer;
        yaml::Reader reader(file.name, issues);
        const auto root = reader.parse(file.text);
        if (!root)
            continue;
        reader.warnUnknownKeys(
            *root, { "schema_version", "kind", "title", "description", "aliases" }, "the file");
        if (const auto kind = reader.string(*root, "kind", "the alias file");
            kind && *kind != kKind)
            reader.error(
                (*root)["kind"], "kind must be '" + std::string(kKind) + "', not '" + *kind + "'");
        const YAML::Node list = (*root)["aliases"];
        if (!list || !reader.expectSequence(list, "aliases"))
            continue;
        for (const auto& entry : list) {
            if (!reader.expectMap(entry, "an alias"))
                continue;
            const auto errorsBefore = reader.errorCount();
            GpuAlias alias;
            alias.layer = layer;
            alias.gpuId = reader.id(entry, "gpu", "an alias").value_or("");
            const std::string what = "alias of '" + alias.gpuId + "'";
            reader.warnUnknownKeys(
                entry, { "gpu", "names", "memory_gb", "tokens", "exclude_tokens", "why" }, what);
            for (const auto& name : readList(reader, entry, "names", what, true))
                alias.names.push_back(normaliseGpuName(name));
            if (const YAML::Node memory = entry["memory_gb"];
                memory && reader.expectMap(memory, "memory_gb of " + what)) {
                alias.minMemoryGb = reader.number(memory, "min", what, limits::kMemoryGb.bounds);
                alias.maxMemoryGb = reader.number(memory, "max", what, limits::kMemoryGb.bounds);
                if (alias.minMemoryGb && alias.maxMemoryGb
                    && *alias.minMemoryGb > *alias.maxMemoryGb)
                    reader.error(memory, "memory_gb of " + what + ": min is above max");
            }
            for (const auto& token : readList(reader, entry, "tokens", what, false))
                alias.tokens.push_back(joined(nameTokens(token), ""));
            for (const auto& token : readList(reader, entry, "exclude_tokens", what, false))
                alias.excludeTokens.push_back(joined(nameTokens(token), ""));
            if (reader.errorCount() == errorsBefore)
                table.m_aliases.push_back(std::move(alias));
        }
    }
    return table;
}

const GpuAliasTable& GpuAliasTable::shipped()
{
    static const GpuAliasTable table = [] {
        std::vector<LoadIssue> issues;
        return read(embeddedGpuAliasFiles(), issues);
    }();
    return table;
}

std::set<std::string> GpuAliasTable::gpuIds() const
{
    std::set<std::string> ids;
    for (const auto& alias : m_aliases)
        ids.insert(alias.gpuId);
    return ids;
}

GpuMatch GpuAliasTable::match(const GpuEvidence& e) const
{
    const std::string name = normaliseGpuName(e.name);
    const std::string otherName = normaliseGpuName(e.otherName);
    std::vector<std::string> tokens = nameTokens(e.instance);
    for (const auto* text : { &e.name, &e.otherName })
        for (auto& token : nameTokens(*text))
            tokens.push_back(std::move(token));

    const std::string& shownName = e.name;

    std::vector<const GpuAlias*> named;
    for (const auto& alias : m_aliases) {
        const auto hasName = [&](const std::string& n) {
            return !n.empty()
                && std::find(alias.names.begin(), alias.names.end(), n) != alias.names.end();
        };
        if (hasName(name) || hasName(otherName))
            named.push_back(&alias);
    }
    if (named.empty())
        return { {}, "GPU '" + e.name + "' is not in the alias table" };
    const int topLayer
        = (*std::max_element(named.begin(), named.end(), [](const GpuAlias* a, const GpuAlias* b) {
              return a->layer < b->layer;
          }))->layer;
    std::erase_if(named, [&](const GpuAlias* a) { return a->layer != topLayer; });

    const auto memoryFits = [&](const GpuAlias& a) {
        if (e.memoryGb.empty() || (!a.minMemoryGb && !a.maxMemoryGb))
            return true; // unknown memory excludes nothing; tokens must tell then
        return std::any_of(e.memoryGb.begin(), e.memoryGb.end(), [&](double gb) {
            return (!a.minMemoryGb || gb >= *a.minMemoryGb)
                && (!a.maxMemoryGb || gb <= *a.maxMemoryGb);
        });
    };
    std::vector<const GpuAlias*> byMemory;
    std::copy_if(named.begin(), named.end(), std::back_inserter(byMemory),
        [&](const GpuAlias* a) { return memoryFits(*a); });
    if (byMemory.empty()) {
        std::vector<std::string> readings;
        for (double gb : e.memoryGb)
            readings.push_back(memoryText(gb));
        return { {},
            "GPU '" + shownName + "' with " + joined(readings, " or ")
                + ": no gpuplan GPU of that name has this memory" };
    }

    std::vector<std::string> ids;
    std::vector<std::string> excludedBy;
    for (const GpuAlias* a : byMemory) {
        if (hasAny(tokens, a->excludeTokens)) {
            excludedBy.push_back(a->gpuId);
            continue;
        }
        const bool tokensFit = a->tokens.empty() || hasAny(tokens, a->tokens);
        if (tokensFit && std::find(ids.begin(), ids.end(), a->gpuId) == ids.end())
            ids.push_back(a->gpuId);
    }
    if (ids.size() == 1)
        return { ids.front(), {} };
    if (ids.empty() && !excludedBy.empty())
        return { {},
            "GPU '" + shownName + "': the instance name marks a variant that is not "
                + joined(excludedBy, " or ") };
    if (ids.empty()) {
        std::vector<std::string> needs;
        for (const GpuAlias* a : byMemory)
            if (!a->tokens.empty())
                needs.push_back(a->gpuId + " needs " + joined(a->tokens, "/"));
        return { {},
            "GPU '" + shownName + "': the instance name does not say which variant it is"
                + (needs.empty() ? std::string() : " (" + joined(needs, "; ") + ")") };
    }
    return { {},
        "GPU '" + shownName + "' could be " + joined(ids, " or ")
            + ": the instance name and memory do not tell which" };
}

} // namespace gpuplan::catalog_import

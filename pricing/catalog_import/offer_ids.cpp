#include "pricing/catalog_import/offer_ids.h"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>

namespace gpuplan::catalog_import {

namespace {

constexpr std::size_t kMaxIdLength = 64; // pricing/yaml_reader.cpp, Reader::id

// FNV-1a, 32 bits: small, stable across platforms and releases (std::hash is neither).
std::string shortHash(const std::string& text)
{
    std::uint32_t hash = 2166136261u;
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 16777619u;
    }
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%08x", hash);
    return buffer;
}

std::string withHash(const std::string& id, const std::string& key)
{
    const std::string suffix = "-" + shortHash(key);
    std::string stem = id.substr(0, kMaxIdLength - suffix.size());
    while (!stem.empty() && stem.back() == '-')
        stem.pop_back();
    return stem + suffix;
}

} // namespace

std::string sanitisedIdPart(const std::string& text)
{
    std::string out;
    for (unsigned char c : text) {
        // Never a leading dot: the file named after a provider ".hidden" (or "../x") was hidden,
        // and the planner, which does not read hidden files, never saw its offers.
        if (c == '.' && out.empty())
            continue;
        const bool keep = std::isalnum(c) || c == '.' || c == '_';
        if (keep && c < 0x80)
            out += static_cast<char>(std::tolower(c));
        else if (!out.empty() && out.back() != '-')
            out += '-';
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out;
}

std::vector<std::string> makeOfferIds(
    const std::string& provider, const std::vector<OfferKey>& keys)
{
    std::vector<std::string> ids;
    std::map<std::string, int> uses;
    for (const auto& key : keys) {
        std::string id = sanitisedIdPart(provider);
        for (const auto* part : { &key.instance, &key.region })
            if (const std::string clean = sanitisedIdPart(*part); !clean.empty())
                id += "-" + clean;
        ids.push_back(id);
        ++uses[id];
    }
    std::set<std::string> taken;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const std::string written = provider + "\n" + keys[i].instance + "\n" + keys[i].region;
        std::string id
            = ids[i].size() > kMaxIdLength || uses[ids[i]] > 1 ? withHash(ids[i], written) : ids[i];
        // Keys written alike too (exact duplicates are dropped before, so only a hash collision
        // gets here): a counter in the hashed text keeps ids apart.
        for (int n = 1; !taken.insert(id).second; ++n)
            id = withHash(ids[i], written + "\n" + std::to_string(n));
        ids[i] = id;
    }
    return ids;
}

} // namespace gpuplan::catalog_import

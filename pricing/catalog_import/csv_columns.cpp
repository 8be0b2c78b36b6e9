#include "pricing/catalog_import/csv_columns.h"

#include <algorithm>
#include <cctype>

namespace gpuplan::catalog_import {

std::string toLower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string trimmed(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t");
    return std::string(text.substr(first, last - first + 1));
}

std::optional<CsvColumns> CsvColumns::fromHeader(const CsvRecord& header,
    std::span<const ColumnSpec> known, std::string_view formatName, const std::string& file,
    std::vector<LoadIssue>& issues)
{
    CsvColumns columns;
    columns.m_count = header.fields.size();
    bool ok = true;
    for (std::size_t i = 0; i < header.fields.size(); ++i) {
        const std::string name = trimmed(header.fields[i]);
        const std::string key = toLower(name);
        const int column = header.columns[i];
        if (columns.index(key)) {
            issues.push_back({ LoadIssue::Severity::Error, file, header.line, column,
                "column '" + name + "' appears twice in the header" });
            ok = false;
            continue;
        }
        columns.m_indexes.emplace_back(key, i);
        const bool isKnown = std::any_of(known.begin(), known.end(),
            [&](const ColumnSpec& spec) { return toLower(spec.name) == key; });
        if (!isKnown)
            issues.push_back({ LoadIssue::Severity::Warning, file, header.line, column,
                "unknown column '" + name + "' (ignored)" });
    }
    std::string missing;
    for (const auto& spec : known)
        if (spec.required && !columns.index(toLower(spec.name)))
            missing += (missing.empty() ? "" : ", ") + std::string(spec.name);
    if (!missing.empty()) {
        issues.push_back({ LoadIssue::Severity::Error, file, header.line, 1,
            "the header lacks the column(s) " + missing + " of " + std::string(formatName) });
        ok = false;
    }
    if (!ok)
        return std::nullopt;
    return columns;
}

std::optional<std::size_t> CsvColumns::index(std::string_view name) const
{
    const std::string key = toLower(name);
    for (const auto& [known, position] : m_indexes)
        if (known == key)
            return position;
    return std::nullopt;
}

const std::string& CsvColumns::field(const CsvRecord& record, std::string_view name) const
{
    static const std::string kEmpty;
    const auto i = index(name);
    return i && *i < record.fields.size() ? record.fields[*i] : kEmpty;
}

int CsvColumns::column(const CsvRecord& record, std::string_view name) const
{
    const auto i = index(name);
    return i && *i < record.columns.size() ? record.columns[*i] : 0;
}

} // namespace gpuplan::catalog_import

#include "pricing/catalog_import/import_summary.h"

#include <algorithm>
#include <cstdio>

namespace gpuplan::catalog_import {

namespace {

// Line numbers shown per reason in the text summary; JSON and the GUI list them all.
constexpr std::size_t kLinesShown = 10;

template <typename Row, typename ReasonOf>
std::vector<ReasonGroup> group(const std::vector<Row>& rows, ReasonOf reasonOf)
{
    std::vector<ReasonGroup> groups;
    for (const auto& row : rows) {
        const std::string& reason = reasonOf(row);
        auto it = std::find_if(
            groups.begin(), groups.end(), [&](const ReasonGroup& g) { return g.reason == reason; });
        if (it == groups.end())
            groups.push_back({ reason, { row.line } });
        else
            it->lines.push_back(row.line);
    }
    // Most frequent first; equal counts keep the order in which the file first shows them.
    std::stable_sort(groups.begin(), groups.end(),
        [](const ReasonGroup& a, const ReasonGroup& b) { return a.lines.size() > b.lines.size(); });
    return groups;
}

std::string padded(std::size_t count)
{
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%6zu", count);
    return buffer;
}

} // namespace

std::string counted(std::size_t count, const std::string& one, const std::string& many)
{
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

std::vector<ReasonGroup> groupDropped(const std::vector<DroppedRow>& dropped)
{
    return group(dropped, [](const DroppedRow& r) -> const std::string& { return r.reason; });
}

std::vector<ReasonGroup> groupAdjusted(const std::vector<AdjustedRow>& adjusted)
{
    return group(adjusted, [](const AdjustedRow& r) -> const std::string& { return r.what; });
}

std::string lineList(const std::vector<int>& lines, std::size_t shown)
{
    std::string text = lines.size() == 1 ? "line " : "lines ";
    for (std::size_t i = 0; i < lines.size() && i < shown; ++i)
        text += (i ? ", " : "") + std::to_string(lines[i]);
    if (lines.size() > shown)
        text += ", ... (" + std::to_string(lines.size() - shown) + " more)";
    return text;
}

std::string formatSummary(const ImportSummary& s, std::size_t offerCount)
{
    const auto dropped = s.dropped.size();
    std::string text = s.file + ": " + counted(static_cast<std::size_t>(s.rowsRead), "row", "rows")
        + " read, " + std::to_string(s.rowsKept) + " kept in "
        + counted(offerCount, "offer", "offers") + ", " + std::to_string(dropped) + " dropped\n";
    if (!s.dropped.empty()) {
        text += "dropped:\n";
        for (const auto& g : groupDropped(s.dropped))
            text += padded(g.lines.size()) + "  " + g.reason + ": " + lineList(g.lines, kLinesShown)
                + '\n';
    }
    if (!s.adjusted.empty()) {
        text += "kept, with a rate left out:\n";
        for (const auto& g : groupAdjusted(s.adjusted))
            text += padded(g.lines.size()) + "  " + g.reason + ": " + lineList(g.lines, kLinesShown)
                + '\n';
    }
    if (!s.unmapped.empty()) {
        text += "GPUs not mapped to a gpuplan GPU (never guessed; an alias file can map them):\n";
        for (const auto& u : s.unmapped)
            text += padded(static_cast<std::size_t>(u.rows)) + "  " + u.name + " ("
                + counted(static_cast<std::size_t>(u.rows), "row", "rows") + ")\n";
    }
    return text;
}

} // namespace gpuplan::catalog_import

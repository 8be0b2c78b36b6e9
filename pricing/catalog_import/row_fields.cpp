#include "pricing/catalog_import/row_fields.h"

#include <charconv>
#include <cmath>

namespace gpuplan::catalog_import {

RowFields::RowFields(const CsvRecord& record, const CsvColumns& columns, const std::string& file,
    std::vector<LoadIssue>& issues)
    : m_record(record)
    , m_columns(columns)
    , m_file(file)
    , m_issues(issues)
{
}

std::string RowFields::text(std::string_view column) const
{
    return trimmed(m_columns.field(m_record, column));
}

void RowFields::error(std::string_view column, const std::string& message)
{
    m_issues.push_back({ LoadIssue::Severity::Error, m_file, m_record.line,
        m_columns.column(m_record, column), std::string(column) + " " + message });
    m_ok = false;
}

std::optional<double> RowFields::number(std::string_view column)
{
    const std::string value = text(column);
    if (value.empty())
        return std::nullopt;
    double parsed = 0.0;
    const char* end = value.data() + value.size();
    const auto [next, failure] = std::from_chars(value.data(), end, parsed);
    if (failure != std::errc() || next != end) {
        error(column, "'" + value + "' is not a number");
        return std::nullopt;
    }
    if (!std::isfinite(parsed)) {
        error(column, "'" + value + "' is not a finite number");
        return std::nullopt;
    }
    if (parsed < 0.0) {
        error(column, "'" + value + "' is negative");
        return std::nullopt;
    }
    return parsed;
}

std::optional<bool> RowFields::boolean(std::string_view column)
{
    const std::string value = toLower(text(column));
    if (value == "true")
        return true;
    if (value == "false")
        return false;
    error(column, "'" + text(column) + "' is neither True nor False");
    return std::nullopt;
}

bool checkFieldCount(const CsvRecord& record, const CsvColumns& columns, const std::string& file,
    std::vector<LoadIssue>& issues)
{
    if (record.fields.size() == columns.count())
        return true;
    issues.push_back({ LoadIssue::Severity::Error, file, record.line, 0,
        "row has " + std::to_string(record.fields.size()) + " fields, the header "
            + std::to_string(columns.count()) + " (a field that holds a comma must be quoted)" });
    return false;
}

bool isWholeCount(double count)
{
    return std::floor(count) == count;
}

} // namespace gpuplan::catalog_import

#include "pricing/catalog_import/catalog_rows.h"

namespace gpuplan::catalog_import {

namespace {

bool hasColumn(const CsvRecord& header, std::string_view name)
{
    for (const auto& field : header.fields)
        if (toLower(trimmed(field)) == toLower(name))
            return true;
    return false;
}

} // namespace

bool readCatalogRows(CsvReader& reader, const CatalogFormat& format, RowsRead& out,
    std::vector<LoadIssue>& issues,
    const std::function<bool(const CsvRecord& record, RowFields& fields)>& readRow)
{
    const std::string& file = reader.fileName();
    CsvRecord record;
    if (!reader.next(record)) {
        if (reader.error())
            issues.push_back(*reader.error());
        else
            issues.push_back({ LoadIssue::Severity::Error, file, 0, 0, "the file is empty" });
        return false;
    }
    if (hasColumn(record, format.otherFormatColumn)) {
        issues.push_back({ LoadIssue::Severity::Error, file, record.line, 1,
            std::string(format.otherFormatMessage) });
        return false;
    }
    const auto columns = CsvColumns::fromHeader(record, format.columns, format.name, file, issues);
    if (!columns)
        return false;

    bool ok = true;
    while (reader.next(record)) {
        ++out.rowsRead;
        if (!checkFieldCount(record, *columns, file, issues)) {
            ok = false;
            continue;
        }
        RowFields fields(record, *columns, file, issues);
        ok = readRow(record, fields) && ok;
    }
    if (reader.error()) {
        issues.push_back(*reader.error());
        return false;
    }
    return ok;
}

} // namespace gpuplan::catalog_import

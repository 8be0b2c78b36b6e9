#pragma once

// A streaming reader of RFC 4180 CSV: fields separated by commas, records by LF or CRLF, quoted
// fields that hold commas, line breaks and doubled quotes (""). Public catalogs write JSON-like
// GPU descriptions into quoted fields, so quoting must be exact; anything outside the RFC (a
// quote inside an unquoted field, text after a closing quote, a quote never closed) is an error
// at its line and column rather than a silently shifted row.

#include "pricing/load_issue.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::catalog_import {

// More fields than any catalog has (SkyPilot writes 9-11, gpuhunt 9-14): the bound keeps a
// file of commas from becoming millions of strings.
inline constexpr std::size_t kMaxCsvFields = 256;

struct CsvRecord {
    int line = 0; // where the record starts, from 1
    std::vector<std::string> fields;
    std::vector<int> columns; // where each field starts on its line, from 1 (characters)
};

class CsvReader {
public:
    // `text` must outlive the reader. A UTF-8 byte-order mark at the start is skipped; empty
    // lines between records are skipped (they hold no record in any catalog).
    CsvReader(std::string_view text, std::string fileName);

    // The next record, or false at the end of the text or at the first error (see error()).
    bool next(CsvRecord& record);
    const std::optional<LoadIssue>& error() const { return m_error; }
    const std::string& fileName() const { return m_file; }

private:
    bool fail(int line, int column, std::string message);
    bool atRecordEnd() const; // at LF, CRLF or the end of the text
    void skipRecordEnd();
    void advance(); // one byte, keeping line and column
    bool readQuoted(std::string& field);
    bool readUnquoted(std::string& field);

    std::string_view m_text;
    std::string m_file;
    std::size_t m_at = 0;
    int m_line = 1;
    int m_column = 1;
    std::optional<LoadIssue> m_error;
};

} // namespace gpuplan::catalog_import

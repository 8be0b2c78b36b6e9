#include "pricing/catalog_import/csv_reader.h"

#include "pricing/text_checks.h"

namespace gpuplan::catalog_import {

CsvReader::CsvReader(std::string_view text, std::string fileName)
    : m_text(text)
    , m_file(std::move(fileName))
{
    if (m_text.substr(0, kUtf8Bom.size()) == kUtf8Bom)
        m_at = kUtf8Bom.size();
}

bool CsvReader::fail(int line, int column, std::string message)
{
    m_error = LoadIssue { LoadIssue::Severity::Error, m_file, line, column, std::move(message) };
    return false;
}

bool CsvReader::atRecordEnd() const
{
    if (m_at >= m_text.size() || m_text[m_at] == '\n')
        return true;
    // CRLF, or a CR that ends the file (an editor that stopped half-way through a CRLF).
    return m_text[m_at] == '\r' && (m_at + 1 == m_text.size() || m_text[m_at + 1] == '\n');
}

void CsvReader::skipRecordEnd()
{
    if (m_at < m_text.size() && m_text[m_at] == '\r')
        ++m_at;
    if (m_at < m_text.size() && m_text[m_at] == '\n') {
        ++m_at;
        ++m_line;
        m_column = 1;
    }
}

void CsvReader::advance()
{
    const auto byte = static_cast<unsigned char>(m_text[m_at]);
    if (byte == '\n') {
        ++m_line;
        m_column = 1;
    } else if ((byte & 0xC0) != 0x80) {
        ++m_column; // a continuation byte belongs to the character already counted
    }
    ++m_at;
}

bool CsvReader::readQuoted(std::string& field)
{
    const int openLine = m_line;
    const int openColumn = m_column;
    advance(); // the opening quote
    while (true) {
        if (m_at >= m_text.size())
            return fail(openLine, openColumn,
                "quoted field is never closed: the quote opened here runs to the end of the file");
        const char c = m_text[m_at];
        if (c == '"') {
            if (m_at + 1 < m_text.size() && m_text[m_at + 1] == '"') {
                field += '"';
                advance();
                advance();
                continue;
            }
            advance(); // the closing quote
            break;
        }
        field += c;
        advance();
    }
    if (!atRecordEnd() && m_text[m_at] != ',')
        return fail(m_line, m_column,
            "unexpected text after a closing quote (a field that starts with a quote must end "
            "with one)");
    return true;
}

bool CsvReader::readUnquoted(std::string& field)
{
    const std::size_t start = m_at;
    while (!atRecordEnd() && m_text[m_at] != ',') {
        if (m_text[m_at] == '"')
            return fail(m_line, m_column,
                "quote inside an unquoted field (a field holding quotes must be quoted as a "
                "whole, with each quote doubled)");
        advance();
    }
    field.assign(m_text.substr(start, m_at - start));
    return true;
}

bool CsvReader::next(CsvRecord& record)
{
    record.fields.clear();
    record.columns.clear();
    if (m_error)
        return false;
    while (m_at < m_text.size() && atRecordEnd())
        skipRecordEnd();
    if (m_at >= m_text.size())
        return false;
    record.line = m_line;
    while (true) {
        if (record.fields.size() == kMaxCsvFields)
            return fail(m_line, m_column,
                "more than " + std::to_string(kMaxCsvFields)
                    + " fields in one row: not a cloud catalog");
        record.columns.push_back(m_column);
        std::string field;
        const bool ok = m_text[m_at] == '"' ? readQuoted(field) : readUnquoted(field);
        if (!ok)
            return false;
        record.fields.push_back(std::move(field));
        if (atRecordEnd()) {
            skipRecordEnd();
            return true;
        }
        advance(); // the comma; a comma at the end of a line leaves one more, empty, field
        if (m_at >= m_text.size()) {
            record.columns.push_back(m_column);
            record.fields.emplace_back();
            return true;
        }
    }
}

} // namespace gpuplan::catalog_import

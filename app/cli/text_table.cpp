#include "app/cli/text_table.h"

#include <algorithm>

namespace gpuplan::cli {

TextTable::TextTable(QStringList headers, std::vector<bool> rightAligned)
    : m_headers(std::move(headers))
    , m_rightAligned(std::move(rightAligned))
{
    m_rightAligned.resize(static_cast<std::size_t>(m_headers.size()), false);
}

void TextTable::addRow(QStringList cells)
{
    while (cells.size() < m_headers.size())
        cells << QString();
    m_rows.push_back(std::move(cells));
}

void TextTable::print(QTextStream& out) const
{
    std::vector<qsizetype> widths;
    for (const auto& h : m_headers)
        widths.push_back(h.size());
    for (const auto& row : m_rows)
        for (std::size_t c = 0; c < widths.size(); ++c)
            widths[c] = std::max(widths[c], row[static_cast<qsizetype>(c)].size());

    auto printRow = [&](const QStringList& cells) {
        QString line;
        for (std::size_t c = 0; c < widths.size(); ++c) {
            const QString& text = cells[static_cast<qsizetype>(c)];
            const auto width = static_cast<int>(widths[c]);
            line += m_rightAligned[c] ? text.rightJustified(width) : text.leftJustified(width);
            if (c + 1 < widths.size())
                line += QStringLiteral("  ");
        }
        while (line.endsWith(QLatin1Char(' ')))
            line.chop(1);
        out << line << '\n';
    };
    printRow(m_headers);
    QStringList rule;
    for (auto w : widths)
        rule << QString(w, QLatin1Char('-'));
    printRow(rule);
    for (const auto& row : m_rows)
        printRow(row);
}

} // namespace gpuplan::cli

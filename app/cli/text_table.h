#pragma once

#include <QString>
#include <QStringList>
#include <QTextStream>
#include <vector>

namespace gpuplan::cli {

// A plain-text table with aligned columns, for terminals and for pasting into e-mails.
class TextTable {
public:
    explicit TextTable(QStringList headers, std::vector<bool> rightAligned = {});
    void addRow(QStringList cells);
    void print(QTextStream& out) const;

private:
    QStringList m_headers;
    std::vector<bool> m_rightAligned;
    std::vector<QStringList> m_rows;
};

} // namespace gpuplan::cli

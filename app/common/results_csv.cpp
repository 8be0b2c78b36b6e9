#include "app/common/results_csv.h"

#include "app/common/cloud_columns.h"
#include "app/common/option_columns.h"

namespace gpuplan::views {

namespace {
QString cell(const QVariant& value)
{
    return value.typeId() == QMetaType::Double ? QString::number(value.toDouble(), 'g', 10)
                                               : value.toString();
}
} // namespace

QString csvRow(const QStringList& cells)
{
    QStringList escaped;
    for (const auto& c : cells) {
        const bool quote = c.contains(QLatin1Char(',')) || c.contains(QLatin1Char('"'))
            || c.contains(QLatin1Char('\n'));
        QString text = c;
        text.replace(QLatin1String("\""), QLatin1String("\"\""));
        escaped << (quote ? QLatin1Char('"') + text + QLatin1Char('"') : text);
    }
    return escaped.join(QLatin1Char(',')) + QStringLiteral("\r\n");
}

namespace {
template <typename Column, typename Row>
QString tableCsv(const std::vector<Row>& rows, int columnCount)
{
    QStringList headers;
    for (int c = 0; c < columnCount; ++c)
        headers << header(static_cast<Column>(c));
    QString csv = csvRow(headers);
    for (const auto& row : rows) {
        QStringList cells;
        for (int c = 0; c < columnCount; ++c)
            cells << cell(sortValue(row, static_cast<Column>(c)));
        csv += csvRow(cells);
    }
    return csv;
}
} // namespace

QString optionsCsv(const Results& r)
{
    return tableCsv<OptionColumn>(r.options, kOptionColumnCount);
}

QString cloudCsv(const Results& r)
{
    return tableCsv<CloudColumn>(r.cloud, kCloudColumnCount);
}

} // namespace gpuplan::views

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

QString optionsCsv(const Results& r)
{
    QStringList headers;
    for (int c = 0; c < kOptionColumnCount; ++c)
        headers << header(static_cast<OptionColumn>(c));
    QString csv = csvRow(headers);
    for (const auto& o : r.options) {
        QStringList cells;
        for (int c = 0; c < kOptionColumnCount; ++c)
            cells << cell(sortValue(o, static_cast<OptionColumn>(c)));
        csv += csvRow(cells);
    }
    return csv;
}

QString cloudCsv(const Results& r)
{
    QStringList headers;
    for (int c = 0; c < kCloudColumnCount; ++c)
        headers << header(static_cast<CloudColumn>(c));
    QString csv = csvRow(headers);
    for (const auto& o : r.cloud) {
        QStringList cells;
        for (int c = 0; c < kCloudColumnCount; ++c)
            cells << cell(sortValue(o, static_cast<CloudColumn>(c)));
        csv += csvRow(cells);
    }
    return csv;
}

} // namespace gpuplan::views

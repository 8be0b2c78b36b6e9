#include "app/common/results_csv.h"

#include "app/common/cloud_columns.h"
#include "app/common/option_columns.h"

#include <cmath>

namespace gpuplan::views {

namespace {
QString cell(const QVariant& value)
{
    return value.typeId() == QMetaType::Double ? QString::number(value.toDouble(), 'g', 10)
                                               : value.toString();
}

// A text cell a spreadsheet would run as a formula (=, +, -, @ first; a tab or a return
// first too): provider and offer names come from third parties' catalogs, where
// "=HYPERLINK(...)" would run when the CSV is opened. A leading apostrophe keeps it text, as
// OWASP advises; numbers ("-5") are left as they are.
QString inertText(const QString& c)
{
    static const QString formulaStarts = QStringLiteral("=+-@\t\r");
    if (c.isEmpty() || !formulaStarts.contains(c.front()))
        return c;
    bool number = false;
    c.toDouble(&number);
    return number ? c : QLatin1Char('\'') + c;
}
} // namespace

QString csvRow(const QStringList& cells)
{
    QStringList escaped;
    for (const auto& given : cells) {
        const QString c = inertText(given);
        const bool quote = c.contains(QLatin1Char(',')) || c.contains(QLatin1Char('"'))
            || c.contains(QLatin1Char('\n')) || c.contains(QLatin1Char('\r'));
        QString text = c;
        text.replace(QLatin1String("\""), QLatin1String("\"\""));
        escaped << (quote ? QLatin1Char('"') + text + QLatin1Char('"') : text);
    }
    return escaped.join(QLatin1Char(',')) + QStringLiteral("\r\n");
}

namespace {
QString number(double v)
{
    return QString::number(v, 'g', 10);
}

QString number(const std::optional<double>& v)
{
    return v ? number(*v) : QString();
}

// What a budget spreadsheet needs beyond the table's columns (named as in the JSON): which of
// the row's costs carry F&A (the header's "(with F&A)" covers the column, while a machine's
// price carries it only below the equipment threshold: review), the date of the price, and
// the project plan's total and break-even, whose ends the ranges give.
QStringList planHeaders(const OwnedOption*)
{
    return { QStringLiteral("f_and_a_on"), QStringLiteral("price_date"),
        QStringLiteral("plan_total_usd"), QStringLiteral("break_even_runs"),
        QStringLiteral("break_even_months") };
}

QStringList planCells(const Results& r, const OwnedOption& o)
{
    return { indirectOnBuying(r, o).join(QStringLiteral("; ")), QString::fromStdString(o.priceDate),
        number(o.planTotalUsd), number(o.breakEvenRuns), number(o.breakEvenMonths) };
}

// rates_billed beside the table's Instances: a pod of 8 GPUs at the per-GPU rate is one
// instance that pays the rate 8 times, so rate x hours x instances is not its cost.
QStringList planHeaders(const CloudOption*)
{
    return { QStringLiteral("rate_date"), QStringLiteral("plan_total_usd"),
        QStringLiteral("rates_billed") };
}

QStringList planCells(const Results&, const CloudOption& c)
{
    return { QString::fromStdString(c.offer->source.date), number(c.planTotalUsd),
        QString::number(c.ratesBilled) };
}

// The ranges beside the table's figures (Results::hasRanges), named as in the JSON; an empty
// break-even end: buying never pays off there.
QStringList rangeHeaders(const OwnedOption*)
{
    return { QStringLiteral("training_days_low"), QStringLiteral("training_days_high"),
        QStringLiteral("hardware_cost_usd_low"), QStringLiteral("hardware_cost_usd_high"),
        QStringLiteral("experiment_cost_usd_low"), QStringLiteral("experiment_cost_usd_high"),
        QStringLiteral("energy_cost_usd_low"), QStringLiteral("energy_cost_usd_high"),
        QStringLiteral("plan_total_usd_low"), QStringLiteral("plan_total_usd_high"),
        QStringLiteral("break_even_runs_low"), QStringLiteral("break_even_runs_high"),
        QStringLiteral("break_even_months_low"), QStringLiteral("break_even_months_high") };
}

QStringList rangeCells(const OwnedOption& o)
{
    return { number(o.daysRange.low), number(o.daysRange.high), number(o.machineCostRange.low),
        number(o.machineCostRange.high), number(o.experimentCostRange.low),
        number(o.experimentCostRange.high), number(o.energyCostRange.low),
        number(o.energyCostRange.high), number(o.planTotalRange.low), number(o.planTotalRange.high),
        number(o.breakEvenRunsRange.low), number(o.breakEvenRunsRange.high),
        number(o.breakEvenMonthsRange.low), number(o.breakEvenMonthsRange.high) };
}

QStringList rangeHeaders(const CloudOption*)
{
    return { QStringLiteral("training_days_low"), QStringLiteral("training_days_high"),
        QStringLiteral("cheapest_cost_usd_low"), QStringLiteral("cheapest_cost_usd_high"),
        QStringLiteral("plan_total_usd_low"), QStringLiteral("plan_total_usd_high") };
}

QStringList rangeCells(const CloudOption& c)
{
    // The range of the "Cheapest per run" value beside it (a reservation's terms per run).
    const Interval cheapest = cheapestPerRunShownRange(c);
    return { number(c.daysRange.low), number(c.daysRange.high), number(cheapest.low),
        number(cheapest.high), number(c.planTotalRange.low), number(c.planTotalRange.high) };
}

// The Monte Carlo percentiles (Results::monteCarlo), named as in the JSON: with --samples the
// help promised p10/p50/p90 and the CSV had none (review). A rental has none of its own.
QStringList sampleHeaders(const OwnedOption*)
{
    QStringList headers;
    for (const char* figure :
        { "training_days", "hardware_cost_usd", "experiment_cost_usd", "break_even_runs" })
        for (const char* p : { "_p10", "_p50", "_p90" })
            headers << QString::fromLatin1(figure) + QString::fromLatin1(p);
    return headers << QStringLiteral("pays_off_share") << QStringLiteral("recommended_share");
}

QStringList sampleCells(const Results& r, const OwnedOption& o)
{
    const auto index = static_cast<std::size_t>(&o - r.options.data());
    if (!r.monteCarlo || index >= r.monteCarlo->options.size())
        return QStringList(static_cast<int>(sampleHeaders(&o).size()), QString());
    const OptionSamples& s = r.monteCarlo->options[index];
    // A break-even that never comes is infinite in the samples: empty, as in the JSON's null.
    const auto finite = [](double v) { return std::isfinite(v) ? number(v) : QString(); };
    QStringList cells;
    for (const Percentiles* p :
        { &s.trainingDays, &s.machineCostUsd, &s.experimentCostUsd, &s.breakEvenRuns })
        cells << finite(p->p10) << finite(p->p50) << finite(p->p90);
    // Empty, as the JSON's null, where there is no share to state (results_json.cpp).
    return cells << (o.cheapestCloudIndex ? number(s.paysOffShare) : QString())
                 << (r.recommendationRule != RecommendationRule::None
                            ? number(r.monteCarlo->recommendedShare[index])
                            : QString());
}

QStringList sampleHeaders(const CloudOption*)
{
    return {};
}

QStringList sampleCells(const Results&, const CloudOption&)
{
    return {};
}

// The headers the tables show: "Per experiment (with F&A)" where an indirect rate is in the
// figures, which a spreadsheet otherwise could not tell from the same file without it and
// count the F&A twice (review).
QString shownHeader(OptionColumn c, const Results& r)
{
    return displayHeader(c, r);
}

QString shownHeader(CloudColumn c, const Results& r)
{
    return displayHeader(c, &r);
}

template <typename Column, typename Row>
QString tableCsv(const Results& r, const std::vector<Row>& rows, int columnCount)
{
    const bool ranges = r.hasRanges;
    QStringList headers;
    for (int c = 0; c < columnCount; ++c)
        headers << shownHeader(static_cast<Column>(c), r);
    headers << planHeaders(static_cast<const Row*>(nullptr));
    if (ranges)
        headers << rangeHeaders(static_cast<const Row*>(nullptr));
    const bool samples = r.monteCarlo.has_value();
    if (samples)
        headers << sampleHeaders(static_cast<const Row*>(nullptr));
    QString csv = csvRow(headers);
    for (const auto& row : rows) {
        QStringList cells;
        for (int c = 0; c < columnCount; ++c)
            cells << cell(sortValue(row, static_cast<Column>(c)));
        cells << planCells(r, row);
        if (ranges)
            cells << rangeCells(row);
        if (samples)
            cells << sampleCells(r, row);
        csv += csvRow(cells);
    }
    return csv;
}
} // namespace

QString optionsCsv(const Results& r)
{
    return tableCsv<OptionColumn>(r, r.options, kOptionColumnCount);
}

QString cloudCsv(const Results& r)
{
    return tableCsv<CloudColumn>(r, r.cloud, kCloudColumnCount);
}

} // namespace gpuplan::views

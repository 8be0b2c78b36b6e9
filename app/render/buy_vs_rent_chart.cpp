#include "app/render/buy_vs_rent_chart.h"

#include "app/common/format.h"
#include "app/render/axis_range.h"
#include "app/render/planner_charts.h"
#include "core/decisions.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace gpuplan::render {

namespace {

constexpr int kMinRuns = 10;
constexpr int kMaxRuns = 500;
const QColor kBuyColor(0x00, 0x72, 0xB2);
const QColor kBreakEvenColor(0x00, 0x80, 0x00);
const QColor kRentColors[]
    = { QColor(0xD5, 0x5E, 0x00), QColor(0xCC, 0x79, 0xA7), QColor(0x00, 0x9E, 0x73),
          QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9), QColor(0x44, 0x44, 0x44) };

QString number(double value, int decimals)
{
    static const QLocale english(QLocale::English, QLocale::UnitedStates);
    return english.toString(value, 'f', decimals);
}

int runsToShow(const Results& r, const OwnedOption& o, int requested)
{
    if (requested > 0)
        return requested;
    double runs = std::max(kMinRuns, r.assumptions.plannedRuns);
    if (o.breakEvenRuns)
        runs = std::max(runs, std::ceil(*o.breakEvenRuns * 1.5));
    return static_cast<int>(std::min<double>(runs, kMaxRuns));
}

ChartSeries curve(const QString& name, ChartSeries::Kind kind, const QColor& color, double capex,
    double perRun, int maxRuns, bool buy)
{
    ChartSeries s;
    s.name = name;
    s.kind = kind;
    s.color = color;
    for (const auto& p : buyVsRentCurve(capex, buy ? perRun : 0.0, buy ? 0.0 : perRun, maxRuns)) {
        ChartPoint point;
        point.x = p.runs;
        point.y = buy ? p.buyUsd : p.rentUsd;
        point.tooltip = QStringLiteral("%1 after %2 runs: %3")
                            .arg(name)
                            .arg(p.runs)
                            .arg(views::formatUsd(point.y));
        s.points.push_back(point);
    }
    return s;
}

} // namespace

std::vector<std::size_t> matchingCloudOffers(const Results& r, std::size_t optionIndex)
{
    std::vector<std::size_t> out;
    if (optionIndex >= r.options.size())
        return out;
    const auto& o = r.options[optionIndex];
    for (std::size_t i = 0; i < r.cloud.size(); ++i)
        if (r.cloud[i].gpu == o.gpu && r.cloud[i].gpuCount == o.gpuCount)
            out.push_back(i);
    return out;
}

ChartData buyVsRentChart(const Results& r, const BuyVsRentOptions& opt)
{
    ChartData chart;
    chart.x = { QStringLiteral("Number of training runs"), 0, 1, false, QString() };
    chart.y = { QStringLiteral("Cumulative cost (USD)"), 0, 1, false, QStringLiteral("$") };
    if (opt.optionIndex >= r.options.size()) {
        chart.title = QStringLiteral("Buy vs rent: no machine to compare");
        return chart;
    }
    const auto& o = r.options[opt.optionIndex];
    const QString machine = shortMachineLabel(o);
    chart.title = QStringLiteral("Buy %1 or rent: cumulative cost").arg(machine);
    const int maxRuns = runsToShow(r, o, opt.maxRuns);

    chart.series.push_back(
        curve(QStringLiteral("Buy ") + machine + QStringLiteral(" (machine + energy)"),
            ChartSeries::Kind::Line, kBuyColor, o.machineCostUsd, o.energyCostUsd, maxRuns, true));
    const auto offers
        = opt.cloudIndices.empty() ? matchingCloudOffers(r, opt.optionIndex) : opt.cloudIndices;
    std::size_t colour = 0;
    for (std::size_t index : offers) {
        if (index >= r.cloud.size())
            continue;
        const auto& c = r.cloud[index];
        const QColor color = kRentColors[colour++ % std::size(kRentColors)];
        const QString name = QString::fromStdString(c.offer->provider) + QLatin1Char(' ')
            + QString::fromStdString(c.offer->instance);
        if (c.onDemandCostUsd)
            chart.series.push_back(curve(name + QStringLiteral(", on-demand"),
                ChartSeries::Kind::Line, color, 0.0, *c.onDemandCostUsd, maxRuns, false));
        if (c.spotCostUsd)
            chart.series.push_back(curve(name + QStringLiteral(", spot"),
                ChartSeries::Kind::DashedLine, color, 0.0, *c.spotCostUsd, maxRuns, false));
        for (std::size_t k = 0; k < c.reservedCostUsd.size() && k < c.offer->reserved.size(); ++k)
            chart.series.push_back(curve(name
                    + QStringLiteral(", reserved %1-yr (per-run share)")
                          .arg(c.offer->reserved[k].years),
                ChartSeries::Kind::DashedLine, color.darker(140), 0.0, c.reservedCostUsd[k],
                maxRuns, false));
    }
    if (o.breakEvenRuns && *o.breakEvenRuns <= maxRuns)
        chart.lines.push_back({ ReferenceLine::Orientation::Vertical, *o.breakEvenRuns,
            QStringLiteral("Break-even: %1 runs").arg(number(*o.breakEvenRuns, 1)),
            kBreakEvenColor });
    chart.footnote = buyVsRentConclusion(r, opt.optionIndex);

    std::vector<double> ys;
    for (const auto& s : chart.series)
        for (const auto& p : s.points)
            ys.push_back(p.y);
    const Range ry = paddedRange(ys, false);
    chart.y.min = std::max(0.0, ry.min); // cumulative cost starts at 0: no marker to cut
    chart.y.max = ry.max;
    chart.x.min = 0.0;
    chart.x.max = maxRuns;
    if (opt.months && o.runsPerMonth > 0.0) {
        // Same curves, spread over the calendar at the run rate the core counts months with.
        for (auto& s : chart.series)
            for (auto& p : s.points)
                p.x /= o.runsPerMonth;
        for (auto& line : chart.lines) {
            line.value = o.breakEvenMonths.value_or(line.value / o.runsPerMonth);
            line.label = QStringLiteral("Break-even: %1 months").arg(number(line.value, 1));
        }
        chart.x.title
            = QStringLiteral("Months (at %1 runs a month)").arg(number(o.runsPerMonth, 2));
        chart.x.max = maxRuns / o.runsPerMonth;
    }
    return chart;
}

QString buyVsRentConclusion(const Results& r, std::size_t optionIndex)
{
    if (optionIndex >= r.options.size())
        return QStringLiteral("No machine is available to buy for this model.");
    const auto& o = r.options[optionIndex];
    const QString machine = shortMachineLabel(o);
    if (!o.cheapestCloudIndex)
        return QStringLiteral("No cloud offer has the same GPUs as %1, so there is no break-even "
                              "to state.")
            .arg(machine);
    const auto& c = r.cloud[*o.cheapestCloudIndex];
    const QString against = QStringLiteral("%1 %2 at %3 per run")
                                .arg(QString::fromStdString(c.offer->provider),
                                    QString::fromStdString(c.cheapestPricing),
                                    views::formatUsd(c.cheapestCostUsd.value_or(0.0)));
    if (!o.breakEvenRuns)
        return QStringLiteral("Renting stays cheaper than buying %1: %2 costs less per run than "
                              "the machine's electricity.")
            .arg(machine, against);
    QString text = QStringLiteral("Buying %1 pays off from run %2 (break-even at %3 runs")
                       .arg(machine, number(std::floor(*o.breakEvenRuns) + 1.0, 0),
                           number(*o.breakEvenRuns, 1));
    // The core caps the run rate at what the machine can run back to back.
    if (o.breakEvenMonths)
        text += QStringLiteral(", about %1 months").arg(number(*o.breakEvenMonths, 0));
    text += QLatin1Char(')');
    return text + QStringLiteral(", against ") + against + QLatin1Char('.');
}

} // namespace gpuplan::render

#include "app/render/sensitivity_chart.h"

#include "app/common/format.h"
#include "app/render/axis_range.h"
#include "app/render/planner_charts.h"

#include <algorithm>
#include <cmath>

namespace gpuplan::render {

namespace {

// Colour-blind-safe (Okabe-Ito), as the other charts.
const QColor kBarColor(0x00, 0x72, 0xB2);
const QColor kNeverColor(0xD5, 0x5E, 0x00);
const QColor kStatedColor(0x44, 0x44, 0x44);

QString metricText(SensitivityMetric metric, double v)
{
    return metric == SensitivityMetric::ExperimentCostUsd ? views::formatUsd(v)
                                                          : QString::number(v, 'f', 1);
}

QString inputText(const SensitivityRow& row, double v)
{
    if (row.input == kPurchasePriceInput || row.input == kCloudRateInput)
        return views::formatUsd(v);
    if (row.input == kTrainingDaysInput)
        return views::formatDays(v);
    return QString::number(v, 'g', 3);
}

} // namespace

ChartData sensitivityChart(
    const std::vector<SensitivityRow>& rows, const SensitivityChartOptions& options)
{
    const bool breakEven = options.metric == SensitivityMetric::BreakEvenRuns;
    ChartData chart;
    chart.title = breakEven
        ? QStringLiteral("What moves the break-even of %1 against %2")
              .arg(options.machine, options.against)
        : QStringLiteral("What moves the per-experiment cost of %1").arg(options.machine);
    chart.x = { breakEven ? QStringLiteral("Runs to break even")
                          : QStringLiteral("Per-experiment cost (USD)"),
        0, 1, false, breakEven ? QString() : QStringLiteral("$") };
    // Rows, not values: each bar carries its input's name, so the axis has neither numbers nor a
    // title (Qt Charts draws the title of an axis without labels above the plot); the footnote
    // says how the rows are ordered.
    chart.y = { QString(), 0, 1, false, QString(), /*ticks=*/false };

    std::vector<const SensitivityRow*> shown;
    std::vector<double> xs;
    for (const auto& row : rows) {
        if (row.metric != options.metric)
            continue;
        shown.push_back(&row);
        for (const auto& v : { row.metricLow, row.metricHigh })
            if (v)
                xs.push_back(*v);
    }
    if (options.statedValue)
        xs.push_back(*options.statedValue);
    const Range x = paddedRange(xs, /*log=*/false);
    chart.x.min = x.min;
    chart.x.max = x.max;
    chart.y.min = 0.0;
    chart.y.max = static_cast<double>(shown.size()) + 1.0;

    bool anyNever = false;
    for (std::size_t rank = 0; rank < shown.size(); ++rank) {
        const SensitivityRow& row = *shown[rank];
        const double y = static_cast<double>(shown.size() - rank);
        ChartSeries bar;
        bar.name = QString::fromStdString(row.label);
        bar.kind = ChartSeries::Kind::Line;
        bar.color = kBarColor;
        bool never = false;
        const std::pair<std::optional<double>, double> ends[]
            = { { row.metricLow, row.lowValue }, { row.metricHigh, row.highValue } };
        for (const auto& [metric, input] : ends) {
            ChartPoint p;
            p.y = y;
            p.x = metric ? *metric : chart.x.max;
            never = never || !metric;
            const QString at = QStringLiteral("%1 at %2").arg(bar.name, inputText(row, input));
            p.tooltip = at + QStringLiteral(": ")
                + (metric ? metricText(options.metric, *metric) : QStringLiteral("never pays off"));
            p.label = inputText(row, input);
            bar.points.push_back(p);
        }
        // The bar's name beside its left end.
        std::sort(bar.points.begin(), bar.points.end(),
            [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
        bar.points.front().label = bar.name + QStringLiteral(" ") + bar.points.front().label;
        if (never)
            bar.color = kNeverColor;
        anyNever = anyNever || never;
        chart.series.push_back(std::move(bar));
    }
    if (options.statedValue)
        chart.lines.push_back({ ReferenceLine::Orientation::Vertical, *options.statedValue,
            QStringLiteral("stated values: ") + metricText(options.metric, *options.statedValue),
            kStatedColor });
    chart.footnote = QStringLiteral("The input that moves it most at the top; each moved across "
                                    "its range alone, the others at their stated values.");
    if (anyNever)
        chart.footnote += QStringLiteral(" Bars reaching the right edge: buying never pays off "
                                         "at that end.");
    return chart;
}

std::optional<ChartData> machineSensitivityChart(const Scenario& scenario, const Results& r,
    std::size_t optionIndex, std::optional<std::size_t> cloudIndex, SensitivityMetric metric,
    QString* error)
{
    const OwnedOption& o = r.options.at(optionIndex);
    const auto against = cloudIndex ? cloudIndex : o.cheapestCloudIndex;
    SensitivityChartOptions tornado;
    tornado.metric = metric;
    if (metric == SensitivityMetric::BreakEvenRuns && !against) {
        *error = QStringLiteral("no way to rent the same GPUs to break even against: use "
                                "--metric experiment-cost");
        return std::nullopt;
    }
    tornado.machine = shortMachineLabel(o);
    if (against)
        tornado.against = rentalLabel(r.cloud.at(*against));
    if (metric == SensitivityMetric::ExperimentCostUsd) {
        tornado.statedValue = o.experimentCostUsd;
    } else {
        // At the pricing sensitivity() compares with: the cheaper of on-demand and spot.
        const CloudOption& c = r.cloud[*against];
        const Pricing pricing
            = c.spotCostUsd && (!c.onDemandCostUsd || *c.spotCostUsd < *c.onDemandCostUsd)
            ? Pricing::Spot
            : Pricing::OnDemand;
        for (const auto& b : o.breakEvens)
            if (b.cloudIndex == *against && b.pricing == pricing)
                tornado.statedValue = b.runs;
    }
    return sensitivityChart(sensitivity(scenario, r, optionIndex, cloudIndex), tornado);
}

} // namespace gpuplan::render

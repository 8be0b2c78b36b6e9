#include "app/render/sensitivity_chart.h"

#include "app/common/format.h"
#include "app/common/wording.h"
#include "app/render/axis_range.h"
#include "app/render/planner_charts.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace gpuplan::render {

namespace {

// Colour-blind-safe (Okabe-Ito), as the other charts: the two ends of each input's range in two
// blues, "never pays off" in vermillion.
const QColor kLowEndColor(0x56, 0xB4, 0xE9);
const QColor kHighEndColor(0x00, 0x72, 0xB2);
const QColor kAcrossColor(0x00, 0x72, 0xB2);
const QColor kNeverColor(0xD5, 0x5E, 0x00);
const QColor kStatedColor(0x44, 0x44, 0x44);

// Room beside the outermost bars for the input values written at their ends, as a fraction of
// the plotted span on either side (besides the axis's usual padding).
constexpr double kEndLabelRoom = 0.25;

QString metricText(SensitivityMetric metric, double v)
{
    return metric == SensitivityMetric::ExperimentCostUsd ? views::formatUsd(v)
                                                          : QString::number(v, 'f', 1);
}

// One end of an input's range, as drawn: where the bar ends (the right edge for "never pays
// off"), labelled with the input's value there.
ChartPoint endPoint(const SensitivityRow& row, std::optional<double> metric, double input, double y,
    double rightEdge, SensitivityMetric shown)
{
    ChartPoint p;
    p.y = y;
    p.x = metric ? *metric : rightEdge;
    p.label = views::sensitivityInputText(row, input);
    p.tooltip = QStringLiteral("%1 at %2: %3")
                    .arg(QString::fromStdString(row.label), p.label,
                        metric ? metricText(shown, *metric) : QStringLiteral("never pays off"));
    return p;
}

// A bar's legend entry: the first bar of each colour gives it, the others share it.
void addBar(ChartData& chart, ChartSeries bar, std::vector<QColor>& inLegend)
{
    bar.kind = ChartSeries::Kind::Bar;
    bar.inLegend = std::find(inLegend.begin(), inLegend.end(), bar.color) == inLegend.end();
    if (bar.inLegend)
        inLegend.push_back(bar.color);
    chart.series.push_back(std::move(bar));
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
    // An axis of rows, each named beside its bar; no title (Qt Charts draws the title of such an
    // axis above the plot): the footnote says how the rows are ordered.
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
    const double room = kEndLabelRoom * (x.max - x.min);
    chart.x.min = x.min - room;
    chart.x.max = x.max + room;
    chart.y.min = 0.0;
    chart.y.max = static_cast<double>(shown.size()) + 1.0;

    // Top row first, so that in a crowded chart the inputs that matter most place their labels
    // first; the axis's rows are put in ascending order at the end.
    std::vector<QColor> inLegend;
    bool anyNever = false;
    for (std::size_t rank = 0; rank < shown.size(); ++rank) {
        const SensitivityRow& row = *shown[rank];
        const double y = static_cast<double>(shown.size() - rank);
        chart.y.rows.push_back({ y, QString::fromStdString(row.label) });
        const ChartPoint low
            = endPoint(row, row.metricLow, row.lowValue, y, chart.x.max, options.metric);
        const ChartPoint high
            = endPoint(row, row.metricHigh, row.highValue, y, chart.x.max, options.metric);
        anyNever = anyNever || !row.metricLow || !row.metricHigh;
        if (!options.statedValue) {
            // Nothing to swing from: one bar across the input's range, labelled at both ends.
            ChartSeries across;
            const bool paysOff = row.metricLow && row.metricHigh;
            across.name = paysOff ? QStringLiteral("Input across its range")
                                  : QStringLiteral("Buying never pays off at one end");
            across.color = paysOff ? kAcrossColor : kNeverColor;
            across.points = { low, high };
            std::sort(across.points.begin(), across.points.end(),
                [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
            across.points.front().labelSide = LabelSide::Left;
            across.points.back().labelSide = paysOff ? LabelSide::Right : LabelSide::Left;
            addBar(chart, std::move(across), inLegend);
            continue;
        }
        // From the stated value to each end, the end's input value written beyond it.
        ChartPoint stated;
        stated.x = *options.statedValue;
        stated.y = y;
        const std::tuple<const ChartPoint&, bool, QString, QColor> ends[] = {
            { low, row.metricLow.has_value(), QStringLiteral("Input at the low end of its range"),
                kLowEndColor },
            { high, row.metricHigh.has_value(),
                QStringLiteral("Input at the high end of its range"), kHighEndColor },
        };
        // Beyond each end, away from the other bar. A bar to the right edge has no room beyond
        // it, so its label goes over its own end; an end at the stated value (an input whose
        // range ends at its value, as "Machine in use" at 100%) goes opposite the other bar.
        const auto sideOf = [&](const ChartPoint& end, bool paysOff, const ChartPoint& other) {
            if (!paysOff || end.x < stated.x)
                return LabelSide::Left;
            if (end.x > stated.x)
                return LabelSide::Right;
            return other.x > stated.x ? LabelSide::Left : LabelSide::Right;
        };
        for (const auto& [end, paysOff, name, color] : ends) {
            ChartSeries bar;
            bar.name = paysOff ? name : QStringLiteral("Buying never pays off");
            bar.color = paysOff ? color : kNeverColor;
            stated.tooltip = end.tooltip;
            bar.points = { stated, end };
            bar.points.back().labelSide = sideOf(end, paysOff, &end == &low ? high : low);
            addBar(chart, std::move(bar), inLegend);
        }
    }
    std::reverse(chart.y.rows.begin(), chart.y.rows.end());
    if (options.statedValue)
        chart.lines.push_back({ ReferenceLine::Orientation::Vertical, *options.statedValue,
            QStringLiteral("stated values: ") + metricText(options.metric, *options.statedValue),
            kStatedColor });
    chart.footnote = QStringLiteral("The input that moves it most at the top; each moved across "
                                    "its range alone, the others at their stated values; each "
                                    "bar's end labelled with the input's value there.");
    if (anyNever)
        chart.footnote += QStringLiteral(" Bars reaching the right edge: buying never pays off "
                                         "at that end.");
    if (shown.empty())
        chart.footnote = QStringLiteral("No uncertain input moves it.");
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
        // At the pricing sensitivity() compares with.
        const auto pricing = sensitivityPricing(r.cloud[*against]);
        for (const auto& b : o.breakEvens)
            if (pricing && b.cloudIndex == *against && b.pricing == *pricing)
                tornado.statedValue = b.runs;
    }
    return sensitivityChart(sensitivity(scenario, r, optionIndex, cloudIndex), tornado);
}

} // namespace gpuplan::render

#include "app/render/planner_charts.h"

#include "app/common/format.h"
#include "app/common/option_columns.h"
#include "app/common/wording.h"
#include "app/render/axis_range.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <map>

namespace gpuplan::render {

namespace {

// The deadline line's label, "Deadline 32.9 days", as the deadline was set.
QString deadlineLabel(double days)
{
    return QStringLiteral("Deadline ") + views::formatDeadline(days);
}

// Okabe & Ito (2008), "Color Universal Design": distinguishable with every common colour
// vision deficiency, and in greyscale print; then the five of Paul Tol's "muted" scheme that
// differ from them, so that the thirteen GPU types of the shipped tables each get their own
// colour (with eight, RTX 3090 and B200, H100 SXM and RTX 5090 ... looked the same).
const QColor kPalette[] = { QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00),
    QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7), QColor(0xE6, 0x9F, 0x00),
    QColor(0x56, 0xB4, 0xE9), QColor(0x00, 0x00, 0x00), QColor(0xF0, 0xE4, 0x42),
    QColor(0x88, 0x22, 0x55), QColor(0x44, 0xAA, 0x99), QColor(0x99, 0x99, 0x33),
    QColor(0x33, 0x22, 0x88), QColor(0xCC, 0x66, 0x77) };
const QColor kFrontierColor(0x55, 0x55, 0x55);
const QColor kBudgetColor(0x00, 0x80, 0x00);
const QColor kDeadlineColor(0xB0, 0x00, 0x00);

PeakWarning peakWarning(const TrainingEstimate& e)
{
    if (e.hasFlag(EstimateFlag::ExceedsPeak))
        return PeakWarning::ExceedsPeak;
    return e.hasFlag(EstimateFlag::Suspect) ? PeakWarning::Suspect : PeakWarning::None;
}

QString optionTooltip(const OwnedOption& o)
{
    QStringList lines;
    lines << views::formatMachine(o.gpuCount, QString::fromStdString(o.gpu->name));
    lines << QStringLiteral("Training: %1 (source: %2)")
                 .arg(views::formatDays(o.estimate.days),
                     views::toQString(toString(o.estimate.source)));
    if (!o.estimate.configuration.empty())
        lines << QStringLiteral("Configuration: ")
                + QString::fromStdString(o.estimate.configuration);
    lines << QStringLiteral("Machine: %1, per experiment: %2, energy per run: %3")
                 .arg(views::formatUsd(o.machineCostUsd), views::formatUsd(o.experimentCostUsd),
                     views::formatUsd(o.energyCostUsd));
    if (o.estimate.impliedUtilization)
        lines << QStringLiteral("Implied utilisation: ")
                + views::formatPercent(*o.estimate.impliedUtilization);
    if (o.estimate.validationError)
        lines << QStringLiteral("Validation error: ")
                + views::formatPercent(*o.estimate.validationError);
    const QString flags = views::optionFlagExplanations(o);
    if (!flags.isEmpty())
        lines << flags;
    return lines.join(QLatin1Char('\n'));
}

// GPU types in the order they first appear, so colours match between the two charts.
std::map<const GpuSpec*, std::size_t> gpuOrder(const Results& r)
{
    std::map<const GpuSpec*, std::size_t> order;
    for (const auto& o : r.options)
        order.emplace(o.gpu, order.size());
    return order;
}

Marker markerFor(EstimateSource s)
{
    switch (s) {
    case EstimateSource::Measured:
        return Marker::Pentagon;
    case EstimateSource::Extrapolated:
        return Marker::Star;
    case EstimateSource::Paper:
        return Marker::Diamond;
    case EstimateSource::PaperNaive:
        return Marker::Triangle;
    case EstimateSource::Analytic:
        return Marker::Square;
    }
    return Marker::Circle;
}

QString comparisonName(EstimateSource s)
{
    switch (s) {
    case EstimateSource::Measured:
        return QStringLiteral("Measured (gpuplan-bench)");
    case EstimateSource::Extrapolated:
        return QStringLiteral("Extrapolated from gpuplan-bench");
    case EstimateSource::Paper:
        return QStringLiteral("Paper, Table 1");
    case EstimateSource::PaperNaive:
        return QStringLiteral("Paper, Table 4 (naive)");
    case EstimateSource::Analytic:
        return QStringLiteral("Analytic estimate");
    }
    return {};
}

// What a chart plots of an option: its point and, where the results carry ranges, the range of
// each coordinate.
struct Coordinates {
    std::pair<double, double> (*xy)(const OwnedOption&);
    std::pair<Interval, Interval> (*ranges)(const OwnedOption&);
};

const Coordinates kHardware {
    [](const OwnedOption& o) { return std::make_pair(o.machineCostUsd, o.estimate.days); },
    [](const OwnedOption& o) { return std::make_pair(o.machineCostRange, o.daysRange); },
};

const Coordinates kExperiment {
    [](const OwnedOption& o) { return std::make_pair(o.estimate.days, o.experimentCostUsd); },
    [](const OwnedOption& o) { return std::make_pair(o.daysRange, o.experimentCostRange); },
};

ChartPoint optionPoint(
    const OwnedOption& o, std::size_t index, Coordinates xy, bool labelled, bool ranges)
{
    ChartPoint p;
    std::tie(p.x, p.y) = xy.xy(o);
    p.label = labelled ? shortMachineLabel(o) : QString();
    p.tooltip = optionTooltip(o);
    p.warning = peakWarning(o.estimate);
    p.optionIndex = static_cast<int>(index);
    if (ranges) {
        const auto [x, y] = xy.ranges(o);
        p.xRange = ValueRange { x.low, x.high };
        p.yRange = ValueRange { y.low, y.high };
    }
    return p;
}

// One series per GPU type for the main results, one hollow series per comparison source, the
// frontier as a dashed line through the points that `onFrontier` selects.
void addOwnedSeries(ChartData& chart, const Results& r, const PlannerChartOptions& opt,
    Coordinates xy, bool (*onFrontier)(const OwnedOption&))
{
    const auto order = gpuOrder(r);
    std::vector<ChartSeries> perGpu(order.size());
    for (const auto& [gpu, index] : order) {
        perGpu[index].name = QString::fromStdString(gpu->name);
        perGpu[index].color = gpuColor(index);
        perGpu[index].legendOptional = true;
    }
    ChartSeries frontier;
    frontier.name = QStringLiteral("Pareto frontier");
    frontier.kind = ChartSeries::Kind::DashedLine;
    frontier.color = kFrontierColor;
    for (std::size_t i = 0; i < r.options.size(); ++i) {
        const auto& o = r.options[i];
        perGpu[order.at(o.gpu)].points.push_back(optionPoint(o, i, xy, true, r.hasRanges));
        if (onFrontier(o))
            frontier.points.push_back(optionPoint(o, i, xy, false, false));
    }
    std::sort(frontier.points.begin(), frontier.points.end(),
        [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
    if (frontier.points.size() >= 2)
        chart.series.push_back(std::move(frontier));
    for (auto& s : perGpu)
        chart.series.push_back(std::move(s));

    for (const Results* other : opt.comparisons) {
        if (!other || other->options.empty())
            continue;
        ChartSeries s;
        s.name = comparisonName(other->options.front().estimate.source);
        s.marker = markerFor(other->options.front().estimate.source);
        s.hollow = true;
        s.color = QColor(0x20, 0x20, 0x20);
        for (const auto& o : other->options) {
            ChartPoint p = optionPoint(o, 0, xy, false, false);
            p.optionIndex = -1; // not a row of the main table's results
            s.points.push_back(p);
        }
        chart.series.push_back(std::move(s));
    }
    if (opt.highlightOption && *opt.highlightOption < r.options.size())
        chart.highlight
            = optionPoint(r.options[*opt.highlightOption], *opt.highlightOption, xy, false, false);
}

// Ranges over every plotted value and every reference line, padded; log axes skip values <= 0
// (and the footnote says so) so Qt Charts never drops a whole series.
void fitAxes(ChartData& chart)
{
    std::vector<double> xs;
    std::vector<double> ys;
    int dropped = 0;
    for (auto& s : chart.series) {
        auto keep = std::remove_if(s.points.begin(), s.points.end(), [&](const ChartPoint& p) {
            const bool bad = (chart.x.log && p.x <= 0.0) || (chart.y.log && p.y <= 0.0);
            dropped += bad ? 1 : 0;
            return bad;
        });
        s.points.erase(keep, s.points.end());
        for (const auto& p : s.points) {
            xs.push_back(p.x);
            ys.push_back(p.y);
        }
    }
    for (const auto& l : chart.lines)
        (l.orientation == ReferenceLine::Orientation::Vertical ? xs : ys).push_back(l.value);
    const Range rx = paddedRange(xs, chart.x.log);
    const Range ry = paddedRange(ys, chart.y.log);
    chart.x.min = rx.min;
    chart.x.max = rx.max;
    chart.y.min = ry.min;
    chart.y.max = ry.max;
    if (dropped > 0)
        chart.footnote += QStringLiteral(" %1 point(s) with a zero value are not shown on the "
                                         "log axis.")
                              .arg(dropped);
}

QString unavailableNote(const Results& r)
{
    const QString summary = views::unavailableSummary(r);
    return summary.isEmpty() ? summary
                             : QStringLiteral("Not available: ") + summary + QLatin1Char('.');
}

QString sourceNote(const Results& r)
{
    return QStringLiteral("Source: %1 estimates; amortised over %2 years at %3 use.%4")
        .arg(views::toQString(toString(r.source)))
        .arg(r.assumptions.amortizationYears)
        .arg(views::formatPercent(r.assumptions.machineUtilization))
        .arg(r.hasRanges ? QStringLiteral(" Whiskers: each value with every input at either end "
                                          "of its range.")
                         : QString());
}

QString modelName(const Results& r)
{
    return r.workload ? QString::fromStdString(r.workload->name) : QStringLiteral("(no model)");
}

} // namespace

QColor gpuColor(std::size_t index)
{
    return kPalette[index % std::size(kPalette)];
}

std::map<const GpuSpec*, QColor> gpuColors(const Results& results)
{
    std::map<const GpuSpec*, QColor> colors;
    for (const auto& [gpu, index] : gpuOrder(results))
        colors.emplace(gpu, gpuColor(index));
    return colors;
}

QString withoutMemorySize(const std::string& gpuName)
{
    static const QRegularExpression memorySuffix(QStringLiteral("\\s+\\d+\\s*GB$"));
    QString name = QString::fromStdString(gpuName);
    name.remove(memorySuffix);
    return name;
}

QString shortMachineLabel(const OwnedOption& option)
{
    return views::formatMachine(option.gpuCount, withoutMemorySize(option.gpu->name));
}

QString rentalLabel(const CloudOption& option)
{
    return QString::fromStdString(option.offer->provider) + QLatin1Char(' ')
        + views::formatMachine(option.gpuCount, QString::fromStdString(option.gpu->name));
}

ChartData hardwareCostChart(const Results& r, const PlannerChartOptions& opt)
{
    ChartData chart;
    chart.title = modelName(r) + QStringLiteral(": training days vs hardware cost");
    chart.x = { QStringLiteral("Machine cost (USD)"), 0, 1, opt.logX, QStringLiteral("$") };
    chart.y = { QStringLiteral("Training days"), 0, 1, opt.logY, QString() };
    chart.y.shortTitle = QStringLiteral("Days");
    addOwnedSeries(chart, r, opt, kHardware, [](const OwnedOption& o) { return o.paretoHardware; });
    if (opt.budgetUsd)
        chart.lines.push_back({ ReferenceLine::Orientation::Vertical, *opt.budgetUsd,
            QStringLiteral("Budget ") + views::formatUsd(*opt.budgetUsd), kBudgetColor, true });
    if (opt.deadlineDays)
        chart.lines.push_back({ ReferenceLine::Orientation::Horizontal, *opt.deadlineDays,
            deadlineLabel(*opt.deadlineDays), kDeadlineColor, true });
    chart.footnote = sourceNote(r);
    const QString missing = unavailableNote(r);
    if (!missing.isEmpty())
        chart.footnote += QLatin1Char(' ') + missing;
    fitAxes(chart);
    return chart;
}

ChartData experimentCostChart(const Results& r, const PlannerChartOptions& opt)
{
    ChartData chart;
    chart.title
        = modelName(r) + QStringLiteral(": per-experiment cost vs training days, buy or rent");
    chart.x = { QStringLiteral("Training days"), 0, 1, opt.logX, QString() };
    chart.y = { QStringLiteral("Cost per experiment (USD)"), 0, 1, opt.logY, QStringLiteral("$") };
    chart.y.shortTitle = QStringLiteral("$ per experiment");
    addOwnedSeries(
        chart, r, opt, kExperiment, [](const OwnedOption& o) { return o.paretoExperiment; });

    ChartSeries allocations = addRentalSeries(chart, r, opt.cloud);
    int rentalPoints = static_cast<int>(allocations.points.size());
    for (const auto& series : chart.series)
        for (const auto& p : series.points)
            rentalPoints += p.cloudIndex >= 0 ? 1 : 0;
    if (opt.deadlineDays)
        chart.lines.push_back({ ReferenceLine::Orientation::Vertical, *opt.deadlineDays,
            deadlineLabel(*opt.deadlineDays), kDeadlineColor, true });
    // The paper's Fig. 7 measure for owning leaves electricity out; a rental's price has it in.
    // With resale or owning costs set, what is spread is more than the price.
    const bool owningBeyondPrice = std::any_of(r.options.begin(), r.options.end(),
        [](const OwnedOption& o) { return o.owning.resaleUsd > 0.0 || o.owning.monthlyUsd > 0.0; });
    chart.footnote = sourceNote(r)
        + QStringLiteral(" Owned: %1 spread over their life, electricity apart (in the "
                         "table); rented: the whole bill, reserved terms shared by the planned "
                         "runs.")
              .arg(owningBeyondPrice ? QStringLiteral("the price less any resale, with the "
                                                      "owning costs of that life,")
                                     : QStringLiteral("the price"));
    if (const QString note = rentalNote(r, opt.cloud, rentalPoints); !note.isEmpty())
        chart.footnote += QLatin1Char(' ') + note;
    placeAllocations(chart, allocations, AxesFitted::No);
    fitAxes(chart);
    placeAllocations(chart, allocations, AxesFitted::Yes);
    return chart;
}

} // namespace gpuplan::render

#include "app/render/chart_widget.h"

#include "app/common/format.h"

#include "app/render/label_placement.h"
#include "app/render/range_marks.h"
#include "core/training_estimate.h"

#include <QAction>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QGraphicsPathItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QKeyEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QMenu>
#include <QPainter>
#include <QPen>
#include <QScatterSeries>
#include <QTextDocument>
#include <QTextOption>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>

namespace gpuplan::render {

namespace {

constexpr qreal kMarkerSize = 11.0;
constexpr qreal kFlagRingSize = 19.0;
constexpr qreal kImpossibleRingSize = 23.0; // a diamond: its corners reach past the circle
constexpr qreal kHighlightSize = 25.0;
constexpr qreal kLabelGap = 6.0;
constexpr int kFocusFrame = 2; // pixels around the chart, in the highlight colour when focused
// A tornado's bar: thick enough to read as a bar, well inside its row; its end labels in grey.
constexpr qreal kBarWidth = 12.0;
const QColor kBarLabelColor(0x33, 0x33, 0x33);
// The least room under the plot for its footnote (fitFootnote gives a longer note more): the
// same for short notes, so that charts side by side keep their plots level.
constexpr int kFootnoteHeight = 50;
const QColor kFlagColor(0xC0, 0x00, 0x00);
const QColor kImpossibleColor(0x80, 0x00, 0x80);
// Behind each label: a line that still runs under one (in a crowded chart) stays readable.
const QColor kLabelHalo(255, 255, 255, 215);
// Ranges: a light band under the lines and grid, whiskers under the markers (Qt Charts draws
// its grid at z 2 and its series at z 4).
constexpr qreal kBandZ = 1.5;
constexpr qreal kWhiskerZ = 3.5;
constexpr int kBandAlpha = 45;
constexpr int kWhiskerAlpha = 170;

QScatterSeries::MarkerShape shapeOf(Marker m)
{
    switch (m) {
    case Marker::Circle:
        return QScatterSeries::MarkerShapeCircle;
    case Marker::Square:
        return QScatterSeries::MarkerShapeRectangle;
    case Marker::Triangle:
        return QScatterSeries::MarkerShapeTriangle;
    case Marker::Diamond:
        return QScatterSeries::MarkerShapeRotatedRectangle;
    case Marker::Star:
        return QScatterSeries::MarkerShapeStar;
    case Marker::Pentagon:
        return QScatterSeries::MarkerShapePentagon;
    }
    return QScatterSeries::MarkerShapeCircle;
}

// Where a value sits on the drawn axis: log axes are drawn as linear axes over log10(value),
// so that ticks can be labelled 1-2-5 with grouped digits ("$20,000"), which QLogValueAxis
// (powers of ten only, printf formats) cannot do.
double toAxis(const Axis& axis, double value)
{
    return axis.log ? std::log10(value) : value;
}

QPointF toAxis(const ChartData& chart, double x, double y)
{
    return { toAxis(chart.x, x), toAxis(chart.y, y) };
}

// "$20k", "$1.5M", "200", "0.5": short enough that ticks never elide on a narrow chart.
QString tickLabel(const Axis& axis, double value)
{
    static const QLocale english(QLocale::English, QLocale::UnitedStates);
    const double magnitude = std::abs(value);
    QString suffix;
    if (magnitude >= 1e6) {
        value /= 1e6;
        suffix = QStringLiteral("M");
    } else if (magnitude >= 1e3) {
        value /= 1e3;
        suffix = QStringLiteral("k");
    }
    const double shown = std::abs(value);
    const int decimals = shown == 0.0 || shown >= 10.0 ? 0 : (shown >= 1.0 ? 1 : 2);
    QString text = english.toString(value, 'f', decimals);
    if (decimals > 0) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return axis.prefix + text + suffix;
}

// Tick values: 1-2-5 steps on linear axes (about six ticks); on log axes 1-2-5, 1-3 or only
// powers of ten per decade, by how many decades the axis spans.
std::vector<double> tickValues(const Axis& axis)
{
    std::vector<double> ticks;
    if (axis.log) {
        const int first = static_cast<int>(std::floor(std::log10(axis.min)));
        const int last = static_cast<int>(std::ceil(std::log10(axis.max)));
        const double decades = std::log10(axis.max / axis.min);
        // Fewer steps per decade as the range grows, so labels keep room and never elide.
        const std::vector<double> steps = decades <= 1.5 ? std::vector<double> { 1.0, 2.0, 5.0 }
            : decades <= 4.0                             ? std::vector<double> { 1.0, 3.0 }
                                                         : std::vector<double> { 1.0 };
        for (int k = first; k <= last; ++k)
            for (double m : steps) {
                const double v = m * std::pow(10.0, k);
                if (v >= axis.min && v <= axis.max)
                    ticks.push_back(v);
            }
        return ticks;
    }
    const double rough = (axis.max - axis.min) / 6.0;
    if (!(rough > 0.0))
        return { axis.min };
    const double power = std::pow(10.0, std::floor(std::log10(rough)));
    double step = power * 10.0;
    for (double m : { 1.0, 2.0, 5.0 })
        if (power * m >= rough) {
            step = power * m;
            break;
        }
    for (double v = std::ceil(axis.min / step) * step; v <= axis.max + step * 1e-9; v += step)
        ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    return ticks;
}

// The ticks drawn at a level of thinning: 0 all; on a log axis 1 its powers of ten; above that
// every 2nd, 4th, ... of those (of all, on a linear axis). A narrow plot drew "$1…" and "$3…" for
// ticks whose labels had no room.
std::vector<double> thinnedTicks(const Axis& axis, int level)
{
    std::vector<double> ticks = tickValues(axis);
    if (level <= 0 || ticks.size() <= 2)
        return ticks;
    if (axis.log) {
        std::vector<double> decades;
        for (double v : ticks)
            if (std::abs(std::log10(v) - std::round(std::log10(v))) < 1e-9)
                decades.push_back(v);
        if (decades.size() >= 2)
            ticks = decades;
        --level;
    }
    const std::size_t stride = std::size_t(1) << std::min(level, 6);
    std::vector<double> kept;
    for (std::size_t i = 0; i < ticks.size(); i += stride)
        kept.push_back(ticks[i]);
    return kept;
}

// An axis's title, in full ("Cost per experiment (USD) (log scale)"), or compact where the full
// one does not fit along the plot ("Cost per experiment (USD, log)"): the unit and the scale stay
// where Qt would elide the end of the full one ("Cost per experime...").
QString axisTitle(const Axis& spec, bool compact)
{
    if (!spec.log)
        return spec.title;
    if (!compact)
        return spec.title + QStringLiteral(" (log scale)");
    return spec.title.endsWith(QLatin1Char(')')) ? spec.title.chopped(1) + QStringLiteral(", log)")
                                                 : spec.title + QStringLiteral(" (log)");
}

// The shortest: the axis's short title with the scale ("$ per experiment (log)"); none without
// one.
QString shortAxisTitle(const Axis& spec)
{
    if (spec.shortTitle.isEmpty())
        return {};
    return spec.log ? spec.shortTitle + QStringLiteral(" (log)") : spec.shortTitle;
}

// Axes are made once and reconfigured: Qt Charts 6.4 leaves a removed axis drawn when the chart
// is replotted while hidden (another tab), so deleting and re-adding axes left stale labels.
void configureAxis(QCategoryAxis* axis, const Axis& spec, int tickLevel)
{
    const double min = toAxis(spec, spec.min);
    const double max = toAxis(spec, spec.max);
    // A shorter title is fitAxisTitles' choice: kept, so that a replot relabels nothing.
    const QString current = axis->titleText();
    const bool shortened = current == axisTitle(spec, true)
        || (!current.isEmpty() && current == shortAxisTitle(spec));
    const QString title = shortened ? current : axisTitle(spec, false);
    QStringList labels;
    QList<double> values;
    for (const AxisRow& row : spec.rows) {
        labels << row.label;
        values << toAxis(spec, row.value);
    }
    for (double v :
        spec.ticks&& spec.rows.empty() ? thinnedTicks(spec, tickLevel) : std::vector<double> {}) {
        labels << tickLabel(spec, v);
        values << toAxis(spec, v);
    }
    // An assumption change mostly leaves an axis as it was, and relabelling it lays out every
    // tick label again.
    const auto sameTicks = [&] {
        if (axis->categoriesLabels() != labels)
            return false;
        for (qsizetype i = 0; i < labels.size(); ++i)
            if (axis->endValue(labels[i]) != values[i])
                return false;
        return true;
    };
    if (axis->min() == min && axis->max() == max && axis->startValue() == min
        && axis->titleText() == title && sameTicks())
        return;
    for (const QString& label : axis->categoriesLabels())
        axis->remove(label);
    axis->setRange(min, max);
    axis->setStartValue(min);
    for (qsizetype i = 0; i < labels.size(); ++i)
        axis->append(labels[i], values[i]);
    axis->setTitleText(title);
}

QCategoryAxis* makeAxis()
{
    auto* axis = new QCategoryAxis;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    QPen grid = axis->gridLinePen();
    grid.setColor(QColor(0xDD, 0xDD, 0xDD));
    axis->setGridLinePen(grid);
    return axis;
}

QScatterSeries* ringSeries(const QString& name, qreal size, const QColor& color, qreal width)
{
    auto* s = new QScatterSeries;
    s->setName(name);
    s->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    s->setMarkerSize(size);
    s->setBrush(Qt::NoBrush);
    s->setPen(QPen(color, width));
    return s;
}

qreal ringExtent(PeakWarning warning)
{
    switch (warning) {
    case PeakWarning::ExceedsPeak:
        return kImpossibleRingSize;
    case PeakWarning::Suspect:
        return kFlagRingSize;
    case PeakWarning::None:
        break;
    }
    return kMarkerSize;
}

// A point label on a light halo.
class HaloLabel : public QGraphicsSimpleTextItem {
public:
    using QGraphicsSimpleTextItem::QGraphicsSimpleTextItem;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override
    {
        painter->setPen(Qt::NoPen);
        painter->setBrush(kLabelHalo);
        painter->drawRoundedRect(boundingRect().adjusted(-1.5, 0, 1.5, 0), 2, 2);
        QGraphicsSimpleTextItem::paint(painter, option, widget);
    }
};

struct PlacedLabel {
    QGraphicsSimpleTextItem* item = nullptr;
    QPointF value;
    QAbstractSeries* series = nullptr;
    LabelSide side = LabelSide::Any;
    QString text; // whole: the ringed machine's is elided where it is wider than the plot
};

} // namespace

struct ChartWidget::Impl {
    QChartView* view = nullptr;
    QChart* chart = nullptr;
    QCategoryAxis* xAxis = nullptr;
    QCategoryAxis* yAxis = nullptr;
    ChartData data;
    std::vector<PlacedLabel> labels;
    LabelGeometry geometry; // of the last placement
    QGraphicsTextItem* footnote = nullptr;
    QGraphicsTextItem* title = nullptr;
    // From the ringed point to its label, where that label had to go further out to show.
    QGraphicsLineItem* leader = nullptr;
    QString drawnTitle; // the data's title broken into lines (rich text) to fit the width
    // For hover and click: which data point a drawn series point is.
    std::vector<std::pair<QAbstractSeries*, const ChartSeries*>> seriesMap;
    std::vector<QAbstractSeries*> flagSeries; // rings over points of other series
    // What setChartData drew, kept so that data of the same shape (an assumption changed: the
    // same series, rings and lines with other values) only moves points, which costs a
    // fraction of building series, axes attachments and legend entries anew.
    std::vector<QXYSeries*> dataSeries; // by index into data.series
    QScatterSeries* suspectRing = nullptr; // attached only when it has points
    QScatterSeries* impossibleRing = nullptr;
    std::vector<QLineSeries*> referenceLines; // by index into data.lines
    QScatterSeries* highlight = nullptr;
    int rebuilds = 0;
    // Between setChartData's new data and its series: seriesMap and the range marks still point
    // into the old data, whose vectors the assignment may have reallocated. An axis change in
    // between emits plotAreaChanged, and placing labels then read freed memory (ASan).
    bool settingData = false;
    QFont legendFont; // the legend's at full size; fitLegend shrinks it where entries crowd
    QString legendKey; // what fitLegend last fitted: size, room and entries
    int xTickLevel = 0; // fitAxisTitles' thinning of each axis's ticks (thinnedTicks)
    int yTickLevel = 0;
    // Whiskers and bands, one path per series that has ranges, re-laid with the labels.
    struct RangeMark {
        QGraphicsPathItem* item;
        const ChartSeries* series;
        bool band;
    };
    std::vector<RangeMark> rangeMarks;
    // The last drawing's labels and range paths, handed out again before new ones are made:
    // with hundreds of offers, deleting and re-creating them was a tenth of a replot.
    std::vector<QGraphicsSimpleTextItem*> spareLabels;
    std::vector<QGraphicsPathItem*> sparePaths;

    // `value` is in axis space (log10 on log axes), as Qt Charts reports it.
    const ChartPoint* pointAt(QAbstractSeries* series, const QPointF& value) const
    {
        // A flag ring shares its position with a point of some series: search them all.
        const ChartPoint* best = nullptr;
        double bestDistance = std::numeric_limits<double>::max();
        for (const auto& [drawn, source] : seriesMap) {
            const bool ring
                = std::find(flagSeries.begin(), flagSeries.end(), series) != flagSeries.end();
            if (!ring && drawn != series)
                continue;
            for (const auto& p : source->points) {
                const QPointF at = toAxis(data, p.x, p.y);
                const double d = std::hypot(at.x() - value.x(), at.y() - value.y());
                if (d < bestDistance) {
                    bestDistance = d;
                    best = &p;
                }
            }
        }
        return best;
    }
};

ChartWidget::ChartWidget(QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Impl>())
{
    d->chart = new QChart;
    d->chart->setAnimationOptions(QChart::NoAnimation);
    d->chart->setBackgroundRoundness(0);
    // Placed by fitLegend, in columns: attached to the chart, Qt keeps one column and drops the
    // entries below the chart's edge (the deadline at the default window size; half the GPUs at
    // 1280x720). Detached and aligned left, it starts a new column where one is full.
    d->chart->legend()->detachFromChart();
    d->chart->legend()->setAlignment(Qt::AlignLeft);
    // Qt's 9 px around the entries, less: an entry more fits in a column.
    if (QGraphicsLayout* entries = d->chart->legend()->layout())
        entries->setContentsMargins(2, 2, 2, 2);
    // Legend entries drawn like their series: triangles for on-demand, stars for spot, lines.
    d->chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    QFont legend = d->chart->legend()->font();
    legend.setPointSizeF(legend.pointSizeF() * 0.9);
    d->chart->legend()->setFont(legend);
    d->legendFont = legend;
    d->chart->setMargins(QMargins(6, 6, 6, kFootnoteHeight));
    // The title is drawn by this widget, across the chart's whole width: Qt Charts lays its own
    // out between the margins, and the right one holds the legend (fitLegend).
    QFont title = d->chart->titleFont();
    title.setPointSizeF(title.pointSizeF() * 1.25);
    title.setBold(true);
    d->title = new QGraphicsTextItem(d->chart);
    d->title->setFont(title);
    d->title->setDefaultTextColor(d->chart->titleBrush().color());
    QTextOption centred = d->title->document()->defaultTextOption();
    centred.setAlignment(Qt::AlignHCenter);
    d->title->document()->setDefaultTextOption(centred);
    d->xAxis = makeAxis();
    d->yAxis = makeAxis();
    d->chart->addAxis(d->xAxis, Qt::AlignBottom);
    d->chart->addAxis(d->yAxis, Qt::AlignLeft);
    d->view = new QChartView(d->chart, this);
    d->view->setRenderHint(QPainter::Antialiasing);
    // The chart widget, not its view, takes focus: a click anywhere on the chart focuses it.
    d->view->setFocusPolicy(Qt::NoFocus);
    d->view->setFrameShape(QFrame::NoFrame);
    setFocusPolicy(Qt::StrongFocus);
    d->footnote = new QGraphicsTextItem(d->chart);
    d->leader = new QGraphicsLineItem(d->chart);
    // Dotted: the whiskers are solid grey lines, and a solid leader read as one of them; the
    // Pareto frontier is dashed dark grey, and a dashed leader beside it read as a piece of it
    // (review). Round caps make the dots dots.
    QPen leaderPen(QColor(0x20, 0x20, 0x20), 1.6, Qt::DotLine);
    leaderPen.setCapStyle(Qt::RoundCap);
    d->leader->setPen(leaderPen);
    d->leader->setZValue(9); // under the labels (10), over the series
    d->leader->hide();
    auto* layout = new QVBoxLayout(this);
    // Room for the focus frame paintEvent draws.
    layout->setContentsMargins(kFocusFrame, kFocusFrame, kFocusFrame, kFocusFrame);
    layout->addWidget(d->view);
    // The view leaves a context menu its items do not take to this widget, which shows these.
    auto* copy = new QAction(tr("Copy chart"), this);
    copy->setObjectName(QStringLiteral("copyChartAction"));
    connect(copy, &QAction::triggered, this, &ChartWidget::copyRequested);
    auto* exportChart = new QAction(tr("Export chart…"), this);
    exportChart->setObjectName(QStringLiteral("exportChartAction"));
    connect(exportChart, &QAction::triggered, this, &ChartWidget::exportRequested);
    addActions({ copy, exportChart });
    setContextMenuPolicy(Qt::ActionsContextMenu);
    // The chart's size is the view's (set after this widget's resizeEvent) or renderTo's.
    connect(d->chart, &QGraphicsWidget::geometryChanged, this, &ChartWidget::fitLegend);
    connect(d->chart, &QChart::plotAreaChanged, this, [this] {
        fitAxisTitles(); // an axis title's length does not move the plot: no loop
        placeLabels();
    });
    // Two charts side by side (Planner) or stacked (Buy vs rent) must fit a 1024x768 screen (or
    // a 1366x768 laptop at 125 %) beside the Assumptions dock; below this the axes' text crowds
    // the plot.
    setMinimumSize(300, 220);
}

ChartWidget::~ChartWidget() = default;

const ChartData& ChartWidget::chartData() const
{
    return d->data;
}

namespace {

// One drawn series per kind of ChartSeries, styled from the data alone.
QXYSeries* makeScatterSeries(const ChartSeries& spec)
{
    auto* scatter = new QScatterSeries;
    scatter->setMarkerShape(shapeOf(spec.marker));
    scatter->setMarkerSize(kMarkerSize);
    if (spec.hollow) {
        scatter->setBrush(Qt::NoBrush);
        scatter->setPen(QPen(spec.color, 2.0));
    } else {
        scatter->setBrush(spec.color);
        scatter->setPen(QPen(Qt::white, 0.8));
    }
    return scatter;
}

QXYSeries* makeLineSeries(const ChartSeries& spec)
{
    auto* line = new QLineSeries;
    QPen pen(spec.color, 2.2);
    if (spec.kind == ChartSeries::Kind::DashedLine)
        pen.setStyle(Qt::DashLine);
    if (spec.kind == ChartSeries::Kind::Bar) {
        pen.setWidthF(kBarWidth);
        pen.setCapStyle(Qt::FlatCap); // ends exactly at their values
    }
    line->setPen(pen);
    return line;
}

// The axis-space points of one series, and of the rings over its flagged points.
QList<QPointF> axisPoints(const ChartData& data, const std::vector<ChartPoint>& points)
{
    QList<QPointF> at;
    at.reserve(static_cast<qsizetype>(points.size()));
    for (const auto& p : points)
        at.append(toAxis(data, p.x, p.y));
    return at;
}

QList<QPointF> flaggedPoints(const ChartData& data, PeakWarning warning)
{
    QList<QPointF> at;
    for (const auto& s : data.series)
        for (const auto& p : s.points)
            if (p.warning == warning)
                at.append(toAxis(data, p.x, p.y));
    return at;
}

// Where a budget or deadline line runs: across the whole plot.
QList<QPointF> referencePoints(const ChartData& data, const ReferenceLine& line)
{
    if (line.orientation == ReferenceLine::Orientation::Vertical)
        return { toAxis(data, line.value, data.y.min), toAxis(data, line.value, data.y.max) };
    return { toAxis(data, data.x.min, line.value), toAxis(data, data.x.max, line.value) };
}

// A budget or deadline line.
QLineSeries* makeReferenceLine(const ChartData& data, const ReferenceLine& line)
{
    auto* s = new QLineSeries;
    s->setName(line.label);
    s->setPen(QPen(line.color, 1.6, Qt::DashDotLine));
    s->append(referencePoints(data, line));
    return s;
}

} // namespace

void ChartWidget::attachSeries(QAbstractSeries* series)
{
    d->chart->addSeries(series);
    series->attachAxis(d->xAxis);
    series->attachAxis(d->yAxis);
    // A legend entry fitLegend cut short names itself in full under the pointer.
    for (QLegendMarker* m : d->chart->legend()->markers(series))
        connect(m, &QLegendMarker::hovered, this, [this, m](bool entered) {
            if (entered && m->label() != m->series()->name())
                QToolTip::showText(QCursor::pos(), m->series()->name(), this);
            else
                QToolTip::hideText();
        });
}

void ChartWidget::addDataSeries(const ChartSeries& spec)
{
    QXYSeries* s
        = spec.kind == ChartSeries::Kind::Scatter ? makeScatterSeries(spec) : makeLineSeries(spec);
    s->setName(spec.name);
    s->append(axisPoints(d->data, spec.points));
    attachSeries(s);
    if (!spec.inLegend)
        for (QLegendMarker* m : d->chart->legend()->markers(s))
            m->setVisible(false);
    d->seriesMap.emplace_back(s, &spec);
    d->dataSeries.push_back(s);
    addPointLabels(spec, s);
    connect(s, &QXYSeries::hovered, this, [this, s](const QPointF& value, bool state) {
        if (!state) {
            QToolTip::hideText();
            return;
        }
        if (const ChartPoint* p = d->pointAt(s, value); p && !p->tooltip.isEmpty())
            QToolTip::showText(QCursor::pos(), p->tooltip, this);
    });
    connect(s, &QXYSeries::clicked, this, [this, s](const QPointF& value) {
        if (const ChartPoint* p = d->pointAt(s, value)) {
            if (p->optionIndex >= 0)
                emit optionClicked(p->optionIndex);
            else if (p->cloudIndex >= 0)
                emit cloudClicked(p->cloudIndex);
        }
    });
}

void ChartWidget::addPointLabels(const ChartSeries& spec, QAbstractSeries* drawn)
{
    for (const auto& p : spec.points) {
        if (p.label.isEmpty())
            continue;
        QGraphicsSimpleTextItem* item = nullptr;
        if (!d->spareLabels.empty()) {
            item = d->spareLabels.back();
            d->spareLabels.pop_back();
            item->setText(p.label); // a no-op for the same text: no new layout
            item->setToolTip(QString()); // the whole name of an elided ringed label, if it was one
        } else {
            item = new HaloLabel(p.label, d->chart);
            QFont f = item->font();
            f.setPointSizeF(f.pointSizeF() * 0.85);
            item->setFont(f);
        }
        // A bar's end is told by its place, and a light bar's colour would make faint text.
        item->setBrush(
            spec.kind == ChartSeries::Kind::Bar ? kBarLabelColor : spec.color.darker(130));
        item->setZValue(10);
        d->labels.push_back({ item, toAxis(d->data, p.x, p.y), drawn, p.labelSide, p.label });
    }
}

void ChartWidget::addRangeMarks(const ChartSeries& spec)
{
    for (const bool band : { true, false }) {
        if (band ? !hasBand(spec) : !hasWhiskers(spec))
            continue;
        QGraphicsPathItem* item = nullptr;
        if (!d->sparePaths.empty()) {
            item = d->sparePaths.back();
            d->sparePaths.pop_back();
            item->show();
        } else {
            item = new QGraphicsPathItem(d->chart);
        }
        QColor color = spec.color;
        color.setAlpha(band ? kBandAlpha : kWhiskerAlpha);
        item->setPen(band ? QPen(Qt::NoPen) : QPen(color, 1.2));
        item->setBrush(band ? QBrush(color) : QBrush(Qt::NoBrush));
        item->setZValue(band ? kBandZ : kWhiskerZ);
        d->rangeMarks.push_back({ item, &spec, band });
    }
}

int ChartWidget::rangeMarkCount() const
{
    return static_cast<int>(d->rangeMarks.size());
}

// The rings drawn over points whose implied utilisation is suspect or impossible, each only
// where it rings some point (an empty series would still have its legend entry).
void ChartWidget::addFlagRings()
{
    for (const PeakWarning warning : { PeakWarning::Suspect, PeakWarning::ExceedsPeak }) {
        const QList<QPointF> flagged = flaggedPoints(d->data, warning);
        if (flagged.isEmpty())
            continue;
        const bool suspect = warning == PeakWarning::Suspect;
        QScatterSeries* flags = suspect
            ? ringSeries(QStringLiteral("\u2265 %1 of peak: suspect")
                             .arg(views::formatPercent(kSuspectUtilization)),
                kFlagRingSize, kFlagColor, 2.0)
            : ringSeries(QStringLiteral("> 100% of peak: impossible"), kImpossibleRingSize,
                kImpossibleColor, 2.6);
        if (!suspect)
            flags->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
        flags->append(flagged);
        attachSeries(flags);
        d->flagSeries.push_back(flags);
        (suspect ? d->suspectRing : d->impossibleRing) = flags;
        connect(flags, &QXYSeries::hovered, this, [this, flags](const QPointF& value, bool state) {
            if (!state)
                return QToolTip::hideText();
            if (const ChartPoint* p = d->pointAt(flags, value))
                QToolTip::showText(QCursor::pos(), p->tooltip, this);
        });
    }
}

void ChartWidget::addHighlight(const QPointF& value)
{
    auto* ring = ringSeries(QStringLiteral("Selected"), kHighlightSize, Qt::black, 3.0);
    ring->append(toAxis(d->data, value.x(), value.y()));
    attachSeries(ring);
    d->highlight = ring;
    for (QLegendMarker* m : d->chart->legend()->markers(ring))
        m->setVisible(false);
}

namespace {

// Whether `next` draws the same series, rings, lines and highlight as `drawn` (styles and
// legend included), so that only their points change.
bool sameShape(const ChartData& drawn, const ChartData& next)
{
    if (drawn.series.size() != next.series.size() || drawn.lines.size() != next.lines.size()
        || drawn.highlight.has_value() != next.highlight.has_value())
        return false;
    for (std::size_t i = 0; i < drawn.series.size(); ++i) {
        const ChartSeries& a = drawn.series[i];
        const ChartSeries& b = next.series[i];
        if (a.name != b.name || a.kind != b.kind || a.marker != b.marker || a.hollow != b.hollow
            || a.color != b.color || a.inLegend != b.inLegend
            || a.legendOptional != b.legendOptional)
            return false;
    }
    for (std::size_t i = 0; i < drawn.lines.size(); ++i) {
        const ReferenceLine& a = drawn.lines[i];
        const ReferenceLine& b = next.lines[i];
        if (a.orientation != b.orientation || a.label != b.label || a.color != b.color)
            return false;
    }
    const auto anyFlagged = [](const ChartData& data, PeakWarning w) {
        return std::any_of(data.series.begin(), data.series.end(), [w](const ChartSeries& s) {
            return std::any_of(s.points.begin(), s.points.end(),
                [w](const ChartPoint& p) { return p.warning == w; });
        });
    };
    for (const PeakWarning w : { PeakWarning::Suspect, PeakWarning::ExceedsPeak })
        if (anyFlagged(drawn, w) != anyFlagged(next, w))
            return false;
    return true;
}

// The title as drawn: on one line where it fits `width`, else broken at spaces into lines that
// do. Qt Charts would elide it ("What moves the break-even of … against RunPod 2×RTX PRO 60…"),
// and a tornado's title names both machines it compares. Broken titles are rich text (<br>), so
// their words are escaped.
QString titleFitting(const QString& title, const QFont& font, qreal width)
{
    const QFontMetricsF metrics(font);
    if (width <= 0 || metrics.horizontalAdvance(title) <= width)
        return title;
    QStringList lines;
    QString line;
    for (const QString& word : title.split(QLatin1Char(' '))) {
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
            lines << line.toHtmlEscaped();
            line = word;
        } else {
            line = longer;
        }
    }
    lines << line.toHtmlEscaped();
    return lines.join(QStringLiteral("<br>"));
}

} // namespace

void ChartWidget::fitAxisTitles()
{
    const QRectF plot = d->chart->plotArea();
    if (plot.width() <= 0 || plot.height() <= 0)
        return;
    const std::pair<QCategoryAxis*, const Axis*> axes[]
        = { { d->xAxis, &d->data.x }, { d->yAxis, &d->data.y } };
    for (const auto& [axis, spec] : axes) {
        const qreal length = axis == d->xAxis ? plot.width() : plot.height();
        const QFontMetricsF metrics(axis->titleFont());
        // The longest that fits: full, compact, short; where none does, the shortest, elided.
        QString chosen
            = shortAxisTitle(*spec).isEmpty() ? axisTitle(*spec, true) : shortAxisTitle(*spec);
        for (const QString& title :
            { axisTitle(*spec, false), axisTitle(*spec, true), shortAxisTitle(*spec) })
            if (!title.isEmpty() && metrics.horizontalAdvance(title) <= length) {
                chosen = title;
                break;
            }
        if (axis->titleText() != chosen)
            axis->setTitleText(chosen);
    }
    fitTicks();
}

// The fewest ticks thinned away for every label to have its room along the plot: half of each
// neighbour's width (height, on the y axis) and a gap between them.
void ChartWidget::fitTicks()
{
    const QRectF plot = d->chart->plotArea();
    if (plot.width() <= 0 || plot.height() <= 0)
        return;
    constexpr qreal kTickGap = 8;
    const std::tuple<QCategoryAxis*, const Axis*, int*, bool> axes[] = {
        { d->xAxis, &d->data.x, &d->xTickLevel, true },
        { d->yAxis, &d->data.y, &d->yTickLevel, false },
    };
    for (const auto& [axis, spec, level, horizontal] : axes) {
        if (!spec->ticks || !spec->rows.empty())
            continue;
        const QFontMetricsF metrics(axis->labelsFont());
        const double from = toAxis(*spec, spec->min);
        const double span = toAxis(*spec, spec->max) - from;
        if (!(span > 0))
            continue;
        const qreal length = horizontal ? plot.width() : plot.height();
        auto fits = [&](int thinning, qreal slack) {
            const std::vector<double> ticks = thinnedTicks(*spec, thinning);
            // Qt Charts elides a label wider (taller) than the axis's length over its labels and
            // one, less twice its 4 px label padding, however far apart its neighbours are:
            // "$100k" drew as "$10…" with room to spare beside it, on a linear cost axis at
            // 1366x768. The 2 px: its text rectangle is a little wider than the advance.
            const qreal qtRoom = length / static_cast<qreal>(ticks.size() + 1) - 2 * 4.0 - 2.0;
            for (const double tick : ticks) {
                const qreal size = horizontal ? metrics.horizontalAdvance(tickLabel(*spec, tick))
                                              : metrics.height();
                if (size * slack > qtRoom && ticks.size() > 2)
                    return false;
            }
            for (std::size_t i = 1; i < ticks.size(); ++i) {
                const qreal gap
                    = (toAxis(*spec, ticks[i]) - toAxis(*spec, ticks[i - 1])) / span * length;
                const qreal needed = horizontal
                    ? (metrics.horizontalAdvance(tickLabel(*spec, ticks[i]))
                          + metrics.horizontalAdvance(tickLabel(*spec, ticks[i - 1])))
                            / 2
                        + kTickGap
                    : metrics.height() + kTickGap / 2;
                if (gap < needed * slack)
                    return ticks.size() <= 2;
            }
            return true;
        };
        constexpr int kMostThinning = 8;
        int fitting = 0;
        while (fitting < kMostThinning && !fits(fitting, 1.0))
            ++fitting;
        // More ticks only with room to spare: a relabelled axis moves the plot by a few pixels,
        // and a level that only just fits would flip back and forth.
        if (fitting < *level) {
            fitting = 0;
            while (fitting < *level && !fits(fitting, 1.2))
                ++fitting;
        }
        if (fitting != *level) {
            *level = fitting;
            configureAxis(axis, *spec, fitting);
        }
    }
}

// The title across the chart, in as many lines as it needs, and the room above the plot for it.
// The chart fills the widget, also when exported (renderTo): the widget's width, not the chart's
// rect (the view resizes the chart after this widget's resizeEvent).
void ChartWidget::fitTitle()
{
    constexpr qreal kTitlePadding = 24;
    constexpr int kEdge = 6; // the chart's own top margin, above the title
    const qreal available = width() - 2 * kEdge - kTitlePadding;
    const QString drawn = titleFitting(d->data.title, d->title->font(), available);
    if (d->drawnTitle != drawn) {
        d->drawnTitle = drawn;
        d->title->setHtml(drawn);
    }
    d->title->setTextWidth(std::max<qreal>(available, 1));
    d->title->setPos(kEdge + kTitlePadding / 2, kEdge / 2.0);
    const int top = drawn.isEmpty()
        ? kEdge
        : kEdge + static_cast<int>(std::ceil(d->title->boundingRect().height()));
    QMargins margins = d->chart->margins();
    if (margins.top() != top) {
        margins.setTop(top);
        d->chart->setMargins(margins);
    }
}

// The room under the plot: as many lines as the footnote takes at this width, at least
// kFootnoteHeight, at most a third of the chart so that a long note never squeezes the plot away
// (one longer still is cut off at the widget's edge). With a fixed room, a note of four lines
// lost its last one.
void ChartWidget::fitFootnote()
{
    constexpr qreal kSidePadding = 16;
    d->footnote->setTextWidth(width() - kSidePadding);
    const qreal needed = std::ceil(d->footnote->boundingRect().height()) + 4;
    const int bottom = static_cast<int>(
        std::max<qreal>(kFootnoteHeight, std::min<qreal>(needed, height() / 3.0)));
    QMargins margins = d->chart->margins();
    if (margins.bottom() != bottom) {
        margins.setBottom(bottom);
        d->chart->setMargins(margins);
    }
}

namespace {

// The legend's entries Qt shows (a series' marker hidden with inLegend = false is not), each in
// the legend's coordinates.
std::vector<QRectF> legendEntryRects(const QLegend* legend)
{
    std::vector<QRectF> rects;
    for (const QGraphicsItem* group : legend->childItems())
        for (const QGraphicsItem* entry : group->childItems())
            if (entry->isVisible())
                rects.push_back(entry->mapRectToItem(legend, entry->boundingRect()));
    return rects;
}

QRectF united(const std::vector<QRectF>& rects)
{
    QRectF all;
    for (const QRectF& r : rects)
        all = all.united(r);
    return all;
}

} // namespace

// The legend stands right of the plot, from below the title to the footnote, and the plot gives
// way by its width (the chart's right margin). Where one column is too short, its font shrinks a
// step or two; where that does not do, the entries go into columns, each entry's text cut short
// to its column (in full under the pointer).
void ChartWidget::fitLegend()
{
    // Beyond this share of the chart's width the plot would be too narrow to read.
    constexpr qreal kMaxShare = 0.45;
    constexpr int kEdge = 6; // the chart's own right margin, and the gap left of the legend
    QLegend* legend = d->chart->legend();
    const QList<QLegendMarker*> markers = legend->markers();
    const QSizeF chart = d->chart->size();
    if (chart.isEmpty() || markers.isEmpty())
        return;
    QMargins margins = d->chart->margins();
    const qreal top = margins.top();
    const qreal bottom = chart.height() - margins.bottom();
    if (bottom - top < 20)
        return;
    // A replot of same-shape data (an assumption changed) or a repeated geometry change asks
    // for the legend it has: laid out again, it cost the replot twice its time.
    // Series built anew have new entries, with whole names and all shown: laid out again.
    QString key = QStringLiteral("%1x%2 %3-%4 #%5")
                      .arg(chart.width())
                      .arg(chart.height())
                      .arg(top)
                      .arg(bottom)
                      .arg(d->rebuilds);
    for (QLegendMarker* m : markers)
        key += QLatin1Char('\n') + m->series()->name();
    for (const auto& [series, spec] : d->seriesMap)
        key += spec->inLegend ? QLatin1Char('1') : QLatin1Char('0');
    if (key == d->legendKey)
        return;
    d->legendKey = key;
    const qreal widest = std::floor(chart.width() * kMaxShare);
    auto place = [&](qreal width) {
        legend->setGeometry(QRectF(chart.width() - kEdge - width, top, width, bottom - top));
        if (QGraphicsLayout* layout = legend->layout()) {
            layout->invalidate();
            layout->activate();
        }
        return legendEntryRects(legend);
    };
    auto columnsOf = [](const std::vector<QRectF>& entries) {
        std::vector<int> lefts;
        for (const QRectF& e : entries)
            if (std::find(lefts.begin(), lefts.end(), qRound(e.left())) == lefts.end())
                lefts.push_back(qRound(e.left()));
        return static_cast<int>(lefts.size());
    };
    // Each entry as the data has it: its whole name, shown unless another series gives it.
    std::vector<QLegendMarker*> optional;
    for (QLegendMarker* m : markers) {
        m->setLabel(m->series()->name());
        const auto drawn = std::find_if(d->seriesMap.begin(), d->seriesMap.end(),
            [m](const auto& entry) { return entry.first == m->series(); });
        if (drawn == d->seriesMap.end())
            continue;
        m->setVisible(drawn->second->inLegend);
        if (drawn->second->legendOptional && drawn->second->inLegend)
            optional.push_back(m);
    }
    std::vector<QRectF> entries;
    auto fitFont = [&] {
        for (const qreal scale : { 1.0, 0.9, 0.8 }) {
            QFont font = d->legendFont;
            font.setPointSizeF(font.pointSizeF() * scale);
            legend->setFont(font);
            entries = place(widest);
            if (columnsOf(entries) <= 1)
                break;
        }
    };
    fitFont();
    // Below this, an entry's text is a stub ("RT…"): the optional entries go instead.
    constexpr qreal kLeastText = 48;
    const auto textRoom
        = [&] { return widest / std::max(1, columnsOf(entries)) - kImpossibleRingSize - 12; };
    // The symbols' key is never cut short while optional entries could make room for it.
    const auto cutsARequiredEntry = [&] {
        const QFontMetricsF metrics(legend->font());
        for (QLegendMarker* m : markers)
            if (m->isVisible() && std::find(optional.begin(), optional.end(), m) == optional.end()
                && metrics.horizontalAdvance(m->label()) > textRoom())
                return true;
        return false;
    };
    if (columnsOf(entries) > 1 && !optional.empty()
        && (textRoom() < kLeastText || cutsARequiredEntry())) {
        for (QLegendMarker* m : optional)
            m->setVisible(false);
        fitFont();
    }
    if (const int columns = columnsOf(entries); columns > 1) {
        // Qt lays every column out as wide as the legend: each entry's text is cut to its own,
        // narrower again while the columns overrun the legend's width (a marker's room is
        // known only once laid out). Qt shows the series' name for an empty label: never
        // narrower than an ellipsis and a letter.
        const QFontMetricsF metrics(legend->font());
        QStringList names;
        for (QLegendMarker* m : markers)
            names << m->label();
        const qreal least = metrics.horizontalAdvance(QStringLiteral("W\u2026"));
        qreal text = textRoom();
        for (int pass = 0; pass < 4; ++pass) {
            for (qsizetype i = 0; i < markers.size(); ++i)
                markers[i]->setLabel(
                    metrics.elidedText(names[i], Qt::ElideRight, std::max(text, least)));
            entries = place(widest);
            const qreal overrun = united(entries).right() - widest;
            if (overrun <= 0 || text <= least)
                break;
            text -= std::ceil(overrun / columnsOf(entries)) + 1;
        }
    }
    const qreal width = std::min(widest, std::ceil(united(entries).right()) + 2);
    place(width);
    const int right = kEdge + static_cast<int>(width) + kEdge;
    if (margins.right() != right) {
        margins.setRight(right);
        d->chart->setMargins(margins);
    }
}

QRectF ChartWidget::legendEntriesRect() const
{
    const QLegend* legend = d->chart->legend();
    return legend->mapRectToItem(d->chart, united(legendEntryRects(legend)));
}

int ChartWidget::rowsMinimumHeight(std::size_t rows) const
{
    // A row's label with half a line between rows, plus what a chart needs around its plot:
    // title, axis labels and title, footnote and margins (measured on the tornado: 170 px).
    constexpr int kAroundThePlot = 170;
    const double line = QFontMetricsF(d->yAxis->labelsFont()).height() * 1.5;
    return kAroundThePlot + static_cast<int>(std::ceil(line * static_cast<double>(rows)));
}

void ChartWidget::setChartData(const ChartData& chartData)
{
    const bool inPlace = !d->dataSeries.empty() && sameShape(d->data, chartData);
    d->settingData = true;
    d->data = chartData;
    // A screen reader's text for the chart: its title, and the footnote that says how to read it.
    setAccessibleName(chartData.title);
    setAccessibleDescription(chartData.footnote);
    // Labels and paths are laid out anew for the new data, from the items already made; the
    // last drawing's in reverse, so the same data hands each label its own text back.
    for (auto l = d->labels.rbegin(); l != d->labels.rend(); ++l)
        d->spareLabels.push_back(l->item);
    d->labels.clear();
    for (auto m = d->rangeMarks.rbegin(); m != d->rangeMarks.rend(); ++m)
        d->sparePaths.push_back(m->item);
    d->rangeMarks.clear();
    fitTitle();
    configureAxis(d->xAxis, d->data.x, d->xTickLevel);
    configureAxis(d->yAxis, d->data.y, d->yTickLevel);
    if (inPlace)
        movePoints();
    else
        rebuildSeries();
    for (auto* item : d->spareLabels)
        delete item;
    d->spareLabels.clear();
    for (auto* item : d->sparePaths)
        delete item;
    d->sparePaths.clear();
    d->footnote->setPlainText(d->data.footnote);
    fitFootnote();
    fitLegend();
    d->settingData = false;
    fitAxisTitles();
    placeLabels();
}

// The same series with new values: points replaced, labels and ranges made anew.
void ChartWidget::movePoints()
{
    for (std::size_t i = 0; i < d->data.series.size(); ++i) {
        const ChartSeries& spec = d->data.series[i];
        d->dataSeries[i]->replace(axisPoints(d->data, spec.points));
        d->seriesMap[i].second = &spec;
        addPointLabels(spec, d->dataSeries[i]);
        addRangeMarks(spec);
    }
    if (d->suspectRing)
        d->suspectRing->replace(flaggedPoints(d->data, PeakWarning::Suspect));
    if (d->impossibleRing)
        d->impossibleRing->replace(flaggedPoints(d->data, PeakWarning::ExceedsPeak));
    for (std::size_t i = 0; i < d->data.lines.size(); ++i)
        d->referenceLines[i]->replace(referencePoints(d->data, d->data.lines[i]));
    if (d->highlight && d->data.highlight)
        d->highlight->replace({ toAxis(d->data, d->data.highlight->x, d->data.highlight->y) });
}

int ChartWidget::seriesRebuilds() const
{
    return d->rebuilds;
}

QList<QPointF> ChartWidget::drawnPoints(std::size_t index) const
{
    return index < d->dataSeries.size() ? d->dataSeries[index]->points() : QList<QPointF>();
}

void ChartWidget::rebuildSeries()
{
    ++d->rebuilds;
    d->seriesMap.clear();
    d->flagSeries.clear();
    d->dataSeries.clear();
    d->suspectRing = d->impossibleRing = nullptr;
    d->referenceLines.clear();
    d->highlight = nullptr;
    d->chart->removeAllSeries();
    for (const auto& spec : d->data.series) {
        addDataSeries(spec);
        addRangeMarks(spec);
    }
    addFlagRings();
    for (const auto& line : d->data.lines) {
        QLineSeries* drawn = makeReferenceLine(d->data, line);
        attachSeries(drawn);
        d->referenceLines.push_back(drawn);
    }
    if (d->data.highlight)
        addHighlight(QPointF(d->data.highlight->x, d->data.highlight->y));
}

void ChartWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitTitle();
    fitFootnote();
    // The view may have resized the chart before this ran (its geometryChanged fitted the legend
    // between the old title's and footnote's margins): fitted again between the new.
    fitLegend();
    fitAxisTitles();
    placeLabels();
}

void ChartWidget::focusInEvent(QFocusEvent* event)
{
    QWidget::focusInEvent(event);
    update();
}

void ChartWidget::focusOutEvent(QFocusEvent* event)
{
    QWidget::focusOutEvent(event);
    update();
}

void ChartWidget::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_F10 && event->modifiers() == Qt::ShiftModifier) {
        QMenu::exec(actions(), mapToGlobal(rect().center()), nullptr, this);
        return;
    }
    QWidget::keyPressEvent(event);
}

void ChartWidget::paintEvent(QPaintEvent* event)
{
    QWidget::paintEvent(event);
    if (!hasFocus())
        return;
    QPainter painter(this);
    QPen pen(palette().color(QPalette::Highlight), kFocusFrame);
    pen.setJoinStyle(Qt::MiterJoin);
    painter.setPen(pen);
    const qreal half = kFocusFrame / 2.0;
    painter.drawRect(QRectF(rect()).adjusted(half, half, -half, -half));
}

QString ChartWidget::drawnTitle() const
{
    return d->drawnTitle;
}

QStringList ChartWidget::labelTexts() const
{
    QStringList texts;
    for (const auto& l : d->labels)
        texts << l.item->text();
    return texts;
}

std::optional<QLineF> ChartWidget::leaderLine() const
{
    return d->leader->isVisible() ? std::optional<QLineF>(d->leader->line()) : std::nullopt;
}

QStringList ChartWidget::placedLabelTexts() const
{
    QStringList texts;
    for (const auto& l : d->labels)
        if (l.item->isVisible())
            texts << l.item->text();
    return texts;
}

int ChartWidget::visibleLabelCount() const
{
    int n = 0;
    for (const auto& l : d->labels)
        n += l.item->isVisible() ? 1 : 0;
    return n;
}

QStringList ChartWidget::legendNames() const
{
    QStringList names;
    for (QLegendMarker* m : d->chart->legend()->markers())
        if (m->isVisible())
            names << m->label();
    return names;
}

QString ChartWidget::axisTitleText(Qt::Orientation axis) const
{
    return (axis == Qt::Horizontal ? d->xAxis : d->yAxis)->titleText();
}

QStringList ChartWidget::tickLabels(Qt::Orientation axis) const
{
    return (axis == Qt::Horizontal ? d->xAxis : d->yAxis)->categoriesLabels();
}

QStringList ChartWidget::drawnTexts() const
{
    QStringList texts;
    for (const QGraphicsItem* item : d->chart->scene()->items())
        if (const auto* text = dynamic_cast<const QGraphicsTextItem*>(item);
            text && text->isVisible())
            texts << text->toPlainText();
    return texts;
}

QRectF ChartWidget::footnoteRect() const
{
    return d->footnote->mapRectToParent(d->footnote->boundingRect());
}

QRectF ChartWidget::plotArea() const
{
    return d->chart->plotArea();
}

const ChartWidget::LabelGeometry& ChartWidget::labelGeometry() const
{
    return d->geometry;
}

// Labels go beside their points, clear of markers, other labels and every drawn line (frontier,
// budget, deadline): label_placement.h decides where, from screen positions only.
void ChartWidget::placeLabels()
{
    QChart* chart = d->chart;
    const QRectF plot = chart->plotArea();
    if (plot.width() <= 0 || plot.height() <= 0 || d->settingData)
        return;
    LabelObstacles obstacles;
    for (const auto& [series, spec] : d->seriesMap) {
        std::vector<QPointF> at;
        for (const auto& p : spec->points)
            at.push_back(chart->mapToPosition(toAxis(d->data, p.x, p.y), series));
        if (spec->kind == ChartSeries::Kind::Scatter) {
            for (std::size_t i = 0; i < at.size(); ++i) {
                const qreal extent = ringExtent(spec->points[i].warning);
                obstacles.markers.emplace_back(
                    at[i].x() - extent / 2, at[i].y() - extent / 2, extent, extent);
            }
        } else {
            auto& lines = spec->labelsMayCross ? obstacles.softSegments : obstacles.segments;
            for (std::size_t i = 1; i < at.size(); ++i)
                lines.emplace_back(at[i - 1], at[i]);
        }
    }
    for (const auto& line : d->data.lines) {
        const bool vertical = line.orientation == ReferenceLine::Orientation::Vertical;
        const QPointF from = vertical ? toAxis(d->data, line.value, d->data.y.min)
                                      : toAxis(d->data, d->data.x.min, line.value);
        const QPointF to = vertical ? toAxis(d->data, line.value, d->data.y.max)
                                    : toAxis(d->data, d->data.x.max, line.value);
        // Every series shares the two axes, so the default series maps like any other.
        obstacles.segments.emplace_back(chart->mapToPosition(from), chart->mapToPosition(to));
        if (line.divides)
            obstacles.dividers.push_back(obstacles.segments.back());
    }
    // The highlighted point (the recommendation) is labelled first: in request order it came
    // after every GPU listed before its own, and on a crowded plot was never labelled.
    std::vector<std::size_t> order(d->labels.size());
    std::iota(order.begin(), order.end(), std::size_t { 0 });
    bool highlightLabelled = false;
    if (const auto& h = d->data.highlight) {
        const QPointF at = toAxis(d->data, h->x, h->y);
        const auto firstOther = std::stable_partition(
            order.begin(), order.end(), [&](std::size_t i) { return d->labels[i].value == at; });
        highlightLabelled = firstOther != order.begin();
    }
    std::vector<LabelRequest> requests;
    const bool rows = !d->data.y.rows.empty(); // a tornado: rows one unit apart
    for (const std::size_t i : order) {
        const auto& label = d->labels[i];
        LabelRequest request { chart->mapToPosition(label.value, label.series),
            label.item->boundingRect().size(), label.side };
        if (rows) {
            const qreal top = chart->mapToPosition(label.value + QPointF(0, 0.5), label.series).y();
            const qreal bottom
                = chart->mapToPosition(label.value - QPointF(0, 0.5), label.series).y();
            request.rowBand = std::make_pair(std::min(top, bottom), std::max(top, bottom));
        }
        requests.push_back(request);
    }
    if (highlightLabelled) {
        requests.front().mustShow = true;
        // Wider than the plot it fits nowhere (a 1024x768 window): elided to fit, whole under
        // the pointer.
        const PlacedLabel& ringed = d->labels[order.front()];
        const QFontMetricsF metrics(ringed.item->font());
        const QString text = metrics.horizontalAdvance(ringed.text) + 4 > plot.width()
            ? metrics.elidedText(ringed.text, Qt::ElideRight, plot.width() - 4)
            : ringed.text;
        if (ringed.item->text() != text) {
            ringed.item->setText(text);
            ringed.item->setToolTip(text == ringed.text ? QString() : ringed.text);
        }
        requests.front().size = ringed.item->boundingRect().size();
    }
    const qreal clearance = kImpossibleRingSize / 2 + kLabelGap / 2;
    std::vector<std::optional<QLineF>> leaders;
    const auto placed = render::placeLabels(plot, requests, obstacles, clearance, &leaders);
    const bool leader = !leaders.empty() && leaders.front().has_value();
    if (leader)
        d->leader->setLine(*leaders.front());
    d->leader->setVisible(leader);
    d->geometry = { {}, obstacles };
    for (std::size_t k = 0; k < placed.size(); ++k) {
        auto* item = d->labels[order[k]].item;
        item->setVisible(placed[k].has_value());
        if (placed[k]) {
            item->setPos(placed[k]->topLeft());
            d->geometry.labels.push_back(*placed[k]);
        }
    }
    const ToScreen toScreen
        = [&](double x, double y) { return chart->mapToPosition(toAxis(d->data, x, y)); };
    for (const auto& mark : d->rangeMarks)
        mark.item->setPath(mark.band ? bandPath(d->data, *mark.series, toScreen)
                                     : whiskerPath(d->data, *mark.series, toScreen));
    d->footnote->setPos(8, chart->rect().height() - chart->margins().bottom() + 2);
}

void ChartWidget::renderTo(QPainter* painter, const QRectF& target)
{
    const QSizeF logical = size();
    d->chart->setGeometry(QRectF(QPointF(0, 0), logical));
    fitTitle();
    fitFootnote();
    fitLegend(); // between the margins the title and the footnote now take
    if (QGraphicsLayout* layout = d->chart->layout())
        layout->activate();
    fitAxisTitles();
    placeLabels();
    d->chart->scene()->render(
        painter, target, QRectF(QPointF(0, 0), logical), Qt::IgnoreAspectRatio);
}

} // namespace gpuplan::render

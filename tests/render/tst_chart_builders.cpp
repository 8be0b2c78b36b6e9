// Chart builders: what each chart holds, built from Results only (series, labels, flags, lines,
// padded ranges, log axes never fed a value <= 0), and the buy-vs-rent conclusion.

#include "app/common/format.h"
#include "app/common/wording.h"
#include "app/render/axis_range.h"
#include "app/render/buy_vs_rent_chart.h"
#include "app/render/chart_widget.h"
#include "app/render/label_placement.h"
#include "app/render/planner_charts.h"
#include "app/render/range_marks.h"
#include "app/render/sensitivity_chart.h"
#include "core/costing/plan_verdict.h"
#include "pricing/catalog_loader.h"
#include "pricing/measured_results.h"

#include <QtTest>

#include <cmath>
#include <set>

using namespace gpuplan;
using namespace gpuplan::render;

namespace {

// 6 px markers every 10 px within `half` of `centre` each way: a crowd around a point.
std::vector<QRectF> markerGrid(const QPointF& centre, int half)
{
    std::vector<QRectF> markers;
    for (int dx = -half; dx <= half; dx += 10)
        for (int dy = -half; dy <= half; dy += 10)
            markers.push_back({ centre.x() + dx - 3, centre.y() + dy - 3, 6, 6 });
    return markers;
}

// Shows `chart` in `widget` at `size`; true once it is on screen (drawn and laid out).
bool shown(ChartWidget& widget, const ChartData& chart, QSize size)
{
    widget.resize(size);
    widget.setChartData(chart);
    widget.show();
    return QTest::qWaitForWindowExposed(&widget);
}

Scenario scenarioFor(const std::shared_ptr<const Catalog>& catalog, SourcePolicy source,
    const std::string& model = "pythia-1b")
{
    Scenario s;
    s.catalog = catalog;
    s.modelId = model;
    s.source = source;
    s.assumptions = catalog->defaults;
    s.today = "2026-11-23"; // price ages against a fixed day
    s.budgetUsd = 40000.0;
    return s;
}

Results plan(const std::shared_ptr<const Catalog>& catalog, SourcePolicy source,
    const std::string& model = "pythia-1b")
{
    return evaluate(scenarioFor(catalog, source, model));
}

// The first option that `wanted` accepts; options.size() when none does.
template <typename Wanted> std::size_t firstOption(const Results& r, Wanted wanted)
{
    for (std::size_t i = 0; i < r.options.size(); ++i)
        if (wanted(r.options[i]))
            return i;
    return r.options.size();
}

// A machine with a break-even and at least two offers of the same GPUs, so that choosing one
// of them matters; options.size() when there is none.
std::size_t machineWithTwoOffers(const Results& r)
{
    for (std::size_t i = 0; i < r.options.size(); ++i)
        if (r.options[i].breakEvenRuns && matchingCloudOffers(r, i).size() >= 2)
            return i;
    return r.options.size();
}

const ChartSeries* findSeries(const ChartData& chart, const QString& name)
{
    for (const auto& s : chart.series)
        if (s.name == name)
            return &s;
    return nullptr;
}

// Every point lies strictly inside the axis ranges: no marker is cut by the frame.
void verifyInside(const ChartData& chart)
{
    for (const auto& s : chart.series)
        for (const auto& p : s.points) {
            QVERIFY2(p.x > chart.x.min && p.x < chart.x.max, qPrintable(s.name));
            QVERIFY2(p.y > chart.y.min && p.y < chart.y.max, qPrintable(s.name));
        }
    if (chart.x.log)
        QVERIFY(chart.x.min > 0.0);
    if (chart.y.log)
        QVERIFY(chart.y.min > 0.0);
}

} // namespace

class TestChartBuilders : public QObject {
    Q_OBJECT

    std::shared_ptr<const Catalog> m_catalog;

private slots:
    void initTestCase()
    {
        const CatalogLoad load = loadCatalog(shippedDataFiles());
        QVERIFY(load.ok());
        m_catalog = load.catalog;
    }

    void paddedRangeLinear()
    {
        const Range r = paddedRange({ 10.0, 60.0 }, false);
        QCOMPARE(r.min, 10.0 - 0.08 * 50.0);
        QCOMPARE(r.max, 60.0 + 0.08 * 50.0);
        const Range single = paddedRange({ 5.0 }, false);
        QVERIFY(single.min < 5.0 && single.max > 5.0);
        const Range empty = paddedRange({}, false);
        QCOMPARE(empty.min, 0.0);
        QCOMPARE(empty.max, 1.0);
    }

    void paddedRangeLogIgnoresNonPositive()
    {
        const Range r = paddedRange({ -3.0, 0.0, 100.0, 1000.0 }, true);
        QVERIFY(r.min > 0.0);
        QVERIFY(r.min < 100.0 && r.min > 50.0); // 0.12 decades below 100
        QVERIFY(r.max > 1000.0 && r.max < 2000.0);
        const Range none = paddedRange({ 0.0, -1.0 }, true);
        QCOMPARE(none.min, 1.0);
        QCOMPARE(none.max, 10.0);
    }

    // The machines not drawn are named in the note in the one shared wording: the shipped SXM
    // GPUs, sold only in 8-GPU systems, grouped rather than listed one id at a time.
    void hardwareNoteSummarisesWhatIsNotDrawn()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        const QString summary = views::unavailableSummary(r);
        QVERIFY(summary.contains(QStringLiteral("B200 SXM 180GB as 1, 2 or 4 GPUs")));
        QVERIFY(summary.endsWith(QStringLiteral("(sold only in systems of 8 GPUs)")));
        QVERIFY(!summary.contains(QStringLiteral("-sxm")));
        QVERIFY(hardwareCostChart(r, {}).footnote.endsWith(
            QStringLiteral(" Not available: ") + summary + QLatin1Char('.')));
    }

    void hardwareChartHasOneLabelledSeriesPerGpu()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        QVERIFY(!r.options.empty());
        const ChartData chart = hardwareCostChart(r, {});
        std::set<std::string> gpus;
        for (const auto& o : r.options)
            gpus.insert(o.gpu->name);
        std::size_t points = 0;
        for (const auto& name : gpus) {
            const ChartSeries* s = findSeries(chart, QString::fromStdString(name));
            QVERIFY2(s, name.c_str());
            QVERIFY(s->kind == ChartSeries::Kind::Scatter);
            for (const auto& p : s->points) {
                const auto& o = r.options.at(static_cast<std::size_t>(p.optionIndex));
                QCOMPARE(p.x, o.machineCostUsd);
                QCOMPARE(p.y, o.estimate.days);
                QCOMPARE(p.label,
                    QString::number(o.gpuCount) + QChar(0x00D7)
                        + QString::fromStdString(o.gpu->name)
                              .remove(QRegularExpression(QStringLiteral("\\s+\\d+\\s*GB$"))));
            }
            points += s->points.size();
        }
        QCOMPARE(points, r.options.size());
        verifyInside(chart);
        QVERIFY(chart.x.log && chart.y.log);
        // One colour per GPU type: no two of the shipped GPUs' series look alike.
        std::set<QRgb> colours;
        for (const auto& name : gpus)
            colours.insert(findSeries(chart, QString::fromStdString(name))->color.rgb());
        QCOMPARE(colours.size(), gpus.size());
    }

    void hardwareChartDrawsFrontierBudgetAndDeadline()
    {
        const Results r = plan(m_catalog, SourcePolicy::Paper);
        PlannerChartOptions options;
        options.budgetUsd = 40000.0;
        options.deadlineDays = 30.0;
        const ChartData chart = hardwareCostChart(r, options);
        const ChartSeries* frontier = findSeries(chart, QStringLiteral("Pareto frontier"));
        QVERIFY(frontier);
        std::size_t onFrontier = 0;
        for (const auto& o : r.options)
            onFrontier += o.paretoHardware ? 1 : 0;
        QCOMPARE(frontier->points.size(), onFrontier);
        for (std::size_t i = 1; i < frontier->points.size(); ++i)
            QVERIFY(frontier->points[i - 1].x <= frontier->points[i].x);
        QCOMPARE(chart.lines.size(), std::size_t { 2 });
        QVERIFY(chart.lines[0].orientation == ReferenceLine::Orientation::Vertical);
        QCOMPARE(chart.lines[0].value, 40000.0);
        QVERIFY(chart.lines[0].label.contains(QStringLiteral("$40,000")));
        QVERIFY(chart.lines[1].orientation == ReferenceLine::Orientation::Horizontal);
        QCOMPARE(chart.lines[1].value, 30.0);
        verifyInside(chart);
    }

    void flaggedPointsCarryTheReason()
    {
        // The paper's 2×RTX 3090 time implies more than 100% of peak (facts.md).
        const Results r = plan(m_catalog, SourcePolicy::Paper);
        const ChartData chart = hardwareCostChart(r, {});
        const ChartSeries* rtx3090 = findSeries(chart, QStringLiteral("RTX 3090"));
        QVERIFY(rtx3090);
        bool found = false;
        for (const auto& p : rtx3090->points)
            if (p.label.startsWith(QStringLiteral("2"))) {
                found = true;
                QVERIFY(p.warning == PeakWarning::ExceedsPeak);
                QVERIFY2(p.tooltip.contains(QStringLiteral("physically impossible")),
                    qPrintable(p.tooltip));
            }
        QVERIFY(found);
    }

    void suspectAndImpossibleAreToldApart()
    {
        // Each warning follows the estimate's own flags: > 100% of peak is impossible, 75-100%
        // only suspect, below that nothing.
        const Results r = plan(m_catalog, SourcePolicy::Paper);
        const ChartData chart = hardwareCostChart(r, {});
        int impossible = 0;
        for (const auto& s : chart.series)
            for (const auto& p : s.points) {
                if (p.optionIndex < 0)
                    continue;
                const auto& e = r.options[static_cast<std::size_t>(p.optionIndex)].estimate;
                const double u = e.impliedUtilization.value_or(0.0);
                if (p.warning == PeakWarning::ExceedsPeak) {
                    ++impossible;
                    QVERIFY2(u > 1.0, qPrintable(p.label));
                } else if (p.warning == PeakWarning::Suspect) {
                    QVERIFY2(u >= 0.75 && u <= 1.0, qPrintable(p.label));
                } else {
                    QVERIFY2(u < 0.75, qPrintable(p.label));
                }
            }
        QVERIFY(impossible > 0);
    }

    void widgetLegendHasOneEntryPerWarning()
    {
        ChartData chart;
        chart.x = { QStringLiteral("x"), 0.5, 10, false, {} };
        chart.y = { QStringLiteral("y"), 0.5, 10, false, {} };
        ChartSeries s { QStringLiteral("GPU"), ChartSeries::Kind::Scatter, Marker::Circle, false,
            Qt::blue, {} };
        s.points.push_back({ 2, 2, {}, {}, PeakWarning::Suspect, 0, -1, {}, {} });
        s.points.push_back({ 4, 4, {}, {}, PeakWarning::ExceedsPeak, 1, -1, {}, {} });
        s.points.push_back({ 6, 6, {}, {}, PeakWarning::ExceedsPeak, 2, -1, {}, {} });
        chart.series.push_back(s);
        ChartWidget widget;
        QVERIFY(shown(widget, chart, QSize(800, 500)));
        const QStringList names = widget.legendNames();
        QCOMPARE(names.count(QStringLiteral("\u2265 75% of peak: suspect")), 1);
        QCOMPARE(names.count(QStringLiteral("> 100% of peak: impossible")), 1);
        chart.series.front().points.pop_back();
        chart.series.front().points.pop_back();
        widget.setChartData(chart);
        QVERIFY(!widget.legendNames().contains(QStringLiteral("> 100% of peak: impossible")));
    }

    // Every legend entry is drawn, right of the plot and inside the chart: Qt's one column had
    // dropped those below the chart's edge (the deadline at the default window size, half the
    // GPUs at 1280x720). A font a step smaller where that does; columns, text cut short, where
    // it does not.
    void everyLegendEntryIsDrawn()
    {
        ChartData chart;
        chart.title = QStringLiteral("Training days vs hardware cost");
        chart.x = { QStringLiteral("Machine cost (USD)"), 1000, 1e6, true, QStringLiteral("$") };
        chart.y = { QStringLiteral("Training days"), 1, 1000, true, {} };
        QStringList names;
        for (int i = 0; i < 22; ++i) {
            ChartSeries s { QStringLiteral("GPU model number %1 80GB").arg(i),
                ChartSeries::Kind::Scatter, Marker::Circle, false,
                QColor::fromHsv(i * 16, 200, 200), {} };
            s.points.push_back(
                { 2000.0 * (i + 1), 10.0 + i, {}, {}, PeakWarning::None, i, -1, {}, {} });
            chart.series.push_back(s);
            names << s.name;
        }
        ChartWidget widget;
        QVERIFY(shown(widget, chart, QSize(600, 600)));
        auto drawnInside = [&widget] {
            const QRectF legend = widget.legendEntriesRect();
            return legend.left() >= widget.plotArea().right() && legend.right() <= widget.width()
                && legend.top() >= 0 && legend.bottom() <= widget.footnoteRect().top() + 1;
        };
        QTRY_VERIFY(drawnInside());
        QCOMPARE(widget.legendNames(), names); // one column, each name whole
        widget.resize(460, 330); // a Planner chart at 1280x720
        QTRY_VERIFY(drawnInside());
        const QStringList small = widget.legendNames();
        QCOMPARE(small.size(), names.size());
        QVERIFY2(small.front().endsWith(QChar(0x2026)), qPrintable(small.front()));
        QVERIFY(widget.plotArea().width() > 100);
        widget.resize(600, 600);
        QTRY_COMPARE(widget.legendNames(), names);
    }

    // Where even columns leave a stub of text ("RT…"), the optional entries (the GPUs' colours,
    // whose points are labelled) leave the legend and the symbols' key stays readable; with room
    // again, they are back.
    void aCrowdedLegendKeepsItsSymbols()
    {
        ChartData chart;
        chart.title = QStringLiteral("Per-experiment cost vs training days");
        chart.x = { QStringLiteral("Training days"), 1, 1000, true, {} };
        chart.y = { QStringLiteral("Cost"), 100, 1e5, true, QStringLiteral("$") };
        QStringList gpus;
        for (int i = 0; i < 14; ++i) {
            ChartSeries s { QStringLiteral("GPU model %1 80GB").arg(i), ChartSeries::Kind::Scatter,
                Marker::Circle, false, QColor::fromHsv(i * 20, 200, 200), {} };
            s.legendOptional = true;
            s.points.push_back(
                { 2.0 + i, 1000.0 + 100 * i, {}, {}, PeakWarning::None, i, -1, {}, {} });
            chart.series.push_back(s);
            gpus << s.name;
        }
        const QStringList symbols { QStringLiteral("Cloud, on-demand"),
            QStringLiteral("Cloud, spot"), QStringLiteral("Cloud, reserved"),
            QStringLiteral("Allocation (no cash)") };
        for (const QString& name : symbols) {
            ChartSeries s { name, ChartSeries::Kind::Scatter, Marker::Triangle, false, Qt::darkGray,
                {} };
            s.points.push_back({ 50, 5000, {}, {}, PeakWarning::None, -1, 0, {}, {} });
            chart.series.push_back(s);
        }
        ChartWidget widget;
        QVERIFY(shown(widget, chart, QSize(330, 300)));
        QTRY_COMPARE(widget.legendNames(), symbols);
        QVERIFY(widget.legendEntriesRect().right() <= widget.width());
        // Data of another shape (a marker changed) builds its series anew, with the same
        // names, at the same size: still the symbols only.
        const int rebuilds = widget.seriesRebuilds();
        chart.series.back().marker = Marker::Star;
        widget.setChartData(chart);
        QCOMPARE(widget.seriesRebuilds(), rebuilds + 1);
        QTRY_COMPARE(widget.legendNames(), symbols);
        widget.resize(900, 700);
        QTRY_COMPARE(widget.legendNames(), gpus + symbols);
    }

    // Along a narrow plot, ticks are thinned to the powers of ten rather than elided ("$1…",
    // "$3…" on the hardware chart at 1280x720); with room again, all are back.
    void narrowAxesThinTheirTicks()
    {
        ChartData chart;
        chart.title = QStringLiteral("Costs");
        chart.x = { QStringLiteral("Machine cost (USD)"), 1000, 500000, true, QStringLiteral("$") };
        chart.y = { QStringLiteral("Training days"), 1, 300, true, {} };
        ChartSeries s { QStringLiteral("GPU"), ChartSeries::Kind::Scatter, Marker::Circle, false,
            Qt::blue, {} };
        s.points.push_back({ 5000, 30, {}, {}, PeakWarning::None, 0, -1, {}, {} });
        chart.series = { s };
        ChartWidget widget;
        QVERIFY(shown(widget, chart, QSize(900, 600)));
        const QStringList all { QStringLiteral("$1k"), QStringLiteral("$3k"),
            QStringLiteral("$10k"), QStringLiteral("$30k"), QStringLiteral("$100k"),
            QStringLiteral("$300k") };
        QTRY_COMPARE(widget.tickLabels(Qt::Horizontal), all);
        // 155 px of plot: three labels drew "$10…" (Qt gives each 155 / 4 - 8 px), two do not.
        widget.resize(300, 260);
        QTRY_COMPARE(widget.tickLabels(Qt::Horizontal).size(), 2);
        QCOMPARE(widget.tickLabels(Qt::Horizontal),
            QStringList({ QStringLiteral("$1k"), QStringLiteral("$100k") }));
        QTRY_VERIFY(widget.drawnTexts().contains(QStringLiteral("$100k")));
        widget.resize(900, 600);
        QTRY_COMPARE(widget.tickLabels(Qt::Horizontal), all);
    }

    // Qt Charts elides a tick label wider than the axis's length over its labels and one (less
    // its padding), whatever the room between neighbours: "$100k" drew as "$10…" along a linear
    // cost axis in the Planner at 1366x768. Thinned until every label fits that too (long
    // labels here, so that any font shows it). Qt elides with "…" or "...", by platform.
    void ticksAreThinnedRatherThanElided()
    {
        ChartData chart;
        chart.title = QStringLiteral("Costs");
        chart.x = { QStringLiteral("Machine cost (USD)"), -30000, 430000, false,
            QStringLiteral("USD ") };
        chart.y = { QStringLiteral("Training days"), -20, 400, false, {} };
        ChartSeries s { QStringLiteral("GPU"), ChartSeries::Kind::Scatter, Marker::Circle, false,
            Qt::blue, {} };
        s.points.push_back({ 5000, 30, {}, {}, PeakWarning::None, 0, -1, {}, {} });
        chart.series = { s };
        ChartData logChart = chart;
        logChart.x
            = { QStringLiteral("Machine cost (USD)"), 1000, 500000, true, QStringLiteral("USD ") };
        logChart.y = { QStringLiteral("Training days"), 1, 400, true, {} };
        ChartWidget widget;
        int ticksSeen = 0;
        for (int w = 340; w <= 720; w += 8) {
            const QSize size(w, 320);
            // As in the Planner: log axes first, then unticked.
            QVERIFY(shown(widget, logChart, size));
            widget.setChartData(chart);
            QTest::qWait(10);
            const QStringList ticks = widget.tickLabels(Qt::Horizontal);
            ticksSeen = std::max(ticksSeen, static_cast<int>(ticks.size()));
            for (const QString& text : widget.drawnTexts())
                QVERIFY2(!text.endsWith(QChar(0x2026)) && !text.endsWith(QStringLiteral("...")),
                    qPrintable(QStringLiteral("%1x%2: '%3' of %4")
                                   .arg(size.width())
                                   .arg(size.height())
                                   .arg(text, ticks.join(QStringLiteral(", ")))));
        }
        QCOMPARE(ticksSeen, 5); // at the widest, every 100k: the test thins only where it must
    }

    void experimentChartLabelsTheCheapestCloudOffers()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        const ChartData chart = experimentCostChart(r, {});
        QVERIFY(findSeries(chart, QStringLiteral("Cloud, on-demand"))->points.size() > 3);
        for (const QString& name :
            { QStringLiteral("Cloud, on-demand"), QStringLiteral("Cloud, spot") }) {
            const ChartSeries* cloud = findSeries(chart, name);
            QVERIFY(cloud);
            // The current prices rent on demand widely, at spot only Nebius's 8-GPU nodes.
            QVERIFY(cloud->points.size() >= 2);
            std::vector<double> costs;
            double dearestLabelled = 0.0;
            int labelled = 0;
            for (const auto& p : cloud->points) {
                costs.push_back(p.y);
                if (!p.label.isEmpty()) {
                    ++labelled;
                    dearestLabelled = std::max(dearestLabelled, p.y);
                    const auto& c = r.cloud[static_cast<std::size_t>(p.cloudIndex)];
                    QVERIFY2(p.label.startsWith(QString::fromStdString(c.offer->provider)),
                        qPrintable(p.label));
                }
            }
            const int expectedLabels = std::min(3, static_cast<int>(costs.size()));
            QCOMPARE(labelled, expectedLabels);
            std::sort(costs.begin(), costs.end());
            QCOMPARE(dearestLabelled, costs[static_cast<std::size_t>(expectedLabels - 1)]);
        }
    }

    void segmentCrossesRectCases()
    {
        const QRectF box(10, 10, 20, 10);
        QVERIFY(segmentCrossesRect({ 0, 15, 40, 15 }, box)); // straight through
        QVERIFY(segmentCrossesRect({ 15, 12, 18, 14 }, box)); // wholly inside
        QVERIFY(segmentCrossesRect({ 0, 0, 40, 30 }, box)); // diagonal through
        QVERIFY(!segmentCrossesRect({ 0, 0, 40, 0 }, box)); // above
        QVERIFY(!segmentCrossesRect({ 35, 0, 35, 40 }, box)); // beside
        QVERIFY(!segmentCrossesRect({ 0, 25, 5, 40 }, box)); // short, off to the corner
    }

    void placementAvoidsLinesMarkersAndLabels()
    {
        const QRectF plot(0, 0, 400, 300);
        const QSizeF size(60, 14);
        LabelObstacles obstacles;
        // A dashed line just right of the first point: its label must not go right.
        obstacles.segments.push_back({ 120, 0, 120, 300 });
        obstacles.markers.push_back({ 95, 145, 10, 10 });
        const std::vector<LabelRequest> labels
            = { { { 100, 150 }, size }, { { 100, 150 }, size }, { { 5, 5 }, { 500, 14 } } };
        const auto placed = placeLabels(plot, labels, obstacles, 10.0);
        QCOMPARE(placed.size(), std::size_t { 3 });
        QVERIFY(placed[0]);
        QCOMPARE(*placed[0], QRectF(QPointF(30, 143), size)); // left, the right being blocked
        QVERIFY(placed[1]);
        QVERIFY(!placed[1]->intersects(*placed[0]));
        QVERIFY(!segmentCrossesRect(obstacles.segments[0], *placed[1]));
        QVERIFY(!placed[1]->intersects(obstacles.markers[0]));
        QVERIFY(!placed[2]); // wider than the plot: nowhere to go

        // Soft lines are avoided where there is room, crossed where there is none.
        LabelObstacles soft;
        soft.softSegments.push_back({ 120, 0, 120, 300 });
        const auto avoided = placeLabels(plot, { { { 100, 150 }, size } }, soft, 10.0);
        QCOMPARE(*avoided[0], QRectF(QPointF(30, 143), size));
        for (qreal x : { 30.0, 50.0, 70.0, 90.0, 110.0, 130.0, 150.0, 170.0 })
            soft.softSegments.push_back({ x, 0, x, 300 });
        const auto crossing = placeLabels(plot, { { { 100, 150 }, size } }, soft, 10.0);
        QVERIFY(crossing[0]);
        QCOMPARE(crossing[0]->topLeft(), QPointF(110, 143)); // first choice: right
    }

    // The recommended machine (the highlighted point) is labelled first: it came after every
    // GPU listed before its own, and on the crowded charts was never labelled.
    void theRecommendationIsLabelledFirst()
    {
        // As the Planner opens: $40,000 and 60 days recommend 2×RTX PRO 6000 Blackwell, a long
        // name amid a crowd of points; where no spot beside it is free, one further out with a
        // leader line to the ring.
        Scenario scenario = scenarioFor(m_catalog, SourcePolicy::Best);
        scenario.deadlineDays = 60.0;
        const Results r = evaluate(scenario);
        PlannerChartOptions options;
        options.budgetUsd = 40000.0;
        options.deadlineDays = 60.0;
        QVERIFY(r.recommended);
        options.highlightOption = *r.recommended;
        const QString name = shortMachineLabel(r.options[*r.recommended]);
        QCOMPARE(name, QStringLiteral("2\u00D7RTX PRO 6000 Blackwell"));
        for (const bool experiment : { false, true }) {
            const ChartData chart
                = experiment ? experimentCostChart(r, options) : hardwareCostChart(r, options);
            for (const QSize& size :
                { QSize(1000, 640), QSize(630, 396), QSize(505, 390), QSize(390, 330) }) {
                ChartWidget widget;
                QVERIFY(shown(widget, chart, size));
                // Whole, or elided to fit a plot narrower than it (the tooltip has it whole).
                const auto shows = [&](const QString& text) {
                    return text == name
                        || (text.endsWith(QChar(0x2026)) && name.startsWith(text.chopped(1)));
                };
                const QStringList texts = widget.placedLabelTexts();
                // The whole window: beside its point, no leader; a window too small for that:
                // further out, with one from the ring's edge.
                // The per-experiment chart draws reservations at their whole terms per planned
                // run (up to $100k for this 1-run plan), which packs the rest lower: there the
                // label may take a short leader out of the crowd.
                if (size.width() == 1000 && !experiment)
                    QVERIFY(!widget.leaderLine());
                // It is at 54 days, beside the 60-day deadline: its label keeps to its side.
                if (size.width() == 1000 && experiment)
                    QVERIFY(!widget.leaderLine() || widget.leaderLine()->length() < 100.0);
                if (size.width() == 390)
                    QVERIFY(widget.leaderLine() && widget.leaderLine()->length() > 5.0);
                QVERIFY2(std::any_of(texts.begin(), texts.end(), shows),
                    qPrintable(QStringLiteral("%1 at %2x%3: %4")
                                   .arg(name)
                                   .arg(size.width())
                                   .arg(size.height())
                                   .arg(widget.placedLabelTexts().join(QStringLiteral(", ")))));
            }
        }
    }

    // A spot clearly nearer another marker than the label's own point is not taken: the label
    // would read as that point's ("8×H200 SXM" ended at the 8×H100's marker, a diagonal spot
    // away from its own, at 1366x768).
    void aLabelStaysNearerItsOwnPointThanAnother()
    {
        const QRectF plot(0, 0, 400, 400);
        const QSizeF size(60, 12);
        LabelObstacles obstacles;
        obstacles.markers.push_back({ 197, 197, 6, 6 }); // its own point, at (200, 200)
        obstacles.segments.push_back({ 187, 150, 187, 250 }); // blocks the near spots on the left
        obstacles.markers.push_back({ 147, 194, 6, 6 }); // blocks the far spot left of it
        obstacles.markers.push_back({ 177, 165, 6, 6 }); // 4 px above the far upper-left spot
        LabelRequest request { { 200, 200 }, size, LabelSide::Left };
        const auto placed = placeLabels(plot, { request }, obstacles, 10.0);
        QVERIFY(placed[0]);
        // The far lower-left spot, 22.6 px from its point and 16 from the nearest other; the
        // upper-left one, taken before, is 4 px from the other marker.
        QCOMPARE(*placed[0], QRectF(QPointF(124, 216), size));
        // With the lower-left spot blocked too, none is left: no label, rather than a wrong one.
        obstacles.markers.push_back({ 150, 222, 6, 6 });
        QVERIFY(!placeLabels(plot, { request }, obstacles, 10.0)[0]);
    }

    // The label that must show (the ringed machine) goes further out where a crowd leaves no
    // spot beside its point, joined to it by a leader line; another label there gets none.
    void aLabelThatMustShowGoesFurtherOut()
    {
        const QRectF plot(0, 0, 400, 400);
        const QSizeF size(60, 12);
        LabelObstacles crowd;
        crowd.markers = markerGrid({ 200, 200 }, 50);
        LabelRequest request { { 200, 200 }, size };
        QVERIFY(!placeLabels(plot, { request }, crowd, 10.0)[0]);
        request.mustShow = true;
        std::vector<std::optional<QLineF>> leaders;
        const LabelRequest later { { 100, 100 }, size };
        const auto both = placeLabels(plot, { request, later }, crowd, 10.0, &leaders);
        const auto placed = both[0];
        QVERIFY(placed);
        for (const QRectF& m : crowd.markers)
            QVERIFY(!m.intersects(*placed));
        // Its leader runs from 10 px off the point to the label's nearest edge, and the label
        // placed after it keeps clear of it.
        QCOMPARE(leaders.size(), std::size_t(2));
        QVERIFY(leaders[0]);
        QVERIFY(qAbs(QLineF(request.anchor, leaders[0]->p1()).length() - 10.0) < 1e-9);
        QVERIFY(placed->adjusted(-0.01, -0.01, 0.01, 0.01).contains(leaders[0]->p2()));
        QVERIFY(!leaders[1]);
        QVERIFY(both[1]);
        QVERIFY(!segmentCrossesRect(*leaders[0], *both[1]));
        // Beside its point, where a spot is free, no leader.
        const auto beside = placeLabels(plot, { request }, {}, 10.0, &leaders);
        QVERIFY(beside[0]);
        QVERIFY(!leaders[0]);
        // Wider than the plot: nowhere (the chart elides the ringed machine's text to fit).
        request.size = QSizeF(500, 12);
        QVERIFY(!placeLabels(plot, { request }, crowd, 10.0)[0]);
    }

    // A label stays on its point's side of the budget and deadline lines: across one, a
    // machine over the budget read as within it (review).
    void labelsStayOnTheirPointsSideOfTheDividers()
    {
        const QRectF plot(0, 0, 400, 300);
        const QSizeF size(60, 14);
        LabelObstacles obstacles;
        const QLineF budget(105, 0, 105, 300); // through the point's ring, clear of its label
        obstacles.segments.push_back(budget);
        const auto across = placeLabels(plot, { { { 100, 150 }, size } }, obstacles, 10.0);
        QCOMPARE(*across[0], QRectF(QPointF(110, 143), size)); // right: a plain line allows it
        obstacles.dividers.push_back(budget);
        const auto kept = placeLabels(plot, { { { 100, 150 }, size } }, obstacles, 10.0);
        QCOMPARE(*kept[0], QRectF(QPointF(30, 143), size)); // left, the point's side
        // The label that must show keeps its side too, however far out it must go.
        for (int y = 0; y < 300; y += 8)
            for (int x = 0; x < 100; x += 8)
                obstacles.markers.push_back({ qreal(x), qreal(y), 6, 6 });
        LabelRequest ringed { { 100, 150 }, size };
        ringed.mustShow = true;
        const auto far = placeLabels(plot, { ringed }, obstacles, 10.0);
        QVERIFY(far[0]);
        QVERIFY2(far[0]->right() <= 105, qPrintable(QStringLiteral("%1").arg(far[0]->left())));
    }

    // Where the ringed machine has no free spot near it, it goes over as few markers as can be
    // near its point (on its halo), not to a free spot across the plot: at 1280x800 it sat
    // among the rentals at 30 times its cost and read as theirs (review).
    void aLabelThatMustShowStaysNearItsPoint()
    {
        const QRectF plot(0, 0, 400, 400);
        const QSizeF size(60, 12);
        LabelObstacles crowd;
        crowd.markers = markerGrid({ 200, 200 }, 150);
        LabelRequest request { { 200, 200 }, size };
        request.mustShow = true;
        std::vector<std::optional<QLineF>> leaders;
        const auto placed = placeLabels(plot, { request }, crowd, 10.0, &leaders);
        QVERIFY(placed[0]);
        const QPointF nearest(std::clamp(200.0, placed[0]->left(), placed[0]->right()),
            std::clamp(200.0, placed[0]->top(), placed[0]->bottom()));
        QVERIFY2(QLineF(request.anchor, nearest).length() <= 400.0 / 3.0,
            qPrintable(QStringLiteral("%1, %2").arg(placed[0]->left()).arg(placed[0]->top())));
        QVERIFY(!placed[0]->intersects(QRectF(190, 190, 20, 20))); // never over its own point
        QVERIFY(leaders[0]);
    }

    // A one-sided label (a tornado bar's end) takes only spots on its side of the point: beside
    // it, its diagonals, then flush above or below; nowhere else, even where the other side is
    // free.
    void oneSidedLabelsStayOnTheirSide()
    {
        const QRectF plot(0, 0, 400, 300);
        const QSizeF size(60, 14);
        const LabelObstacles none;
        const auto left
            = placeLabels(plot, { { { 200, 150 }, size, LabelSide::Left } }, none, 10.0);
        QCOMPARE(*left[0], QRectF(QPointF(130, 143), size));
        // The bar itself runs left of its right end: the right side is still free.
        LabelObstacles bar;
        bar.segments.push_back({ 100, 150, 200, 150 });
        const auto right
            = placeLabels(plot, { { { 200, 150 }, size, LabelSide::Right } }, bar, 10.0);
        QCOMPARE(*right[0], QRectF(QPointF(210, 143), size));
        // 65 px from the plot's left, no room beside it or diagonally: flush above, its right
        // edge at the point, rather than the free spot on the right.
        const auto flush = placeLabels(plot, { { { 65, 150 }, size, LabelSide::Left } }, bar, 10.0);
        QCOMPARE(*flush[0], QRectF(QPointF(5, 126), size));
        // A row's label stays in its row: where the row is too low for the flush spot above,
        // it is left out rather than put on the next row's bar (review: at 1366x768 the
        // training-time values stood on the cloud-rate row).
        LabelRequest inRow { { 65, 150 }, size, LabelSide::Left };
        inRow.rowBand = std::make_pair(qreal(135), qreal(165));
        QVERIFY(!placeLabels(plot, { inRow }, bar, 10.0)[0]);
        inRow.rowBand = std::make_pair(qreal(120), qreal(180));
        QCOMPARE(*placeLabels(plot, { inRow }, bar, 10.0)[0], QRectF(QPointF(5, 126), size));
        // No room on its side at all: left out, not moved across.
        const auto nowhere
            = placeLabels(plot, { { { 30, 150 }, size, LabelSide::Left } }, none, 10.0);
        QVERIFY(!nowhere[0]);
        QVERIFY(placeLabels(plot, { { { 30, 150 }, size } }, none, 10.0)[0]);
    }

    // A log axis's title keeps its unit where the full one does not fit along the plot (review:
    // at 1280x720 it read "Cost per experime..."): compact, then full again with room.
    void axisTitlesKeepTheirUnitWhenShort()
    {
        ChartData chart;
        chart.title = QStringLiteral("Costs");
        chart.x = { QStringLiteral("Training days"), 1, 100, true, QString() };
        chart.y = { QStringLiteral("Cost per experiment (USD)"), 100, 10000, true,
            QStringLiteral("$") };
        ChartSeries points;
        points.name = QStringLiteral("GPU");
        points.color = Qt::blue;
        ChartPoint a;
        a.x = 3;
        a.y = 300;
        ChartPoint b;
        b.x = 30;
        b.y = 3000;
        points.points = { a, b };
        chart.series = { points };
        ChartWidget widget;
        QVERIFY(shown(widget, chart, QSize(900, 700)));
        QCOMPARE(widget.axisTitleText(Qt::Vertical),
            QStringLiteral("Cost per experiment (USD) (log scale)"));
        QCOMPARE(widget.axisTitleText(Qt::Horizontal), QStringLiteral("Training days (log scale)"));
        widget.resize(380, 300);
        QTRY_COMPARE(
            widget.axisTitleText(Qt::Vertical), QStringLiteral("Cost per experiment (USD, log)"));
        // A replot of the same data keeps the compact title.
        widget.setChartData(chart);
        QCOMPARE(
            widget.axisTitleText(Qt::Vertical), QStringLiteral("Cost per experiment (USD, log)"));
        // Lower still, the axis's short title where it has one.
        chart.y.shortTitle = QStringLiteral("$ per experiment");
        widget.setChartData(chart);
        widget.resize(380, 220); // the least a chart takes
        QTRY_COMPARE(widget.axisTitleText(Qt::Vertical), QStringLiteral("$ per experiment (log)"));
        widget.resize(900, 700);
        QTRY_COMPARE(widget.axisTitleText(Qt::Vertical),
            QStringLiteral("Cost per experiment (USD) (log scale)"));
    }

    void shippedChartLabelsCrossNoLine_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("experiment");
        QTest::newRow("pythia-1b hardware") << QStringLiteral("pythia-1b") << false;
        QTest::newRow("pythia-1b experiment") << QStringLiteral("pythia-1b") << true;
        QTest::newRow("pythia-160m hardware") << QStringLiteral("pythia-160m") << false;
        QTest::newRow("pythia-160m experiment") << QStringLiteral("pythia-160m") << true;
    }

    void shippedChartLabelsCrossNoLine()
    {
        QFETCH(QString, model);
        QFETCH(bool, experiment);
        const Results r = plan(m_catalog, SourcePolicy::Best, model.toStdString());
        PlannerChartOptions options;
        options.budgetUsd = 40000.0; // the paper's worked example, as in the screenshots
        options.deadlineDays = 60.0;
        const ChartData chart
            = experiment ? experimentCostChart(r, options) : hardwareCostChart(r, options);
        for (const QSize& size : { QSize(1000, 640), QSize(630, 396) }) { // window, report figure
            ChartWidget widget;
            QVERIFY(shown(widget, chart, size));
            const auto& geometry = widget.labelGeometry();
            // Frontier (several segments) and the budget and/or deadline lines are there to avoid.
            QVERIFY(geometry.obstacles.segments.size() >= 2);
            // At the report figure's size Pythia-1B's per-experiment chart has room for 3: a
            // label across the deadline from its point is left out (it has its tooltip).
            QVERIFY(geometry.labels.size() >= 3);
            QCOMPARE(static_cast<int>(geometry.labels.size()), widget.visibleLabelCount());
            for (std::size_t i = 0; i < geometry.labels.size(); ++i) {
                const QRectF& label = geometry.labels[i];
                for (const QLineF& line : geometry.obstacles.segments)
                    QVERIFY2(!segmentCrossesRect(line, label),
                        qPrintable(QStringLiteral("label %1 crosses a line").arg(i)));
                for (std::size_t j = i + 1; j < geometry.labels.size(); ++j)
                    QVERIFY(!label.intersects(geometry.labels[j]));
                for (const QRectF& marker : geometry.obstacles.markers)
                    QVERIFY(!label.intersects(marker));
            }
        }
    }

    void experimentChartShowsCloudOnDemandAndSpotApart()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        PlannerChartOptions every;
        every.cloud.everyOffer = true;
        const ChartData chart = experimentCostChart(r, every);
        const ChartSeries* onDemand = findSeries(chart, QStringLiteral("Cloud, on-demand"));
        const ChartSeries* spot = findSeries(chart, QStringLiteral("Cloud, spot"));
        QVERIFY(onDemand && spot);
        QVERIFY(onDemand->marker != spot->marker);
        std::size_t withOnDemand = 0;
        std::size_t withSpot = 0;
        for (const auto& c : r.cloud) {
            withOnDemand += c.onDemandCostUsd && c.offer->kind == OfferKind::Cloud ? 1 : 0;
            withSpot += c.spotCostUsd ? 1 : 0;
        }
        QCOMPARE(onDemand->points.size(), withOnDemand);
        QCOMPARE(spot->points.size(), withSpot);
        for (const auto& p : spot->points) {
            const auto& c = r.cloud.at(static_cast<std::size_t>(p.cloudIndex));
            QCOMPARE(p.y, *c.spotCostUsd);
            QVERIFY(p.x > c.estimate.days); // restarts make spot runs longer
            // Whiskers at core's spot days range: the overhead at its own range too.
            QVERIFY(p.xRange);
            QCOMPARE(p.xRange->low, c.spotDaysRange.low);
            QCOMPARE(p.xRange->high, c.spotDaysRange.high);
            QVERIFY(c.spotDaysRange.high > c.daysRange.high * p.x / c.estimate.days);
            QVERIFY(p.tooltip.contains(QString::fromStdString(c.offer->source.date)));
        }
        verifyInside(chart);
        QVERIFY(!chart.footnote.contains(QStringLiteral("prices shown")));
    }

    // A reservation is drawn at what a run of the plan pays for it, the whole terms shared by
    // the planned runs: the paper's AWS p4de 5-year term for 10 runs of Pythia-1B is $64,999 a
    // run (as the offers table says), not the $3.2k its hourly rate gives one run's hours.
    void reservationsAreDrawnAtTheirWholeTermsPerRun()
    {
        const CatalogLoad load = loadCatalog(shippedDataFiles(kPaperPriceSet));
        QVERIFY(load.ok());
        Scenario s = scenarioFor(load.catalog, SourcePolicy::Paper);
        s.assumptions.plannedRuns = 10;
        const Results r = evaluate(s);
        PlannerChartOptions every;
        every.cloud.everyOffer = true;
        const ChartData chart = experimentCostChart(r, every);
        const ChartSeries* reserved = findSeries(chart, QStringLiteral("Cloud, reserved"));
        QVERIFY(reserved);
        bool sawP4de = false;
        for (const auto& p : reserved->points) {
            const CloudOption& c = r.cloud.at(static_cast<std::size_t>(p.cloudIndex));
            QVERIFY(c.reservedTermsPlanUsd);
            QCOMPARE(p.y, *c.reservedTermsPlanUsd / 10.0);
            QVERIFY(p.y > *std::min_element(c.reservedCostUsd.begin(), c.reservedCostUsd.end()));
            if (c.offer->id == "aws-p4de-24xlarge-5yr") {
                sawP4de = true;
                QCOMPARE(std::round(p.y), 64999.0);
                QVERIFY(p.yRange && p.yRange->low <= p.y && p.yRange->high >= p.y);
                QVERIFY2(p.tooltip.contains(QStringLiteral("whole terms shared by the planned "
                                                           "runs")),
                    qPrintable(p.tooltip));
            }
        }
        QVERIFY(sawP4de);
    }

    // Hundreds of offers stay readable: by default each way to rent keeps its cheapest offer per
    // GPU type and count; the tables keep every offer.
    void experimentChartDrawsTheCheapestOfferPerMachineByDefault()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        const ChartData chart = experimentCostChart(r, {});
        const ChartSeries* onDemand = findSeries(chart, QStringLiteral("Cloud, on-demand"));
        QVERIFY(onDemand);
        std::map<std::pair<std::string, int>, double> cheapest;
        for (const auto& c : r.cloud)
            if (c.onDemandCostUsd && c.offer->kind == OfferKind::Cloud) {
                const auto key = std::make_pair(c.gpu->id, c.gpuCount);
                if (!cheapest.count(key) || *c.onDemandCostUsd < cheapest[key])
                    cheapest[key] = *c.onDemandCostUsd;
            }
        QCOMPARE(onDemand->points.size(), cheapest.size());
        for (const auto& p : onDemand->points) {
            const auto& c = r.cloud.at(static_cast<std::size_t>(p.cloudIndex));
            QCOMPARE(p.y, cheapest[std::make_pair(c.gpu->id, c.gpuCount)]);
        }
        QVERIFY2(chart.footnote.contains(
                     QStringLiteral("(the cheapest per GPU and count of each "
                                    "way to rent); the CSV export lists every offer")),
            qPrintable(chart.footnote));
        // The allocation has a series of its own; its $0 sits just above the log axis's floor,
        // and its legend entry says so.
        QVERIFY(!findSeries(chart, QStringLiteral("Allocation (no cash)")));
        const ChartSeries* granted
            = findSeries(chart, QStringLiteral("Allocation ($0, on the floor)"));
        QVERIFY(granted);
        QVERIFY(!granted->points.empty());
        for (const auto& p : granted->points) {
            QCOMPARE(p.y, chart.y.min * std::pow(chart.y.max / chart.y.min, 0.03));
            QVERIFY2(p.tooltip.contains(QStringLiteral("Apply 14 days ahead; 2 days in the queue")),
                qPrintable(p.tooltip));
        }
        verifyInside(chart);

        // A linear axis has a $0: the allocation is drawn there, inside the padded range (it
        // sat 3% above the padded floor, below the $0 tick).
        PlannerChartOptions linear;
        linear.logX = linear.logY = false;
        const ChartData flat = experimentCostChart(r, linear);
        const ChartSeries* atZero = findSeries(flat, QStringLiteral("Allocation (no cash)"));
        QVERIFY(atZero);
        QCOMPARE(atZero->points.size(), granted->points.size());
        for (const auto& p : atZero->points)
            QCOMPARE(p.y, 0.0);
        QVERIFY(flat.y.min < 0.0);
        verifyInside(flat);
    }

    void cloudFilterChoosesProvidersKindsAndFreshness()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        PlannerChartOptions runpod;
        runpod.cloud.everyOffer = true;
        runpod.cloud.providers = { "RunPod" };
        for (const auto& s : experimentCostChart(r, runpod).series)
            for (const auto& p : s.points)
                if (p.cloudIndex >= 0)
                    QCOMPARE(r.cloud[static_cast<std::size_t>(p.cloudIndex)].offer->provider,
                        std::string("RunPod"));
        PlannerChartOptions fresh;
        fresh.cloud.maxAgeMonths = 12;
        int drawn = 0;
        for (const auto& s : experimentCostChart(r, fresh).series)
            for (const auto& p : s.points)
                if (p.cloudIndex >= 0) {
                    QVERIFY(!r.cloud[static_cast<std::size_t>(p.cloudIndex)].rateAge.stale);
                    ++drawn;
                }
        QVERIFY(drawn > 0);
        // The shipped campus cluster rents V100s, which have no bf16: a model trained in fp16.
        PlannerChartOptions campusOnly;
        campusOnly.cloud.kinds = { OfferKind::Campus };
        const ChartData campus
            = experimentCostChart(plan(m_catalog, SourcePolicy::Best, "pythia-160m"), campusOnly);
        QVERIFY(!findSeries(campus, QStringLiteral("Cloud, on-demand")));
        QVERIFY(findSeries(campus, QStringLiteral("Campus cluster")));
    }

    void logAxisNeverGetsANonPositiveValue()
    {
        Results r = plan(m_catalog, SourcePolicy::Best);
        r.options.front().experimentCostUsd = 0.0; // e.g. a machine already paid for
        const ChartData chart = experimentCostChart(r, {});
        for (const auto& s : chart.series)
            for (const auto& p : s.points) {
                QVERIFY(p.x > 0.0);
                QVERIFY(p.y > 0.0);
            }
        QVERIFY(chart.footnote.contains(QStringLiteral("not shown on the log axis")));
        PlannerChartOptions linear;
        linear.logX = linear.logY = false;
        const ChartData flat = experimentCostChart(r, linear);
        QVERIFY(!flat.footnote.contains(QStringLiteral("log axis")));
        verifyInside(flat);
    }

    void comparisonsAreHollowSeriesOfTheirOwn()
    {
        const std::string fixture
            = std::string(GPUPLAN_TEST_DATA) + "/../gui/data/measured-pythia-1b-8xa100.yaml";
        const CatalogLoad load = loadPlannerCatalog({}, { fixture }, kPaperPriceSet);
        QVERIFY2(load.ok(), formatIssues(load.issues).c_str());
        const Results best = plan(load.catalog, SourcePolicy::Paper);
        const Results measured = plan(load.catalog, SourcePolicy::Measured);
        QCOMPARE(measured.options.size(), std::size_t { 1 });
        PlannerChartOptions options;
        options.comparisons = { &measured };
        const ChartData chart = hardwareCostChart(best, options);
        const ChartSeries* s = findSeries(chart, QStringLiteral("Measured (gpuplan-bench)"));
        QVERIFY(s);
        QVERIFY(s->hollow);
        QVERIFY(s->marker == Marker::Pentagon);
        QCOMPARE(s->points.size(), std::size_t { 1 });
        QCOMPARE(s->points.front().y, 20.0);
        QVERIFY(s->points.front().tooltip.contains(QStringLiteral("Validation error: 1%")));
        QCOMPARE(s->points.front().optionIndex, -1);
    }

    void highlightFollowsTheSelection()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        PlannerChartOptions options;
        options.highlightOption = 3;
        const ChartData chart = hardwareCostChart(r, options);
        QVERIFY(chart.highlight);
        QCOMPARE(chart.highlight->x, r.options[3].machineCostUsd);
        QCOMPARE(chart.highlight->y, r.options[3].estimate.days);
    }

    void buyVsRentStartsAtTheMachineCost()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        const std::size_t chosen
            = firstOption(r, [](const OwnedOption& o) { return o.breakEvenRuns.has_value(); });
        QVERIFY(chosen < r.options.size());
        const OwnedOption& o = r.options[chosen];
        const ChartData chart = buyVsRentChart(r, { chosen, {}, 0, false });
        QVERIFY(!chart.series.empty());
        const ChartSeries& buy = chart.series.front();
        QVERIFY(buy.name.startsWith(QStringLiteral("Buy ")));
        QCOMPARE(buy.points.front().x, 0.0);
        QCOMPARE(buy.points.front().y, o.machineCostUsd);
        QCOMPARE(buy.points[1].y, o.machineCostUsd + o.energyCostUsd);
        QVERIFY(buy.points.back().x >= *o.breakEvenRuns);
        // Renting starts at nothing; the break-even markers sit on the buy line.
        const ChartSeries* marks = findSeries(chart, QStringLiteral("Break-even"));
        QVERIFY(marks);
        for (const auto& s : chart.series)
            if (&s != &buy && &s != marks)
                QCOMPARE(s.points.front().y, 0.0);
        for (const auto& p : marks->points)
            QCOMPARE(p.y, o.machineCostUsd + p.x * o.energyCostUsd);
        // One of them is the core's break-even against the cheapest matching offer.
        bool cheapestMarked = false;
        for (const auto& p : marks->points)
            cheapestMarked = cheapestMarked || qFuzzyCompare(p.x, *o.breakEvenRuns);
        QVERIFY(cheapestMarked);
        QVERIFY(chart.lines.empty());
        QCOMPARE(chart.y.min, 0.0);
        const QString words = buyVsRentConclusion(r, chosen);
        QVERIFY2(words.contains(QStringLiteral("pays off from run %1")
                                    .arg(static_cast<int>(std::floor(*o.breakEvenRuns)) + 1)),
            qPrintable(words));
        QVERIFY(words.contains(QStringLiteral("month")));
    }

    // At the paper's prices, 8xH100 breaks even against Lambda after 97.9 runs, about 98
    // months at one run a month: past its 5-year life, which the sentence says; 4xH100 (49.9
    // months) is within it.
    void breakEvenPastTheMachinesLifeIsSaid()
    {
        const CatalogLoad load = loadCatalog(shippedDataFiles(kPaperPriceSet));
        QVERIFY(load.ok());
        const Results r = evaluate(scenarioFor(load.catalog, SourcePolicy::Paper));
        const auto h100 = [&r](int count) {
            return firstOption(r, [count](const OwnedOption& o) {
                return o.gpu->id == "h100-80gb-sxm" && o.gpuCount == count;
            });
        };
        const std::size_t eight = h100(8);
        const std::size_t four = h100(4);
        QVERIFY(eight < r.options.size() && four < r.options.size());
        QVERIFY(!r.options[eight].breakEvenWithinLifespan);
        QVERIFY(r.options[four].breakEvenWithinLifespan);
        const QString past = QStringLiteral("that is past the machine's 5-year life, so at this "
                                            "run rate it is retired before buying pays off");
        const QString words = buyVsRentConclusion(r, eight);
        QVERIFY2(words.contains(QStringLiteral("about 98 months at 1 run a month) against Lambda")),
            qPrintable(words));
        QVERIFY2(words.contains(past), qPrintable(words));
        QVERIFY2(
            words.startsWith(QStringLiteral("Buying 8\u00D7H100 SXM would pay off from run 98")),
            qPrintable(words));
        // A planned rate the runs cannot keep is capped, and the months say so (they read as
        // the rate the user set, ignored).
        Scenario busy = scenarioFor(load.catalog, SourcePolicy::Paper);
        busy.assumptions.runsPerMonth = 20.0;
        const Results capped = evaluate(busy);
        const QString cappedWords = buyVsRentConclusion(capped, four);
        QVERIFY2(cappedWords.contains(QStringLiteral(" runs a month, as many as fit back to back) "
                                                     "against")),
            qPrintable(cappedWords));
        QVERIFY(!buyVsRentConclusion(r, four).contains(QStringLiteral("past the machine's")));
        // In runs only (the justification's calendar is the grant's), no run rate to judge by.
        QVERIFY(!buyVsRentConclusion(r, eight, {}, false).contains(QStringLiteral("past the")));
        QVERIFY(!words.contains(QStringLiteral("F&A")));

        // With an indirect rate the sponsor puts on renting, the rental's price per run says it
        // holds the F&A (it read as the offer's own price, which the budget quotes without).
        Scenario withRate = scenarioFor(load.catalog, SourcePolicy::Paper);
        withRate.assumptions.indirectRate = 0.5;
        const Results indirect = evaluate(withRate);
        const auto& c = indirect.cloud[*indirect.options[eight].cheapestCloudIndex];
        const QString withFa = buyVsRentConclusion(indirect, eight);
        QVERIFY2(withFa.contains(views::formatUsd(c.cheapestCostUsd.value_or(0.0))
                     + QStringLiteral(" per run with F&A")),
            qPrintable(withFa));
    }

    // Which costs less for the planned runs, on the break-even's terms: 4xA100 at the paper's
    // prices breaks even with Azure after 12.09 runs (9.39-15.06 over the ranges).
    void planVerdictAgreesWithTheBreakEven()
    {
        const CatalogLoad load = loadCatalog(shippedDataFiles(kPaperPriceSet));
        QVERIFY(load.ok());
        Scenario s = scenarioFor(load.catalog, SourcePolicy::Paper);
        const auto machine = [](const Results& r, const char* gpu, int count) {
            return firstOption(r, [gpu, count](const OwnedOption& o) {
                return o.gpu->id == gpu && o.gpuCount == count;
            });
        };
        const auto verdictFor = [&](int runs) {
            s.assumptions.plannedRuns = runs;
            const Results r = evaluate(s);
            const std::size_t i = machine(r, "a100-80gb-sxm", 4);
            const OwnedOption& o = r.options.at(i);
            const auto v = planVerdict(r, i);
            [&] {
                QVERIFY(v);
                QCOMPARE(v->buyUsd, o.netCapexUsd + runs * o.buyCostPerRunUsd);
                QCOMPARE(v->buyingCheaper, runs > *o.breakEvenRuns);
            }();
            return std::make_pair(v.value_or(PlanVerdict {}), planVerdictText(r, i));
        };
        const auto [one, oneText] = verdictFor(1);
        QCOMPARE(oneText,
            QStringLiteral(
                "For the 1 run planned: buying 4\u00D7A100 SXM costs %1 (the machine and "
                "electricity), renting from Azure 4\u00D7A100 SXM 80GB, on-demand costs "
                "%2: renting is cheaper by %3, with every input at either end of its "
                "range too.")
                .arg(views::formatUsd(one.buyUsd), views::formatUsd(one.rentUsd),
                    views::formatShownDifference(one.buyUsd, one.rentUsd)));
        // Within the break-even's range, on either side of it: open.
        for (int runs : { 12, 13 }) {
            const auto [v, text] = verdictFor(runs);
            QCOMPARE(v.firm, std::optional<bool>(false));
            QVERIFY2(text.contains(QStringLiteral("%1 is cheaper by")
                                       .arg(runs == 12 ? QStringLiteral("renting")
                                                       : QStringLiteral("buying"))),
                qPrintable(text));
            QVERIFY2(text.endsWith(QStringLiteral(" at the central estimate; within the ranges it "
                                                  "may go either way.")),
                qPrintable(text));
        }
        const auto [twenty, twentyText] = verdictFor(20);
        QVERIFY(twenty.buyingCheaper && twenty.firm == std::optional<bool>(true));

        // Resale lowers the buy total as it lowers the break-even's; F&A is said on the rental.
        s.assumptions.resaleFraction = 0.3;
        s.assumptions.indirectRate = 0.5;
        const auto [resold, resoldText] = verdictFor(7);
        QVERIFY2(resoldText.contains(QStringLiteral("(the machine less its resale value and "
                                                    "electricity)")),
            qPrintable(resoldText));
        QVERIFY2(
            resoldText.contains(QStringLiteral(" (F&A at 50% on it): ")), qPrintable(resoldText));
        s.assumptions.resaleFraction = 0.0;
        s.assumptions.indirectRate = 0.0;

        // 110 runs at one a month outlast a 5-year life: said, not hidden in the totals.
        s.assumptions.plannedRuns = 110;
        const Results r = evaluate(s);
        const QString text = planVerdictText(r, machine(r, "h100-80gb-sxm", 8));
        QVERIFY2(text.contains(QStringLiteral("; at 1 run a month the runs take 110 months, longer "
                                              "than the machine's 5-year life, so buying them all "
                                              "would take a second machine.")),
            qPrintable(text));
        // Nothing rents RTX 3090s at the paper's prices: no verdict.
        QVERIFY(planVerdictText(r, machine(r, "rtx-3090", 1)).isEmpty());

        // Against chosen offers: the cheapest price among them, and the break-even's range
        // against it, decide. With the current prices, a machine with two offers whose
        // break-evens have a whole number of runs between them.
        Scenario current = scenarioFor(m_catalog, SourcePolicy::Best);
        const Results first = evaluate(current);
        std::optional<std::size_t> pick;
        const OfferBreakEven* early = nullptr;
        const OfferBreakEven* late = nullptr;
        for (std::size_t i = 0; i < first.options.size() && !pick; ++i)
            for (const OfferBreakEven& b1 : first.options[i].breakEvens)
                for (const OfferBreakEven& b2 : first.options[i].breakEvens)
                    if (!pick && b1.runs && b2.runs && std::floor(*b1.runs) + 1.0 < *b2.runs) {
                        pick = i;
                        early = &b1;
                        late = &b2;
                    }
        QVERIFY(pick);
        // Between the two: buying beats the offer that breaks even early (the dearer rental),
        // not the one that breaks even late (the cheaper one).
        const int runs = static_cast<int>(std::floor(*early->runs)) + 1;
        current.assumptions.plannedRuns = runs;
        const Results between = evaluate(current);
        const OwnedOption& o = between.options[*pick];
        const auto dearer = planVerdict(between, *pick, { early->cloudIndex });
        const auto cheaper = planVerdict(between, *pick, { late->cloudIndex });
        QVERIFY(dearer && cheaper);
        QCOMPARE(dearer->cloudIndex, early->cloudIndex);
        QCOMPARE(dearer->rentUsd, runs * early->costPerRunUsd);
        QVERIFY(dearer->buyingCheaper);
        QVERIFY(!cheaper->buyingCheaper);
        // Both chosen: the cheaper price decides, as it decides the break-even sentences.
        QCOMPARE(planVerdict(between, *pick, { early->cloudIndex, late->cloudIndex })->cloudIndex,
            late->cloudIndex);
        QVERIFY(planVerdictText(between, *pick, { early->cloudIndex })
                    .contains(QStringLiteral("buying is cheaper")));
        QCOMPARE(o.breakEvens.size(), first.options[*pick].breakEvens.size());
    }

    // With resale and owning costs, the buy line is the one the core's break-even is on: the
    // net price up front, then electricity and owning costs per run.
    void buyVsRentWithOwningCostsFollowsTheCore()
    {
        Scenario s = scenarioFor(m_catalog, SourcePolicy::Best);
        s.assumptions.resaleFraction = 0.2;
        s.assumptions.hostingUsdPerKwMonth = 184.0;
        const Results r = evaluate(s);
        const std::size_t chosen
            = firstOption(r, [](const OwnedOption& o) { return o.breakEvenRuns.has_value(); });
        QVERIFY(chosen < r.options.size());
        const OwnedOption& o = r.options[chosen];
        QVERIFY(o.netCapexUsd < o.machineCostUsd);
        QVERIFY(o.buyCostPerRunUsd > o.energyCostUsd);
        const ChartData chart = buyVsRentChart(r, { chosen, {}, 0, false });
        const ChartSeries& buy = chart.series.front();
        QVERIFY2(buy.name.endsWith(QStringLiteral("(net price + energy and owning costs)")),
            qPrintable(buy.name));
        QCOMPARE(buy.points.front().y, o.netCapexUsd);
        QVERIFY(qFuzzyCompare(buy.points[1].y, o.netCapexUsd + o.buyCostPerRunUsd));
        const ChartSeries* marks = findSeries(chart, QStringLiteral("Break-even"));
        QVERIFY(marks);
        bool cheapestMarked = false;
        for (const auto& p : marks->points) {
            QVERIFY(qFuzzyCompare(p.y, o.netCapexUsd + p.x * o.buyCostPerRunUsd));
            cheapestMarked = cheapestMarked || qFuzzyCompare(p.x, *o.breakEvenRuns);
        }
        QVERIFY(cheapestMarked);
    }

    // Two offers of one provider renting the same GPUs (AWS's p5.48xlarge and eight p5.4xlarge
    // instances, both 8×H100 SXM) are named by their instances: as "AWS 8×H100 SXM 80GB" both
    // read as one offer stated twice, in the legend and in the break-even sentences.
    void offersOfTheSameGpusAreToldApart()
    {
        const Results r = evaluate(scenarioFor(m_catalog, SourcePolicy::Best));
        std::optional<std::size_t> machine;
        for (std::size_t i = 0; i < r.options.size(); ++i)
            if (r.options[i].gpu->id == "h100-80gb-sxm" && r.options[i].gpuCount == 8)
                machine = i;
        QVERIFY(machine);
        std::vector<std::size_t> aws;
        for (std::size_t i = 0; i < r.cloud.size(); ++i)
            if (r.cloud[i].offer->provider == "AWS" && r.cloud[i].gpu->id == "h100-80gb-sxm"
                && r.cloud[i].gpuCount == 8)
                aws.push_back(i);
        QCOMPARE(aws.size(), std::size_t(2));
        const ChartData chart = buyVsRentChart(r, { *machine, aws, 0, false });
        QStringList names;
        for (const ChartSeries& s : chart.series)
            names << s.name;
        QVERIFY2(names.contains(QStringLiteral("AWS p5.48xlarge (8x H100 SXM), on-demand")),
            qPrintable(names.join(QLatin1Char('|'))));
        QVERIFY(names.contains(QStringLiteral("AWS p5.4xlarge (1x H100 SXM) × 8, on-demand")));
        const QString words = buyVsRentConclusion(r, *machine, aws);
        QVERIFY2(
            words.contains(QStringLiteral("against AWS p5.4xlarge (1x H100 SXM) × 8, on-demand")),
            qPrintable(words));
        // The break-even markers too: both read "vs AWS on-demand" before.
        for (const ChartSeries& s : chart.series)
            if (s.name == QStringLiteral("Break-even"))
                for (const ChartPoint& p : s.points)
                    QVERIFY2(p.label.contains(QStringLiteral("vs AWS p5.")), qPrintable(p.label));
        // Alone, an offer keeps its short label.
        QVERIFY(!buyVsRentConclusion(r, *machine, { aws.front() }).contains(QStringLiteral("p5.")));
    }

    // A machine below the equipment threshold carries F&A on its price under US federal rules:
    // the buy line starts there and says so, but F&A is no owning cost.
    void buyVsRentSaysFandAOnASuppliesMachine()
    {
        Scenario s = scenarioFor(m_catalog, SourcePolicy::Best);
        s.assumptions.indirectRate = 0.5;
        s.sponsorId = "us-federal";
        const Results r = evaluate(s);
        const std::size_t chosen = firstOption(r, [](const OwnedOption& o) {
            return o.machineCostUsd < 5000.0 && o.breakEvenRuns.has_value();
        });
        QVERIFY(chosen < r.options.size());
        const OwnedOption& o = r.options[chosen];
        QCOMPARE(o.netCapexUsd, 1.5 * o.machineCostUsd);
        const ChartData chart = buyVsRentChart(r, { chosen, {}, 0, false });
        const ChartSeries& buy = chart.series.front();
        QVERIFY2(buy.name.endsWith(
                     QStringLiteral("(machine + energy, F&A on the machine and electricity)")),
            qPrintable(buy.name));
        QCOMPARE(buy.points.front().y, o.netCapexUsd);
    }

    // Where renting never breaks even, the sentence compares with what running the machine
    // costs per run, owning costs included, not with its electricity alone.
    void rentingCheaperThanRunningSaysWhatRunningCosts()
    {
        Scenario s = scenarioFor(m_catalog, SourcePolicy::Best);
        s.assumptions.staffUsdPerYear = 1e6; // owning costs far above any rental
        const Results r = evaluate(s);
        const std::size_t chosen = firstOption(
            r, [](const OwnedOption& o) { return o.cheapestCloudIndex && !o.breakEvenRuns; });
        QVERIFY(chosen < r.options.size());
        const QString words = buyVsRentConclusion(r, chosen);
        QVERIFY2(words.contains(QStringLiteral("costs less than running the machine costs per run "
                                               "(%1 in electricity and the owning costs of a "
                                               "run's months)")
                                    .arg(views::formatUsd(r.options[chosen].buyCostPerRunUsd))),
            qPrintable(words));
    }

    void buyVsRentMarksABreakEvenPerChosenOffer()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        const std::size_t chosen = machineWithTwoOffers(r);
        QVERIFY(chosen < r.options.size());
        const OwnedOption& o = r.options[chosen];
        const auto matching = matchingCloudOffers(r, chosen);
        // The dearest matching offer on-demand: not the one the core's break-even is against.
        std::size_t dearest = matching.front();
        for (std::size_t i : matching)
            if (r.cloud[i].onDemandCostUsd.value_or(0.0)
                > r.cloud[dearest].onDemandCostUsd.value_or(0.0))
                dearest = i;
        const auto& c = r.cloud[dearest];
        QVERIFY(c.onDemandCostUsd);
        const double expected = o.machineCostUsd / (*c.onDemandCostUsd - o.energyCostUsd);

        const ChartData chart = buyVsRentChart(r, { chosen, { dearest }, 0, false });
        const ChartSeries* marks = findSeries(chart, QStringLiteral("Break-even"));
        QVERIFY(marks);
        QCOMPARE(marks->points.size(), std::size_t { c.spotCostUsd ? 2u : 1u });
        QVERIFY(qFuzzyCompare(marks->points.front().x, expected));
        QVERIFY(marks->points.front().x != *o.breakEvenRuns);
        QCOMPARE(marks->points.front().label,
            QStringLiteral("%1 runs vs %2 on-demand")
                .arg(QLocale(QLocale::English).toString(expected, 'f', 1),
                    QString::fromStdString(c.offer->provider)));
        QVERIFY(chart.x.max >= expected);

        const auto breakEvens = offerBreakEvens(r, chosen, { dearest });
        QCOMPARE(breakEvens.front().cloudIndex, dearest);
        const QString offer = breakEvenOfferName(r, breakEvens.front());
        QVERIFY(offer.endsWith(QStringLiteral(", on-demand")));
        const QString words = buyVsRentConclusion(r, chosen, { dearest });
        QVERIFY2(words.contains(QStringLiteral("against ") + offer), qPrintable(words));
        QVERIFY2(words.contains(QStringLiteral("pays off from run %1")
                                    .arg(static_cast<int>(std::floor(expected)) + 1)),
            qPrintable(words));
        QCOMPARE(words.count(QStringLiteral("Buying ")) + words.count(QStringLiteral("Renting ")),
            static_cast<int>(breakEvens.size()));
    }

    void breakEvenLabelsAreAllDrawn()
    {
        // Every break-even sits where two lines cross: its label must still find room.
        const Results r = plan(m_catalog, SourcePolicy::Best);
        const std::size_t chosen = machineWithTwoOffers(r);
        QVERIFY(chosen < r.options.size());
        const ChartData chart = buyVsRentChart(r, { chosen, {}, 0, false });
        const ChartSeries* marks = findSeries(chart, QStringLiteral("Break-even"));
        QVERIFY(marks && marks->points.size() >= 2);
        ChartWidget widget;
        QVERIFY(shown(widget, chart, QSize(1000, 640)));
        QCOMPARE(widget.visibleLabelCount(), static_cast<int>(marks->points.size()));
    }

    void countsHaveTheirPlural()
    {
        QCOMPARE(
            countOf(1, 0, QStringLiteral("run"), QStringLiteral("runs")), QStringLiteral("1 run"));
        QCOMPARE(
            countOf(2, 0, QStringLiteral("run"), QStringLiteral("runs")), QStringLiteral("2 runs"));
        QCOMPARE(countOf(1.04, 1, QStringLiteral("run"), QStringLiteral("runs")),
            QStringLiteral("1.0 runs"));
        QCOMPARE(countOf(0.96, 0, QStringLiteral("month"), QStringLiteral("months")),
            QStringLiteral("1 month"));
        QCOMPARE(countOf(1500, 0, QStringLiteral("step"), QStringLiteral("steps")),
            QStringLiteral("1,500 steps"));
    }

    void buyVsRentInMonths()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        std::size_t chosen = r.options.size();
        for (std::size_t i = 0; i < r.options.size(); ++i)
            if (r.options[i].breakEvenMonths)
                chosen = i;
        QVERIFY(chosen < r.options.size());
        const OwnedOption& o = r.options[chosen];
        QVERIFY(o.runsPerMonth > 0.0);
        BuyVsRentOptions options { chosen, {}, 12, true };
        const ChartData chart = buyVsRentChart(r, options);
        QVERIFY(chart.x.title.startsWith(QStringLiteral("Months")));
        QCOMPARE(chart.series.front().points.back().x, 12.0 / o.runsPerMonth);
        QCOMPARE(chart.x.max, 12.0 / o.runsPerMonth);
        QVERIFY(chart.x.title.contains(QStringLiteral("a month")));
        if (const ChartSeries* marks = findSeries(chart, QStringLiteral("Break-even")))
            for (const auto& p : marks->points)
                QVERIFY2(p.label.contains(QStringLiteral(" month")), qPrintable(p.label));
    }

    void buyVsRentWithoutMachineSaysSo()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        QVERIFY(buyVsRentConclusion(r, r.options.size()).contains(QStringLiteral("No machine")));
        QVERIFY(buyVsRentChart(r, { r.options.size(), {}, 0, false }).series.empty());
    }

    // The tornado: one row per input of the metric, named on the axis, largest swing at the top;
    // from the stated value a bar to each end of the input's range, labelled with the input's
    // value there; to the right edge where buying never pays off. One legend entry per colour.
    void sensitivityChartIsATornado()
    {
        const std::vector<SensitivityRow> rows {
            { "electricity_usd_per_kwh", "Electricity price", 0.1, 0.2,
                SensitivityMetric::BreakEvenRuns, 8.0, 14.0 },
            { "pue", "PUE", 1.1, 1.8, SensitivityMetric::BreakEvenRuns, 10.0, std::nullopt },
            // Its range ends at its stated value: the high end's bar has no length.
            { "machine_utilization", "Machine in use", 0.5, 1.0, SensitivityMetric::BreakEvenRuns,
                14.5, 11.0 },
            { "training_days", "Training time", 9.5, 10.5, SensitivityMetric::ExperimentCostUsd,
                6.0, 7.0 },
        };
        SensitivityChartOptions options;
        options.machine = QStringLiteral("8×A100");
        options.against = QStringLiteral("aws-p4de");
        options.statedValue = 11.0;
        const ChartData chart = sensitivityChart(rows, options);
        // Top row first (its labels are placed first): each row's low-end bar, then its high.
        QCOMPARE(chart.series.size(), std::size_t(6));
        for (const auto& bar : chart.series) {
            QVERIFY(bar.kind == ChartSeries::Kind::Bar);
            QCOMPARE(bar.points.size(), std::size_t(2));
            QCOMPARE(bar.points[0].x, 11.0); // from the stated value...
            QVERIFY(bar.points[0].label.isEmpty());
        }
        // The axis's rows ascend: the first row at the top.
        QCOMPARE(chart.y.rows.size(), std::size_t(3));
        QCOMPARE(chart.y.rows[0].label, QStringLiteral("Machine in use"));
        QCOMPARE(chart.y.rows[1].label, QStringLiteral("PUE"));
        QCOMPARE(chart.y.rows[2].label, QStringLiteral("Electricity price"));
        QVERIFY(chart.y.rows[0].value < chart.y.rows[1].value);
        QVERIFY(chart.y.rows[1].value < chart.y.rows[2].value);
        QVERIFY(!chart.y.ticks);
        const ChartSeries& electricityLow = chart.series[0];
        const ChartSeries& electricityHigh = chart.series[1];
        const ChartSeries& pueNever = chart.series[3];
        const ChartSeries& inUseHigh = chart.series[5];
        QCOMPARE(electricityLow.points[1].x, 8.0); // ... to the metric at each end
        QCOMPARE(electricityLow.points[1].label, QStringLiteral("$0.1/kWh"));
        QCOMPARE(electricityHigh.points[1].x, 14.0);
        QCOMPARE(electricityHigh.points[1].label, QStringLiteral("$0.2/kWh"));
        QCOMPARE(electricityHigh.points[1].tooltip,
            QStringLiteral("Electricity price at $0.2/kWh: 14.0"));
        QCOMPARE(electricityLow.points[1].y, chart.y.rows[2].value);
        QCOMPARE(pueNever.points[1].x, chart.x.max); // never: to the right edge
        QCOMPARE(pueNever.name, QStringLiteral("Buying never pays off"));
        QVERIFY(pueNever.color != electricityHigh.color);
        QVERIFY(electricityLow.color != electricityHigh.color);
        QCOMPARE(chart.series[2].name, electricityLow.name);
        QVERIFY(electricityLow.inLegend && electricityHigh.inLegend && pueNever.inLegend);
        QVERIFY(!chart.series[2].inLegend && !chart.series[4].inLegend && !inUseHigh.inLegend);
        // Each end's label beyond it, away from the other bar; over its own end at the edge; at
        // the stated value, opposite the other bar (which runs right, to 14.5).
        QCOMPARE(electricityLow.points[1].labelSide, LabelSide::Left);
        QCOMPARE(electricityHigh.points[1].labelSide, LabelSide::Right);
        QCOMPARE(pueNever.points[1].labelSide, LabelSide::Left);
        QCOMPARE(inUseHigh.points[1].x, 11.0);
        QCOMPARE(inUseHigh.points[1].label, QStringLiteral("100%"));
        QCOMPARE(inUseHigh.points[1].labelSide, LabelSide::Left);
        QCOMPARE(chart.series[4].points[1].labelSide, LabelSide::Right);
        // Room beyond the outermost ends for their labels.
        QVERIFY(chart.x.min < 8.0 - 0.15 * (14.5 - 8.0));
        QCOMPARE(chart.lines.size(), std::size_t(1));
        QCOMPARE(chart.lines[0].value, 11.0);
        QVERIFY(chart.footnote.contains(QStringLiteral("never pays off")));
        QVERIFY(chart.title.contains(QStringLiteral("aws-p4de")));
        QVERIFY(chart.y.title.isEmpty()); // Qt Charts would draw it above the plot
        QVERIFY(
            chart.footnote.startsWith(QStringLiteral("The input that moves it most at the top")));

        // Drawn: names up the side, numbers along the bottom, every end's label placed, and one
        // legend entry per colour.
        ChartWidget widget;
        QVERIFY(shown(widget, chart, QSize(900, 420)));
        QCOMPARE(widget.tickLabels(Qt::Vertical),
            QStringList({ QStringLiteral("Machine in use"), QStringLiteral("PUE"),
                QStringLiteral("Electricity price") }));
        QVERIFY(widget.tickLabels(Qt::Horizontal).size() >= 3);
        QCOMPARE(widget.labelTexts().size(), 6);
        QCOMPARE(widget.visibleLabelCount(), 6);
        QCOMPARE(widget.legendNames(),
            QStringList({ QStringLiteral("Input at the low end of its range"),
                QStringLiteral("Input at the high end of its range"),
                QStringLiteral("Buying never pays off"), QStringLiteral("stated values: 11.0") }));

        // Per-experiment cost: its one row.
        options.metric = SensitivityMetric::ExperimentCostUsd;
        QCOMPARE(sensitivityChart(rows, options).series.size(), std::size_t(2));
        // No stated value to swing from: one bar per row across the range, both ends labelled;
        // a row that never pays off at one end says so in the legend.
        options.metric = SensitivityMetric::BreakEvenRuns;
        options.statedValue.reset();
        const ChartData across = sensitivityChart(rows, options);
        QCOMPARE(across.series.size(), std::size_t(3));
        QCOMPARE(across.series[0].points[0].x, 8.0);
        QCOMPARE(across.series[0].points[1].x, 14.0);
        QCOMPARE(across.series[0].points[0].label, QStringLiteral("$0.1/kWh"));
        QCOMPARE(across.series[0].name, QStringLiteral("Input across its range"));
        QCOMPARE(across.series[1].name, QStringLiteral("Buying never pays off at one end"));
        QVERIFY(across.series[1].inLegend);
        QVERIFY(across.lines.empty());
        // Nothing moves it: no rows, no numbers up the side, and a note that says why.
        const ChartData none = sensitivityChart({}, options);
        QVERIFY(none.series.empty() && none.y.rows.empty() && !none.y.ticks);
        QCOMPARE(none.footnote, QStringLiteral("No uncertain input moves it."));
        ChartWidget empty;
        QVERIFY(shown(empty, none, QSize(600, 400)));
        QVERIFY(empty.tickLabels(Qt::Vertical).isEmpty());
    }

    // A title wider than the chart is broken into lines at spaces, every word kept, rather than
    // elided by Qt Charts; one that fits stays one plain line. The data keep the plain title.
    void longTitlesWrapInsteadOfEliding()
    {
        ChartData chart;
        chart.title = QStringLiteral("What moves the break-even of 8×RTX PRO 6000 Blackwell 96GB "
                                     "against RunPod 2×RTX PRO 6000 Blackwell Workstation Edition");
        chart.x = { QStringLiteral("Runs to break even"), 0, 10, false, QString() };
        chart.y = { QString(), 0, 1, false, QString() };
        ChartWidget widget;
        QVERIFY(shown(widget, chart, QSize(520, 400)));
        const QString drawn = widget.drawnTitle();
        QVERIFY2(drawn.contains(QStringLiteral("<br>")), qPrintable(drawn));
        QCOMPARE(QString(drawn).replace(QStringLiteral("<br>"), QStringLiteral(" ")), chart.title);
        QCOMPARE(widget.chartData().title, chart.title);

        widget.resize(1800, 400);
        QTRY_COMPARE(widget.drawnTitle(), chart.title);
    }

    // A footnote longer than three lines gets the room it needs under the plot: the plot
    // shrinks, the note ends inside the widget. A short one keeps the usual room.
    void longFootnotesMakeRoomForThemselves()
    {
        ChartData chart;
        chart.title = QStringLiteral("Notes");
        chart.x = { QStringLiteral("x"), 0, 10, false, QString() };
        chart.y = { QStringLiteral("y"), 0, 10, false, QString() };
        chart.footnote = QStringLiteral("Short.");
        ChartWidget widget;
        QVERIFY(shown(widget, chart, QSize(600, 500)));
        const QRectF usualPlot = widget.plotArea();
        QVERIFY(widget.footnoteRect().bottom() <= widget.height());

        QStringList words;
        for (int i = 0; i < 120; ++i)
            words << QStringLiteral("word%1").arg(i);
        chart.footnote = words.join(QLatin1Char(' '));
        widget.setChartData(chart);
        QTRY_VERIFY(widget.plotArea().height() < usualPlot.height());
        const QRectF note = widget.footnoteRect();
        QVERIFY2(note.height() > 60, qPrintable(QString::number(note.height())));
        QVERIFY(note.top() > widget.plotArea().bottom());
        QVERIFY2(note.bottom() <= widget.height(),
            qPrintable(QStringLiteral("%1 > %2").arg(note.bottom()).arg(widget.height())));

        chart.footnote = QStringLiteral("Short again.");
        widget.setChartData(chart);
        QTRY_COMPARE(widget.plotArea(), usualPlot);
    }

    void widgetPlacesLabelsWithoutOverlap()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        ChartWidget widget;
        QVERIFY(shown(widget, hardwareCostChart(r, {}), QSize(1000, 640)));
        QVERIFY(widget.visibleLabelCount() > static_cast<int>(r.options.size()) / 2);
        QVERIFY(widget.visibleLabelCount() <= static_cast<int>(r.options.size()));
    }

    // Whiskers: every owned point of both Planner charts carries its ranges, which hold the
    // point, for every shipped model; rental points carry their cost's.
    void plannerPointsCarryTheirRanges()
    {
        for (const auto& w : m_catalog->workloads) {
            const Results r = plan(m_catalog, SourcePolicy::Best, w.id);
            QVERIFY(r.hasRanges);
            for (const ChartData& chart :
                { hardwareCostChart(r, {}), experimentCostChart(r, {}) }) {
                int owned = 0;
                for (const auto& s : chart.series)
                    for (const auto& p : s.points) {
                        if (p.optionIndex < 0 && p.cloudIndex < 0)
                            continue; // the frontier repeats owned points without ranges
                        if (p.optionIndex >= 0 && s.kind == ChartSeries::Kind::Scatter) {
                            ++owned;
                            QVERIFY2(p.xRange && p.yRange,
                                qPrintable(
                                    QString::fromStdString(w.name) + QLatin1Char(' ') + s.name));
                        }
                        if (p.xRange)
                            QVERIFY2(p.xRange->low <= p.x * (1 + 1e-12)
                                    && p.x <= p.xRange->high * (1 + 1e-12),
                                qPrintable(p.tooltip));
                        if (p.yRange)
                            QVERIFY2(p.yRange->low <= p.y * (1 + 1e-12)
                                    && p.y <= p.yRange->high * (1 + 1e-12),
                                qPrintable(p.tooltip));
                    }
                QCOMPARE(static_cast<std::size_t>(owned), r.options.size());
                QVERIFY(chart.footnote.contains(QStringLiteral("Whiskers:")));
            }
        }
        // The 8xA100 of the paper's Fig. 7 at its point and its ends, as core computed them.
        const Results r = plan(m_catalog, SourcePolicy::Paper);
        const ChartData chart = experimentCostChart(r, {});
        bool found = false;
        for (const auto& s : chart.series)
            for (const auto& p : s.points)
                if (p.optionIndex >= 0 && s.kind == ChartSeries::Kind::Scatter) {
                    const OwnedOption& o = r.options[static_cast<std::size_t>(p.optionIndex)];
                    QCOMPARE(p.yRange->low, o.experimentCostRange.low);
                    QCOMPARE(p.yRange->high, o.experimentCostRange.high);
                    QCOMPARE(p.xRange->low, o.daysRange.low);
                    found = true;
                }
        QVERIFY(found);
        // Without ranges, a point value only and no word about whiskers.
        Scenario s;
        s.catalog = m_catalog;
        s.modelId = "pythia-1b";
        s.assumptions = m_catalog->defaults;
        s.ranges = false;
        const ChartData plain = hardwareCostChart(evaluate(s), {});
        for (const auto& series : plain.series)
            for (const auto& p : series.points)
                QVERIFY(!p.xRange && !p.yRange);
        QVERIFY(!plain.footnote.contains(QStringLiteral("Whiskers:")));
    }

    // Bands: the buy line's edges are the machine's price range plus runs x the energy range;
    // a rent line's, runs x the cost per run's range.
    void buyVsRentLinesHaveBands()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        const std::size_t machine = machineWithTwoOffers(r);
        QVERIFY(machine < r.options.size());
        BuyVsRentOptions opt;
        opt.optionIndex = machine;
        const ChartData chart = buyVsRentChart(r, opt);
        const OwnedOption& o = r.options[machine];
        const ChartSeries& buy = chart.series.front();
        QVERIFY(hasBand(buy));
        for (const auto& p : buy.points) {
            QCOMPARE(p.yRange->low, o.machineCostRange.low + p.x * o.energyCostRange.low);
            QCOMPARE(p.yRange->high, o.machineCostRange.high + p.x * o.energyCostRange.high);
        }
        int rentBands = 0;
        for (const auto& s : chart.series) {
            if (&s == &buy || !s.name.endsWith(QStringLiteral(", on-demand")))
                continue;
            QVERIFY2(hasBand(s), qPrintable(s.name));
            const ChartPoint& last = s.points.back();
            QVERIFY(last.yRange->low < last.y && last.y < last.yRange->high);
            ++rentBands;
        }
        QVERIFY(rentBands >= 1);
        QVERIFY(chart.footnote.contains(QStringLiteral("Shaded: each line's range.")));
        // The axis holds every band: none is cut at the frame.
        for (const auto& s : chart.series)
            for (const auto& p : s.points)
                if (p.yRange)
                    QVERIFY2(p.yRange->low >= chart.y.min && p.yRange->high <= chart.y.max,
                        qPrintable(s.name));
    }

    // Whiskers and bands as screen geometry: clamped to the axes, caps only at real ends.
    void rangeMarksAreClampedToThePlot()
    {
        ChartData chart;
        chart.x = { QString(), 0.0, 10.0, false, QString() };
        chart.y = { QString(), 0.0, 100.0, false, QString() };
        // Screen: x pixels = 10 * x, y pixels = 200 - 2 * y (y grows downwards).
        const ToScreen map = [](double x, double y) { return QPointF(10.0 * x, 200.0 - 2.0 * y); };
        ChartSeries scatter;
        ChartPoint p;
        p.x = 5.0;
        p.y = 50.0;
        p.yRange = ValueRange { 40.0, 130.0 }; // above the plot: clamped to 100, no cap there
        p.xRange = ValueRange { 4.0, 6.0 };
        scatter.points.push_back(p);
        const QPainterPath whiskers = whiskerPath(chart, scatter, map);
        const QRectF box = whiskers.boundingRect();
        QCOMPARE(box.top(), 0.0); // y = 100 at the plot's top
        QCOMPARE(box.bottom(), 120.0); // y = 40
        QCOMPARE(box.left(), 40.0); // x = 4
        QCOMPARE(box.right(), 60.0);
        // Two whiskers (move + line each) and three caps: y's low end, x's two ends.
        int moves = 0;
        for (int i = 0; i < whiskers.elementCount(); ++i)
            moves += whiskers.elementAt(i).isMoveTo() ? 1 : 0;
        QCOMPARE(moves, 5);

        ChartSeries line;
        line.kind = ChartSeries::Kind::Line;
        for (double x : { 0.0, 10.0 }) {
            ChartPoint q;
            q.x = x;
            q.y = 10.0 * x;
            q.yRange = ValueRange { 5.0 * x, 20.0 * x };
            line.points.push_back(q);
        }
        QVERIFY(hasBand(line));
        QVERIFY(!hasWhiskers(line));
        const QRectF band = bandPath(chart, line, map).boundingRect();
        QCOMPARE(band.top(), 0.0); // 200 at x = 10 clamped to 100
        QCOMPARE(band.bottom(), 200.0);
        line.points.back().yRange.reset(); // a line without every point's range: no band
        QVERIFY(!hasBand(line));
        QVERIFY(bandPath(chart, line, map).isEmpty());
    }

    // A run rate in words, precise enough to check the months it gives: a capped rate below
    // one run a month keeps two significant digits.
    void runRatesInWords()
    {
        QCOMPARE(runRateText(1.0), QStringLiteral("1 run a month"));
        QCOMPARE(runRateText(3.0), QStringLiteral("3 runs a month"));
        QCOMPARE(runRateText(1.5), QStringLiteral("1.50 runs a month"));
        QCOMPARE(runRateText(0.5555), QStringLiteral("0.56 runs a month"));
        QCOMPARE(runRateText(0.0128), QStringLiteral("0.013 runs a month"));
    }

    // The chart widget draws one path per series with ranges: whiskers on the Planner's GPU
    // series, bands on Buy vs rent's lines.
    void widgetDrawsWhiskersAndBands()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        ChartWidget widget;
        widget.resize(900, 600);
        const ChartData planner = hardwareCostChart(r, {});
        widget.setChartData(planner);
        const auto withWhiskers
            = std::count_if(planner.series.begin(), planner.series.end(), hasWhiskers);
        QVERIFY(withWhiskers >= 3);
        QCOMPARE(widget.rangeMarkCount(), static_cast<int>(withWhiskers));
        BuyVsRentOptions opt;
        opt.optionIndex = machineWithTwoOffers(r);
        const ChartData buy = buyVsRentChart(r, opt);
        widget.setChartData(buy);
        QCOMPARE(widget.rangeMarkCount(),
            static_cast<int>(std::count_if(buy.series.begin(), buy.series.end(), hasBand)));
        QVERIFY(widget.rangeMarkCount() >= 2);
    }

    // An assumption change gives data of the same shape: the widget moves the points of the
    // series it has (no new series, legend or axis attachments); another shape rebuilds.
    void widgetMovesPointsOfDataOfTheSameShape()
    {
        Scenario s;
        s.catalog = m_catalog;
        s.modelId = "pythia-1b";
        s.assumptions = m_catalog->defaults;
        ChartWidget widget;
        widget.resize(900, 600);
        const ChartData before = experimentCostChart(evaluate(s), {});
        widget.setChartData(before);
        QCOMPARE(widget.seriesRebuilds(), 1);
        const QStringList legend = widget.legendNames();
        s.assumptions.amortizationYears = 3.0; // every owned point moves up
        const ChartData after = experimentCostChart(evaluate(s), {});
        widget.setChartData(after);
        QCOMPARE(widget.seriesRebuilds(), 1);
        QCOMPARE(widget.legendNames(), legend);
        bool moved = false;
        for (std::size_t i = 0; i < after.series.size(); ++i) {
            const QList<QPointF> drawn = widget.drawnPoints(i);
            QCOMPARE(drawn.size(), static_cast<qsizetype>(after.series[i].points.size()));
            for (qsizetype k = 0; k < drawn.size(); ++k) {
                const ChartPoint& p = after.series[i].points[static_cast<std::size_t>(k)];
                QCOMPARE(drawn[k].y(), std::log10(p.y)); // log axes by default
                moved = moved || p.y != before.series[i].points[static_cast<std::size_t>(k)].y;
            }
        }
        QVERIFY(moved);
        QCOMPARE(widget.rangeMarkCount(),
            static_cast<int>(std::count_if(after.series.begin(), after.series.end(), hasWhiskers)));
        widget.setChartData(hardwareCostChart(evaluate(s), {})); // other series and lines
        QCOMPARE(widget.seriesRebuilds(), 2);
    }

    // The same shape reuses the label items it made: each shows its point's new text, a point
    // without a label shows none, and the items left over are gone.
    void widgetRelabelsPointsOfDataOfTheSameShape()
    {
        const ChartData before = experimentCostChart(plan(m_catalog, SourcePolicy::Best), {});
        const auto labelsOf = [](const ChartData& data) {
            QStringList texts;
            for (const auto& series : data.series)
                for (const auto& p : series.points)
                    if (!p.label.isEmpty())
                        texts << p.label;
            return texts;
        };
        ChartWidget widget;
        widget.resize(900, 600);
        widget.setChartData(before);
        QVERIFY(labelsOf(before).size() >= 3);
        QCOMPARE(widget.labelTexts(), labelsOf(before));

        ChartData after = before;
        std::vector<ChartPoint*> labelled;
        for (auto& series : after.series)
            for (auto& p : series.points)
                if (!p.label.isEmpty())
                    labelled.push_back(&p);
        labelled[0]->label = QStringLiteral("renamed");
        labelled[1]->label.clear();
        widget.setChartData(after);
        QCOMPARE(widget.seriesRebuilds(), 1);
        QCOMPARE(widget.labelTexts(), labelsOf(after));
        QCOMPARE(widget.labelTexts().size(), labelsOf(before).size() - 1);

        widget.setChartData(before);
        QCOMPARE(widget.labelTexts(), labelsOf(before));
        QCOMPARE(widget.seriesRebuilds(), 1);
    }
};

QTEST_MAIN(TestChartBuilders)
#include "tst_chart_builders.moc"

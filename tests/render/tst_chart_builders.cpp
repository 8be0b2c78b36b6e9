// Chart builders: what each chart holds, built from Results only (series, labels, flags, lines,
// padded ranges, log axes never fed a value <= 0), and the buy-vs-rent conclusion.

#include "app/render/axis_range.h"
#include "app/render/buy_vs_rent_chart.h"
#include "app/render/chart_widget.h"
#include "app/render/planner_charts.h"
#include "pricing/catalog_loader.h"
#include "pricing/measured_results.h"

#include <QtTest>

#include <set>

using namespace gpuplan;
using namespace gpuplan::render;

namespace {

Results plan(const std::shared_ptr<const Catalog>& catalog, SourcePolicy source,
    const std::string& model = "pythia-1b")
{
    Scenario s;
    s.catalog = catalog;
    s.modelId = model;
    s.source = source;
    s.assumptions = catalog->defaults;
    s.budgetUsd = 40000.0;
    return evaluate(s);
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
            if (p.label.startsWith(QStringLiteral("2")) && p.flagged) {
                found = true;
                QVERIFY2(p.tooltip.contains(QStringLiteral("physically impossible")),
                    qPrintable(p.tooltip));
            }
        QVERIFY(found);
    }

    void experimentChartShowsCloudOnDemandAndSpotApart()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        const ChartData chart = experimentCostChart(r, {});
        const ChartSeries* onDemand = findSeries(chart, QStringLiteral("Cloud, on-demand"));
        const ChartSeries* spot = findSeries(chart, QStringLiteral("Cloud, spot"));
        QVERIFY(onDemand && spot);
        QVERIFY(onDemand->marker != spot->marker);
        std::size_t withOnDemand = 0;
        std::size_t withSpot = 0;
        for (const auto& c : r.cloud) {
            withOnDemand += c.onDemandCostUsd ? 1 : 0;
            withSpot += c.spotCostUsd ? 1 : 0;
        }
        QCOMPARE(onDemand->points.size(), withOnDemand);
        QCOMPARE(spot->points.size(), withSpot);
        for (const auto& p : spot->points) {
            const auto& c = r.cloud.at(static_cast<std::size_t>(p.cloudIndex));
            QCOMPARE(p.y, *c.spotCostUsd);
            QVERIFY(p.x > c.estimate.days); // restarts make spot runs longer
            QVERIFY(p.tooltip.contains(QString::fromStdString(c.offer->source.date)));
        }
        verifyInside(chart);
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
        const CatalogLoad load = loadPlannerCatalog({}, { fixture });
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
        std::size_t chosen = r.options.size();
        for (std::size_t i = 0; i < r.options.size(); ++i)
            if (r.options[i].breakEvenRuns) {
                chosen = i;
                break;
            }
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
        QCOMPARE(chart.series.size() - 1 > 0, true);
        for (std::size_t i = 1; i < chart.series.size(); ++i)
            QCOMPARE(chart.series[i].points.front().y, 0.0); // renting starts at nothing
        QCOMPARE(chart.lines.size(), std::size_t { 1 });
        QCOMPARE(chart.lines.front().value, *o.breakEvenRuns);
        QCOMPARE(chart.y.min, 0.0);
        const QString words = buyVsRentConclusion(r, chosen);
        QVERIFY2(words.contains(QStringLiteral("pays off from run %1")
                                    .arg(static_cast<int>(std::floor(*o.breakEvenRuns)) + 1)),
            qPrintable(words));
        QVERIFY(words.contains(QStringLiteral("months")));
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
        if (!chart.lines.empty())
            QCOMPARE(chart.lines.front().value, *o.breakEvenMonths);
    }

    void buyVsRentWithoutMachineSaysSo()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        QVERIFY(buyVsRentConclusion(r, r.options.size()).contains(QStringLiteral("No machine")));
        QVERIFY(buyVsRentChart(r, { r.options.size(), {}, 0, false }).series.empty());
    }

    void widgetPlacesLabelsWithoutOverlap()
    {
        const Results r = plan(m_catalog, SourcePolicy::Best);
        ChartWidget widget;
        widget.resize(1000, 640);
        widget.setChartData(hardwareCostChart(r, {}));
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));
        QVERIFY(widget.visibleLabelCount() > static_cast<int>(r.options.size()) / 2);
        QVERIFY(widget.visibleLabelCount() <= static_cast<int>(r.options.size()));
    }
};

QTEST_MAIN(TestChartBuilders)
#include "tst_chart_builders.moc"

// Pareto frontier, budget and deadline choices, and the buy-vs-rent curve.

#include "core/costing/break_even.h"
#include "core/decisions.h"
#include "core/evaluate.h"

#include <QTest>

using namespace gpuplan;

class TestDecisions : public QObject {
    Q_OBJECT

private slots:
    void frontierKeepsOnlyUndominatedPoints()
    {
        const std::vector<TradeoffPoint> points {
            { 30, 21073 }, // 0 frontier
            { 77, 12682 }, // 1 frontier: faster than 2, cheaper than 0
            { 109, 4056 }, // 2 frontier
            { 40, 26682 }, // 3 dominated by 0
            { 9, 162673 }, // 4 frontier
            { 18, 83482 }, // 5 frontier
            { 30, 21073 }, // 6 duplicate of 0: listed once
        };
        QCOMPARE(paretoFrontier(points), (std::vector<std::size_t> { 0, 1, 2, 4, 5 }));
    }

    void fastestWithinBudget_data()
    {
        QTest::addColumn<double>("budget");
        QTest::addColumn<int>("expected"); // -1: none
        QTest::addRow("$40k picks 30 days") << 40000.0 << 0;
        QTest::addRow("$90k picks 18 days") << 90000.0 << 2;
        QTest::addRow("$1k fits nothing") << 1000.0 << -1;
        QTest::addRow("exactly the price") << 21073.0 << 0;
    }
    void fastestWithinBudget()
    {
        QFETCH(double, budget);
        QFETCH(int, expected);
        const std::vector<TradeoffPoint> points { { 30, 21073 }, { 109, 4056 }, { 18, 83482 },
            { 9, 162673 } };
        const auto pick = gpuplan::fastestWithinBudget(points, budget);
        QCOMPARE(pick ? static_cast<int>(*pick) : -1, expected);
    }

    void cheapestWithinDeadline_data()
    {
        QTest::addColumn<double>("deadline");
        QTest::addColumn<int>("expected");
        QTest::addRow("20 days") << 20.0 << 2;
        QTest::addRow("a year") << 365.0 << 1;
        QTest::addRow("a week") << 7.0 << -1;
    }
    void cheapestWithinDeadline()
    {
        QFETCH(double, deadline);
        QFETCH(int, expected);
        const std::vector<TradeoffPoint> points { { 30, 21073 }, { 109, 4056 }, { 18, 83482 },
            { 9, 162673 } };
        const auto pick = gpuplan::cheapestWithinDeadline(points, deadline);
        QCOMPARE(pick ? static_cast<int>(*pick) : -1, expected);
    }

    void bothConstraintsPickTheCheapestThatMeetsBoth()
    {
        const std::vector<TradeoffPoint> points { { 30, 21073 }, { 109, 4056 }, { 18, 83482 },
            { 9, 162673 } };
        QCOMPARE(*cheapestWithinBoth(points, 200000, 20), std::size_t { 2 });
        QVERIFY(!cheapestWithinBoth(points, 50000, 20));
    }

    // Without a recommendation, buy vs rent and the report compare the cheapest machine per
    // experiment whose time is possible: one above the GPUs' peak is cheap only because its
    // time is too short.
    void defaultMachineSkipsTimesAboveThePeak()
    {
        Results r;
        QVERIFY(!defaultMachineToCompare(r));
        r.options.resize(3);
        r.options[0].experimentCostUsd = 300.0;
        r.options[1].experimentCostUsd = 100.0;
        r.options[1].estimate.flags = { EstimateFlag::ExceedsPeak };
        r.options[2].experimentCostUsd = 200.0;
        r.options[2].estimate.flags = { EstimateFlag::Suspect };
        QCOMPARE(defaultMachineToCompare(r), std::optional<std::size_t>(2));
        r.options[0].cheapestCloudIndex = 0; // only this one can be rented too
        QCOMPARE(defaultMachineToCompare(r), std::optional<std::size_t>(0));
        r.options[0].cheapestCloudIndex.reset();
        r.options[0].estimate.flags = r.options[2].estimate.flags = r.options[1].estimate.flags;
        QCOMPARE(defaultMachineToCompare(r), std::optional<std::size_t>(1)); // all impossible
        r.recommended = 0; // the rule's pick stands
        QCOMPARE(defaultMachineToCompare(r), std::optional<std::size_t>(0));
    }

    void buyVsRentCurveCrossesAtBreakEven()
    {
        const auto curve = buyVsRentCurve(/*capexUsd=*/30000, /*energyPerRunUsd=*/500,
            /*cloudPerRunUsd=*/5500, /*maxRuns=*/10);
        QCOMPARE(curve.size(), std::size_t { 11 });
        QCOMPARE(curve[0].buyUsd, 30000.0);
        QCOMPARE(curve[0].rentUsd, 0.0);
        QCOMPARE(curve[6].buyUsd, curve[6].rentUsd); // 30000 + 6*500 = 6*5500
        QVERIFY(curve[7].buyUsd < curve[7].rentUsd);
    }
};

QTEST_GUILESS_MAIN(TestDecisions)
#include "tst_decisions.moc"

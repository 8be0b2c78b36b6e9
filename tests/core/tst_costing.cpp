// Each cost rule of core/costing/ against hand-computed values.

#include "core/costing/break_even.h"
#include "core/costing/owning.h"
#include "core/costing/plan.h"
#include "core/costing/renting.h"

#include <QTest>

using namespace gpuplan;

class TestCosting : public QObject {
    Q_OBJECT

private:
    GpuSpec a100()
    {
        GpuSpec g;
        g.id = "a100";
        g.boardPowerWatts = 400;
        g.priceUsd = 19000;
        return g;
    }
    ChassisSpec server8()
    {
        ChassisSpec c;
        c.id = "server-8gpu";
        c.gpuSlots = 8;
        c.priceUsd = 10673;
        c.basePowerWatts = 470;
        return c;
    }

private slots:
    void machineCostIsChassisPlusGpus()
    {
        const GpuSpec gpu = a100();
        const ChassisSpec chassis = server8();
        QCOMPARE(machineCostUsd({ &gpu, 8, &chassis }), 162673.0);
        QCOMPARE(machineCostUsd({ &gpu, 5, &chassis }), 10673.0 + 5 * 19000.0);
    }

    void experimentCost_data()
    {
        QTest::addColumn<double>("machine");
        QTest::addColumn<double>("days");
        QTest::addColumn<double>("years");
        QTest::addColumn<double>("utilization");
        QTest::addColumn<double>("expected");
        // The paper: machine x days / (5 x 365).
        QTest::addRow("8xA100 9 days") << 162673.0 << 9.0 << 5.0 << 1.0 << 162673.0 * 9 / 1825;
        QTest::addRow("3 years") << 162673.0 << 9.0 << 3.0 << 1.0 << 162673.0 * 9 / 1095;
        QTest::addRow("half used") << 100000.0 << 10.0 << 5.0 << 0.5 << 100000.0 * 10 / 912.5;
    }
    void experimentCost()
    {
        QFETCH(double, machine);
        QFETCH(double, days);
        QFETCH(double, years);
        QFETCH(double, utilization);
        QFETCH(double, expected);
        Assumptions a;
        a.amortizationYears = years;
        a.machineUtilization = utilization;
        QCOMPARE(experimentCostUsd(machine, days, a), expected);
    }

    void energyUsesPowerPueHoursAndPrice()
    {
        const GpuSpec gpu = a100();
        const ChassisSpec chassis = server8();
        Assumptions a;
        a.pue = 1.5;
        a.electricityUsdPerKwh = 0.10;
        const double kw = machinePowerKw({ &gpu, 8, &chassis }, a);
        QCOMPARE(kw, (8 * 400 + 470) * 1.5 / 1000);
        QCOMPARE(energyCostUsd(kw, 2.0, a), kw * 48 * 0.10);
    }

    void instancesRoundUp_data()
    {
        QTest::addColumn<int>("perInstance");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("expected");
        QTest::addRow("1-GPU instances, 8 GPUs") << 1 << 8 << 8;
        QTest::addRow("8-GPU instance, 8 GPUs") << 8 << 8 << 1;
        QTest::addRow("4-GPU instances, 6 GPUs") << 4 << 6 << 2;
    }
    void instancesRoundUp()
    {
        QFETCH(int, perInstance);
        QFETCH(int, gpus);
        QFETCH(int, expected);
        CloudOffer offer;
        offer.gpusPerInstance = perInstance;
        QCOMPARE(instancesNeeded(offer, gpus), expected);
    }

    void cloudCostAddsSpotOverheadAndIndirectRate()
    {
        Assumptions a;
        a.spotRestartOverhead = 0.1;
        a.indirectRate = 0.0;
        QCOMPARE(cloudCostUsd(2.0, 4, 10.0, Pricing::OnDemand, a), 2.0 * 240 * 4);
        QCOMPARE(cloudCostUsd(2.0, 4, 10.0, Pricing::Spot, a), 2.0 * 240 * 1.1 * 4);
        a.indirectRate = 0.55;
        QCOMPARE(cloudCostUsd(2.0, 1, 10.0, Pricing::OnDemand, a), 2.0 * 240 * 1.55);
    }

    void breakEven_data()
    {
        QTest::addColumn<double>("capex");
        QTest::addColumn<double>("cloudPerRun");
        QTest::addColumn<double>("energyPerRun");
        QTest::addColumn<double>("expected"); // < 0: never
        QTest::addRow("plain") << 30000.0 << 5000.0 << 0.0 << 6.0;
        QTest::addRow("energy narrows the saving") << 30000.0 << 5500.0 << 500.0 << 6.0;
        QTest::addRow("renting is cheaper than power") << 30000.0 << 400.0 << 500.0 << -1.0;
        QTest::addRow("equal") << 30000.0 << 500.0 << 500.0 << -1.0;
    }
    void breakEven()
    {
        QFETCH(double, capex);
        QFETCH(double, cloudPerRun);
        QFETCH(double, energyPerRun);
        QFETCH(double, expected);
        const auto runs = breakEvenRuns(capex, cloudPerRun, energyPerRun);
        if (expected < 0) {
            QVERIFY(!runs);
        } else {
            QVERIFY(runs);
            QCOMPARE(*runs, expected);
        }
    }

    void smallestChassisFits()
    {
        std::vector<ChassisSpec> all(3);
        all[0].id = "eight";
        all[0].gpuSlots = 8;
        all[1].id = "two";
        all[1].gpuSlots = 2;
        all[2].id = "four";
        all[2].gpuSlots = 4;
        QCOMPARE(smallestChassisFor(1, all)->id, std::string("two"));
        QCOMPARE(smallestChassisFor(3, all)->id, std::string("four"));
        QCOMPARE(smallestChassisFor(8, all)->id, std::string("eight"));
        QVERIFY(smallestChassisFor(9, all) == nullptr);
    }
};

QTEST_GUILESS_MAIN(TestCosting)
#include "tst_costing.moc"

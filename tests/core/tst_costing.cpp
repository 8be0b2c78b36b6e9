// Each cost rule of core/costing/ against hand-computed values.

#include "core/costing/break_even.h"
#include "core/costing/indirect.h"
#include "core/costing/owning.h"
#include "core/costing/plan.h"
#include "core/costing/renting.h"
#include "core/costing/reservation.h"

#include "tests/support/sponsor_rules.h"

#include <QTest>

using namespace gpuplan;
using test::usFederal;

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

    void systemIsPricedWhole()
    {
        GpuSpec h100;
        h100.id = "h100";
        h100.boardPowerWatts = 700;
        SystemSpec hgx;
        hgx.gpuId = "h100";
        hgx.gpuCount = 8;
        hgx.priceUsd = 255237.04;
        hgx.basePowerWatts = 4600;
        const Machine machine { &h100, 8, nullptr, &hgx };
        QCOMPARE(machineCostUsd(machine), 255237.04); // no card price added
        QCOMPARE(machineItPowerKw(machine), (8 * 700 + 4600) / 1000.0);
        const std::vector<SystemSpec> systems { hgx };
        QCOMPARE(systemFor("h100", 8, systems), &systems.front());
        QVERIFY(!systemFor("h100", 4, systems));
    }

    // Hand-computed: a $100,000 machine drawing 4 kW, hosted at $184.06/kW-month plus a $50
    // machine-room fee, 8% support a year, $9,052 of staff a year, 35% resale, over 5 years.
    void owningCostsBeyondThePrice()
    {
        Assumptions a;
        a.hostingUsdPerKwMonth = 184.06;
        a.machineRoomUsdPerMonth = 50.0;
        a.supportRate = 0.08;
        a.staffUsdPerYear = 9052.0;
        a.resaleFraction = 0.35;
        const OwningCosts c = owningCosts(100000.0, 4.0, a, cloudSpendOnlyRules());
        const double monthly = 184.06 * 4 + 50 + (8000.0 + 9052.0) / 12; // 2207.24
        QVERIFY(qFuzzyCompare(c.monthlyUsd, monthly));
        QCOMPARE(c.resaleUsd, 35000.0);
        QVERIFY(qFuzzyCompare(c.lifetimeUsd, 100000.0 - 35000.0 + 60 * monthly));
        // 10 days of a 5-year life at full use: lifetime x 10 / 1825.
        QVERIFY(
            qFuzzyCompare(experimentCostUsd(c.lifetimeUsd, 10.0, a), c.lifetimeUsd * 10 / 1825));
        // Two runs a month: each run carries half a month of owning.
        QVERIFY(qFuzzyCompare(owningCostPerRunUsd(c.monthlyUsd, 2.0), monthly / 2));
        QCOMPARE(owningCostPerRunUsd(c.monthlyUsd, 0.0), 0.0);
    }

    void owningCostsOffReproduceThePaper()
    {
        const OwningCosts c = owningCosts(162673.0, 3.67, Assumptions {}, usFederal());
        QCOMPARE(c.monthlyUsd, 0.0);
        QCOMPARE(c.resaleUsd, 0.0);
        QCOMPARE(c.lifetimeUsd, 162673.0);
        QCOMPARE(experimentCostUsd(c.lifetimeUsd, 9.0, Assumptions {}), 162673.0 * 9 / 1825);
    }

    // The sponsor's rules put each owning cost in or out of the F&A base, as the grant budget
    // does: under US federal rules at 50%, a $4,000 machine is supplies and carries F&A, a
    // $100,000 one is exempt equipment; hosting, support and staff carry it either way.
    void owningCostsCarryFandAWhereTheSponsorPutsIt()
    {
        Assumptions a;
        a.indirectRate = 0.5;
        a.hostingUsdPerKwMonth = 100.0;
        a.supportRate = 0.12;
        a.staffUsdPerYear = 1200.0;
        a.resaleFraction = 0.25;
        const OwningCosts supplies = owningCosts(4000.0, 1.0, a, usFederal());
        QCOMPARE(supplies.purchaseUsd, 6000.0);
        // (100 hosting + 40 support + 100 staff) x 1.5.
        QVERIFY(qFuzzyCompare(supplies.monthlyUsd, 360.0));
        QCOMPARE(supplies.resaleUsd, 1000.0); // recovered as sold: no F&A returned
        QCOMPARE(supplies.netPurchaseUsd(), 5000.0);
        QVERIFY(qFuzzyCompare(supplies.lifetimeUsd, 5000.0 + 60 * 360.0));
        const OwningCosts equipment = owningCosts(100000.0, 1.0, a, usFederal());
        QCOMPARE(equipment.purchaseUsd, 100000.0);
        QVERIFY(qFuzzyCompare(equipment.monthlyUsd, (100.0 + 1000.0 + 100.0) * 1.5));
        // The threshold is on the unit cost to the cent (2 CFR 200.1), not the $5,000 a budget
        // prints for $4,999.50: supplies, with F&A; at $5,000, equipment.
        QCOMPARE(owningCosts(4999.5, 0.0, a, usFederal()).purchaseUsd, 4999.5 * 1.5);
        QCOMPARE(owningCosts(5000.0, 0.0, a, usFederal()).purchaseUsd, 5000.0);
        // Rules that charge no F&A: every cost direct.
        SponsorRules none = usFederal();
        none.carriesIndirect = {};
        const OwningCosts direct = owningCosts(4000.0, 1.0, a, none);
        QCOMPARE(direct.purchaseUsd, 4000.0);
        QVERIFY(qFuzzyCompare(direct.monthlyUsd, 240.0));
        // Fringe benefits on the staff time: 32.3% of $100 a month, in the base like the salary.
        a.fringeRate = 0.323;
        const MonthlyOwningCosts monthly = monthlyOwningCosts(4000.0, 1.0, a);
        QVERIFY(qFuzzyCompare(monthly.fringeUsd, 32.3));
        QVERIFY(qFuzzyCompare(monthly.totalUsd(), 100.0 + 40.0 + 100.0 + 32.3));
        QVERIFY(qFuzzyCompare(owningCosts(4000.0, 1.0, a, usFederal()).monthlyUsd, 272.3 * 1.5));
        QVERIFY(qFuzzyCompare(owningCosts(4000.0, 1.0, a, none).monthlyUsd, 272.3));
        // Rules that list the salary but not the benefits keep the benefits out of the base.
        SponsorRules salaryOnly = usFederal();
        salaryOnly.carriesIndirect[static_cast<std::size_t>(BudgetCategory::Fringe)] = false;
        QVERIFY(
            qFuzzyCompare(owningCosts(4000.0, 1.0, a, salaryOnly).monthlyUsd, 240.0 * 1.5 + 32.3));
        // Without a sponsor: cloud spend only, every machine exempt equipment.
        QCOMPARE(owningCosts(4000.0, 1.0, a, cloudSpendOnlyRules()).purchaseUsd, 4000.0);
        QCOMPARE(indirectRateOn(BudgetCategory::ComputingServices, cloudSpendOnlyRules(), a), 0.5);
        QCOMPARE(indirectRateOn(BudgetCategory::Energy, cloudSpendOnlyRules(), a), 0.0);
    }

    // gpuplan-cli breakeven from a user's own figures: the same rules by category.
    void breakEvenWeighsFandAByCategory()
    {
        Assumptions a;
        a.indirectRate = 0.5;
        a.electricityUsdPerKwh = 0.10;
        a.pue = 1.0;
        BreakEvenInput in;
        in.hardwareCostUsd = 4000.0;
        in.cloudUsdPerHour = 1.0;
        in.hoursPerRun = 100.0;
        in.itPowerKw = 1.0;
        // Cloud-only rules: $4,000 / ($150 - $10) runs.
        const BreakEven cloudOnly = gpuplan::breakEven(in, a, cloudSpendOnlyRules());
        QCOMPARE(cloudOnly.cloudCostPerRunUsd, 150.0);
        QVERIFY(qFuzzyCompare(cloudOnly.energyCostPerRunUsd, 10.0));
        QVERIFY(qFuzzyCompare(*cloudOnly.runs, 4000.0 / 140.0));
        // US federal: the $4,000 machine is supplies ($6,000), electricity carries F&A ($15).
        const BreakEven federal = gpuplan::breakEven(in, a, usFederal());
        QVERIFY(qFuzzyCompare(federal.energyCostPerRunUsd, 15.0));
        QVERIFY(qFuzzyCompare(*federal.runs, 6000.0 / 135.0));
        QVERIFY(qFuzzyCompare(federal.experimentCostUsd, 6000.0 * (100.0 / 24) / 1825));
    }

    void planAddsOwningMonthsAndQueueDays()
    {
        Assumptions a;
        a.plannedRuns = 3;
        // Buying: $50,000 + 3 x $200 energy + 3 runs at 2 a month x $1,000 a month.
        const OwnedPlan owned = ownedPlan(50000.0, 1000.0, 400.0, 200.0, 10.0, 2.0, a);
        QCOMPARE(owned.totalUsd, 50000.0 + 600.0 + 1500.0);
        QCOMPARE(owned.amortizedUsd, 3 * (400.0 + 200.0));
        QCOMPARE(owned.calendarDays, 30.0);
        // An allocation: 30 days to apply, then each 10-day run waits 2 days in the queue.
        const RentedPlan rented = rentedPlan(0.0, 10.0, 2.0, 30.0, a);
        QCOMPARE(rented.totalUsd, 0.0);
        QCOMPARE(rented.calendarDays, 30.0 + 3 * 12.0);
    }

    // A run against the machine's life in the per-experiment formula's 365-day years: 5 years
    // is 1,825 days (break-even months, in 30.44-day months, are weighed by withinLifespan).
    void aRunCanOutlastTheMachinesLife()
    {
        Assumptions a;
        a.amortizationYears = 5.0;
        QVERIFY(!runOutlastsLife(1825.0, a));
        QVERIFY(runOutlastsLife(1826.0, a)); // more than the machine: 1826/1825 of its price
        QVERIFY(experimentCostUsd(1000.0, 1826.0, a) > 1000.0);
        a.amortizationYears = 0.5;
        QVERIFY(runOutlastsLife(370.0, a)); // the paper's 1x RTX 3090 Pythia-1B run
        QVERIFY(withinLifespan(6.0, a) && !withinLifespan(6.1, a));
    }

    void commitmentPaysItsWholeTerm()
    {
        Assumptions a;
        a.indirectRate = 0.5;
        // A 1-year reservation at $2/h for 4 instances: 8,760 h x 4 x $2 x 1.5.
        QCOMPARE(commitmentCostUsd(2.0, 4, 1.0, a, usFederal()), 8760.0 * 4 * 2.0 * 1.5);
        SponsorRules none = usFederal();
        none.carriesIndirect = {};
        QCOMPARE(commitmentCostUsd(2.0, 4, 1.0, a, none), 8760.0 * 4 * 2.0);
    }

    void instancesRoundUp_data()
    {
        QTest::addColumn<int>("perInstance");
        QTest::addColumn<int>("mostPerInstance"); // max_gpus_per_instance, 0 unset
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("instances");
        QTest::addColumn<int>("rates");
        QTest::addRow("1-GPU instances, 8 GPUs") << 1 << 0 << 8 << 8 << 8;
        QTest::addRow("8-GPU instance, 8 GPUs") << 8 << 0 << 8 << 1 << 1;
        QTest::addRow("4-GPU instances, 6 GPUs") << 4 << 0 << 6 << 2 << 2;
        // A pod of up to 8 at the per-GPU rate: one machine, each GPU billed.
        QTest::addRow("pod of up to 8, 8 GPUs") << 1 << 8 << 8 << 1 << 8;
        QTest::addRow("pod of up to 8, 3 GPUs") << 1 << 8 << 3 << 1 << 3;
        QTest::addRow("pods of up to 8, 16 GPUs") << 1 << 8 << 16 << 2 << 16;
        QTest::addRow("2-GPU rate, up to 8, 6 GPUs") << 2 << 8 << 6 << 1 << 3;
    }
    void instancesRoundUp()
    {
        QFETCH(int, perInstance);
        QFETCH(int, mostPerInstance);
        QFETCH(int, gpus);
        QFETCH(int, instances);
        QFETCH(int, rates);
        CloudOffer offer;
        offer.gpusPerInstance = perInstance;
        offer.maxGpusPerInstance = mostPerInstance;
        QCOMPARE(instancesNeeded(offer, gpus), instances);
        QCOMPARE(ratesBilled(offer, gpus), rates);
        // Every multiple of the rate's GPUs up to the most: one instance takes each.
        const std::vector<int> takes = gpuCountsInOneInstance(offer);
        QCOMPARE(takes.front(), perInstance);
        QCOMPARE(takes.back(), std::max(perInstance, mostPerInstance));
        QCOMPARE(takes.size(), std::size_t(takes.back() / perInstance));
    }

    // A provider that takes only some counts in one instance (GCP: 1, 2, 4 or 8 V100s on a
    // VM): the fewest instances that add up to the GPUs, each GPU billed.
    void instancesOfTheCountsOneTakes_data()
    {
        QTest::addColumn<int>("perInstance");
        QTest::addColumn<QList<int>>("counts");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("instances");
        QTest::addColumn<int>("rates");
        const QList<int> gcp { 1, 2, 4, 8 };
        QTest::addRow("GCP V100, 1") << 1 << gcp << 1 << 1 << 1;
        QTest::addRow("GCP V100, 2") << 1 << gcp << 2 << 1 << 2;
        QTest::addRow("GCP V100, 3: 2 + 1") << 1 << gcp << 3 << 2 << 3;
        QTest::addRow("GCP V100, 7: 4 + 2 + 1") << 1 << gcp << 7 << 3 << 7;
        QTest::addRow("GCP V100, 8") << 1 << gcp << 8 << 1 << 8;
        QTest::addRow("GCP V100, 16: 8 + 8") << 1 << gcp << 16 << 2 << 16;
        // Greedy would take 4 + 1 + 1; the fewest are 3 + 3.
        QTest::addRow("1, 3 or 4; 6: 3 + 3") << 1 << QList<int> { 1, 3, 4 } << 6 << 2 << 6;
        QTest::addRow("pairs of 2 or 6; 8: 6 + 2") << 2 << QList<int> { 2, 6 } << 8 << 2 << 4;
    }
    void instancesOfTheCountsOneTakes()
    {
        QFETCH(int, perInstance);
        QFETCH(QList<int>, counts);
        QFETCH(int, gpus);
        QFETCH(int, instances);
        QFETCH(int, rates);
        CloudOffer offer;
        offer.gpusPerInstance = perInstance;
        offer.instanceGpuCounts.assign(counts.begin(), counts.end());
        QCOMPARE(instancesNeeded(offer, gpus), instances);
        QCOMPARE(ratesBilled(offer, gpus), rates);
        QCOMPARE(mostGpusInOneInstance(offer), counts.back());
        QCOMPARE(gpuCountsInOneInstance(offer), std::vector<int>(counts.begin(), counts.end()));
    }

    void cloudCostAddsSpotOverheadAndIndirectRate()
    {
        Assumptions a;
        a.spotRestartOverhead = 0.1;
        a.indirectRate = 0.0;
        const SponsorRules rules = cloudSpendOnlyRules();
        QCOMPARE(cloudCostUsd(2.0, 4, 10.0, Pricing::OnDemand, a, rules), 2.0 * 240 * 4);
        QCOMPARE(cloudCostUsd(2.0, 4, 10.0, Pricing::Spot, a, rules), 2.0 * 240 * 1.1 * 4);
        a.indirectRate = 0.55;
        QCOMPARE(cloudCostUsd(2.0, 1, 10.0, Pricing::OnDemand, a, rules), 2.0 * 240 * 1.55);
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

    // A value the user chose is not credited to the source that states another: a proposal would
    // cite the PI's $0.08/kWh as the EIA's average (review).
    void chosenValuesCiteTheirOwnSource()
    {
        Assumptions a;
        a.electricityUsdPerKwh = 0.13;
        a.source(AssumptionId::ElectricityUsdPerKwh).date = "2024";
        a.source(AssumptionId::ElectricityUsdPerKwh).source = "EIA Electric Power Monthly";
        a.hostingUsdPerKwMonth = 0.0;
        // The same value: still the table's.
        chooseAssumptionValue(a, AssumptionId::ElectricityUsdPerKwh, 0.13);
        QCOMPARE(a.source(AssumptionId::ElectricityUsdPerKwh).source,
            std::string("EIA Electric Power Monthly"));
        // Equal within a percent field's rounding (13 / 100): still the table's.
        chooseAssumptionValue(a, AssumptionId::ElectricityUsdPerKwh, 13.0 / 100.0);
        QCOMPARE(a.source(AssumptionId::ElectricityUsdPerKwh).date, std::string("2024"));
        chooseAssumptionValue(a, AssumptionId::ElectricityUsdPerKwh, 0.08);
        QCOMPARE(a.electricityUsdPerKwh, 0.08);
        QCOMPARE(a.source(AssumptionId::ElectricityUsdPerKwh).source, std::string(kUserSupplied));
        QVERIFY(a.source(AssumptionId::ElectricityUsdPerKwh).date.empty());
        // The value the table suggests for an owning cost carries the table's source for it.
        const AssumptionSpec& hosting = assumptionSpec(AssumptionId::HostingUsdPerKwMonth);
        QVERIFY(hosting.suggested);
        chooseAssumptionValue(a, AssumptionId::HostingUsdPerKwMonth, *hosting.suggested);
        QCOMPARE(a.source(AssumptionId::HostingUsdPerKwMonth).source,
            std::string(hosting.suggestedSource));
        chooseAssumptionValue(a, AssumptionId::HostingUsdPerKwMonth, 100.0);
        QCOMPARE(a.source(AssumptionId::HostingUsdPerKwMonth).source, std::string(kUserSupplied));
        // Whole numbers compare after rounding: 2.4 runs is the 2 already set.
        a.plannedRuns = 2;
        chooseAssumptionValue(a, AssumptionId::PlannedRuns, 2.4);
        QVERIFY(a.source(AssumptionId::PlannedRuns).source.empty());
        // Typed back to the price tables' value (the Assumptions dock): the tables' source, not
        // the user's; another value stays the user's.
        Assumptions tables;
        tables.electricityUsdPerKwh = 0.13;
        tables.source(AssumptionId::ElectricityUsdPerKwh).source = "EIA Electric Power Monthly";
        chooseAssumptionValue(a, AssumptionId::ElectricityUsdPerKwh, 0.13, &tables);
        QCOMPARE(a.source(AssumptionId::ElectricityUsdPerKwh).source,
            std::string("EIA Electric Power Monthly"));
        chooseAssumptionValue(a, AssumptionId::ElectricityUsdPerKwh, 0.09, &tables);
        QCOMPARE(a.source(AssumptionId::ElectricityUsdPerKwh).source, std::string(kUserSupplied));
    }

    void reservationTermsHoldTheRunsThatComeBeforeTheyEnd()
    {
        // 40.6 runs fit a year back to back; at 1 run a month, 12 come within it.
        QCOMPARE(runsPerReservationTerm(40.6, 1.0, 1.0), 12.0);
        QCOMPARE(runsPerReservationTerm(40.6, 1.0, 5.0), 40.6);
        QCOMPARE(runsPerReservationTerm(40.6, 1.0, 0.0), 40.6); // no rate: back to back
        QCOMPARE(reservationTerms(1, 12.0), 1);
        QCOMPARE(reservationTerms(12, 12.0), 1);
        QCOMPARE(reservationTerms(13, 12.0), 2);
        QCOMPARE(reservationTerms(0, 12.0), 1); // bought whole
        QCOMPARE(reservationTerms(36, 12.0 * (1.0 + 1e-12)), 3); // rounding is not a term
        QCOMPARE(reservationTerms(5, 0.0), 0); // a term that holds no run
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

    // The rated draw (cards' board power + the base) against the supplies the build lists:
    // 2 x 575 W + 225 W = 1,375 W falls short of a 1,000 W desktop supply and fits a 1,600 W
    // one; 4 x 575 W + 440 W = 2,740 W needs both of a server's 2 x 2,200 W; 4 x 350 W + 440 W
    // = 1,840 W leaves one to spare; 4 x 1,200 W passes 4,400 W.
    void powerSuppliesAreHeldAgainstTheRatedDraw()
    {
        ChassisSpec desktop;
        desktop.basePowerWatts = 225.0;
        QCOMPARE(desktop.powerSupplyFit(2, 575.0), PowerSupplyFit::NotChecked); // not listed
        desktop.powerSupplies = { 1, 1000.0, {} };
        QCOMPARE(desktop.ratedDrawWatts(2, 575.0), 1375.0);
        QCOMPARE(desktop.powerSupplyFit(2, 575.0), PowerSupplyFit::Short);
        desktop.powerSupplies.wattsEach = 1600.0;
        QCOMPARE(desktop.powerSupplyFit(2, 575.0), PowerSupplyFit::Fits); // one: none to spare
        ChassisSpec server;
        server.basePowerWatts = 440.0;
        server.powerSupplies = { 2, 2200.0, {} };
        QCOMPARE(server.powerSupplyFit(4, 575.0), PowerSupplyFit::NoSpare);
        QCOMPARE(server.powerSupplyFit(4, 350.0), PowerSupplyFit::Fits);
        QCOMPARE(server.powerSupplyFit(4, 1200.0), PowerSupplyFit::Short);
        // At the edges: a draw equal to one supply still spares the other, one equal to both
        // still fits them.
        QCOMPARE(server.powerSupplyFit(4, (2200.0 - 440.0) / 4), PowerSupplyFit::Fits);
        QCOMPARE(server.powerSupplyFit(4, (4400.0 - 440.0) / 4), PowerSupplyFit::NoSpare);
        server.powerSupplies = {};
        QCOMPARE(server.powerSupplyFit(4, 1200.0), PowerSupplyFit::NotChecked);
    }
};

QTEST_GUILESS_MAIN(TestCosting)
#include "tst_costing.moc"

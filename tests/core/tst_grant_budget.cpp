// A grant budget by year (core/costing/grant_budget.h) against hand-computed figures: equipment
// in its year and exempt from F&A, runs spread 3/4/3, F&A on cloud and energy only, owning costs
// from the year of purchase, and the plans that cannot be budgeted.

#include "core/costing/grant_budget.h"
#include "core/costing/reserved_years.h"

#include "tests/support/sponsor_rules.h"

#include <QTest>

#include <cmath>
#include <numeric>

using namespace gpuplan;

namespace {

// One card GPU ($10,000, 700 W) in a one-slot chassis ($5,000, 300 W): a $15,000, 1 kW machine.
// The model takes 1e21 FLOPs at 40% of 1,000 TFLOP/s: 1e21 / 4e14 s = 28.935 days a run.
std::shared_ptr<Catalog> catalog()
{
    auto c = std::make_shared<Catalog>();
    GpuSpec card;
    card.id = "card";
    card.name = "Card";
    card.boardPowerWatts = 700;
    card.peakTflops[Precision::BF16] = 1000;
    card.priceUsd = 10000;
    c->gpus = { card };
    ChassisSpec box;
    box.id = "box";
    box.gpuSlots = 1;
    box.priceUsd = 5000;
    box.basePowerWatts = 300;
    c->chassis = { box };
    CloudOffer cloud;
    cloud.id = "cloud";
    cloud.provider = "Cloud";
    cloud.gpuId = "card";
    cloud.onDemandUsdPerHour = 2.0;
    CloudOffer reserved = cloud;
    reserved.id = "reserved";
    reserved.onDemandUsdPerHour.reset();
    reserved.reserved = { { 1.0, 1.0 } };
    c->cloudOffers = { cloud, reserved };
    Workload w;
    w.id = "model";
    w.name = "Model";
    w.trainingFlops = 1e21;
    w.precision = Precision::BF16;
    c->workloads = { w };
    return c;
}

// Results point into their catalog: one catalog outlives every test.
std::shared_ptr<const Catalog> sharedCatalog()
{
    static const std::shared_ptr<const Catalog> shared = catalog();
    return shared;
}

// The test model on one GPU of the test catalog, estimated analytically.
Scenario oneGpu(std::shared_ptr<const Catalog> catalog = sharedCatalog())
{
    Scenario s;
    s.catalog = std::move(catalog);
    s.modelId = "model";
    s.source = SourcePolicy::Analytic;
    s.gpuCounts = { 1 };
    return s;
}

Results results(double indirectRate = 0.5)
{
    Scenario s = oneGpu();
    s.assumptions.electricityUsdPerKwh = 0.10;
    s.assumptions.pue = 1.0;
    s.assumptions.indirectRate = indirectRate;
    s.assumptions.plannedRuns = 10;
    return evaluate(s);
}

using test::usFederal;

const BudgetLine* line(const GrantBudget& b, BudgetCategory c)
{
    for (const auto& l : b.lines)
        if (l.category == c)
            return &l;
    return nullptr;
}

constexpr double kDays = 1e21 / 4e14 / 86400.0; // 28.935 days
constexpr double kEnergyPerRun = 1.0 * kDays * 24.0 * 0.10; // 1 kW: $69.44
constexpr double kCloudPerRun = 2.0 * kDays * 24.0; // $1,388.89 before F&A

std::size_t cloudIndex(const Results& r, const std::string& id)
{
    for (std::size_t i = 0; i < r.cloud.size(); ++i)
        if (r.cloud[i].offer->id == id)
            return i;
    return r.cloud.size();
}

} // namespace

class TestGrantBudget : public QObject {
    Q_OBJECT

private slots:
    // The planner weighs F&A by the scenario's sponsor, as the budget does: a machine below the
    // threshold carries it in the planner's capex exactly as in the budget's supplies line, and
    // the planner's break-even is the budget's first cheaper run.
    void planAndBudgetWeighFandAAlike()
    {
        auto withSponsors = catalog();
        SponsorRules highThreshold = usFederal();
        highThreshold.id = "threshold-20k";
        highThreshold.equipmentThresholdUsd = 20000;
        withSponsors->sponsors = { usFederal(), highThreshold };
        std::shared_ptr<const Catalog> shared = withSponsors;
        Scenario s = oneGpu(shared);
        s.assumptions.electricityUsdPerKwh = 0.10;
        s.assumptions.pue = 1.0;
        s.assumptions.indirectRate = 0.5;
        s.sponsorId = "us-federal";
        const Results federal = evaluate(s);
        QCOMPARE(federal.indirectRules.id, std::string("us-federal"));
        const OwnedOption& equipment = federal.options.at(0);
        QCOMPARE(equipment.netCapexUsd, 15000.0); // equipment: exempt
        QVERIFY(qFuzzyCompare(equipment.energyCostUsd, kEnergyPerRun * 1.5));
        QVERIFY(qFuzzyCompare(*federal.cloud.at(0).onDemandCostUsd, kCloudPerRun * 1.5));
        // 15,000 / (1.5 x (1,388.89 - 69.44)) = 7.58: run 8, in the budget too.
        QVERIFY(qFuzzyCompare(
            *equipment.breakEvenRuns, 15000.0 / (1.5 * (kCloudPerRun - kEnergyPerRun))));
        GrantPlan plan;
        plan.runsPerYear = { 10, 10, 10 };
        QCOMPARE(
            budgetBreakEvenRun(federal, 0, { BudgetTarget::Kind::Rented, 0 }, plan, usFederal()),
            std::optional<int>(8));
        // The budget's electricity line stays direct: F&A is its own row.
        QCOMPARE(line(grantBudget(federal, { BudgetTarget::Kind::Owned, 0 }, plan, usFederal()),
                     BudgetCategory::Energy)
                     ->usdByYear[0],
            std::round(10 * kEnergyPerRun));

        s.sponsorId = "threshold-20k";
        const Results supplies = evaluate(s);
        const OwnedOption& o = supplies.options.at(0);
        QCOMPARE(o.netCapexUsd, 22500.0);
        // One run in year 1: the budget's total is the planner's capex + one run's electricity.
        plan.runsPerYear = { 1, 0, 0 };
        const GrantBudget b
            = grantBudget(supplies, { BudgetTarget::Kind::Owned, 0 }, plan, highThreshold);
        QVERIFY2(std::abs(b.totalUsd - (o.netCapexUsd + o.energyCostUsd)) <= 1.0,
            qPrintable(QString::number(b.totalUsd)));
        // A price range across the threshold keeps the stated price's category, as the budget
        // books it: a cheaper machine never costs more, and every range holds its centre
        // ($15,000 +-20%: supplies under a $16,000 threshold, equipment under $14,000).
        for (const double threshold : { 16000.0, 14000.0 }) {
            SponsorRules near = usFederal();
            near.id = "near";
            near.equipmentThresholdUsd = threshold;
            auto nearCatalog = catalog();
            nearCatalog->sponsors = { near };
            Scenario n = oneGpu(nearCatalog);
            n.assumptions = s.assumptions;
            n.sponsorId = "near";
            const Results ranged = evaluate(n);
            const OwnedOption& m = ranged.options.at(0);
            QCOMPARE(m.netCapexUsd, threshold > 15000.0 ? 22500.0 : 15000.0);
            QVERIFY(m.machineCostRange.low < threshold && m.machineCostRange.high > threshold);
            for (const auto& [point, range] : { std::pair { m.netCapexUsd, m.netCapexRange },
                     std::pair { m.experimentCostUsd, m.experimentCostRange },
                     std::pair { m.planTotalUsd, m.planTotalRange } })
                QVERIFY2(range.low <= point && point <= range.high,
                    qPrintable(
                        QStringLiteral("%1 in %2-%3").arg(point).arg(range.low).arg(range.high)));
            QVERIFY(*m.breakEvenRunsRange.low <= *m.breakEvenRuns
                && *m.breakEvenRuns <= *m.breakEvenRunsRange.high);
        }

        // An unknown sponsor is said, and F&A falls on cloud spend only.
        s.sponsorId = "nsf-2031";
        const Results unknown = evaluate(s);
        QCOMPARE(unknown.indirectRules.id, cloudSpendOnlyRules().id);
        QCOMPARE(unknown.warnings.size(), std::size_t(1));
        QCOMPARE(unknown.warnings[0].kind, Warning::Kind::UnknownSponsor);
        QCOMPARE(unknown.warnings[0].subject, std::string("nsf-2031"));
        QCOMPARE(unknown.options.at(0).energyCostUsd, kEnergyPerRun);
    }

    void spreadsRunsEvenlyRemainderFirst()
    {
        QCOMPARE(spreadRuns(10, 3), (std::vector<int> { 4, 3, 3 }));
        QCOMPARE(spreadRuns(2, 3), (std::vector<int> { 1, 1, 0 }));
        QCOMPARE(spreadRuns(6, 3), (std::vector<int> { 2, 2, 2 }));
        QCOMPARE(spreadRuns(0, 2), (std::vector<int> { 0, 0 }));
    }

    void buyingPutsEquipmentInItsYearExemptFromIndirect()
    {
        const Results r = results();
        QCOMPARE(r.options.size(), std::size_t(1));
        QVERIFY(qAbs(r.options[0].estimate.days - kDays) < 1e-9);
        GrantPlan plan;
        plan.runsPerYear = { 3, 4, 3 };
        const BudgetTarget target { BudgetTarget::Kind::Owned, 0 };
        QCOMPARE(checkGrantPlan(plan, r, target), GrantPlanProblem::None);
        const GrantBudget b = grantBudget(r, target, plan, usFederal());
        QCOMPARE(b.lines.size(), std::size_t(2)); // equipment, electricity: owning costs are off
        const BudgetLine* equipment = line(b, BudgetCategory::Equipment);
        QVERIFY(equipment);
        QCOMPARE(equipment->usdByYear, (std::vector<double> { 15000.0, 0.0, 0.0 }));
        QVERIFY(!equipment->carriesIndirect);
        const BudgetLine* energy = line(b, BudgetCategory::Energy);
        QVERIFY(energy);
        QVERIFY(energy->carriesIndirect);
        // Whole dollars, each cell rounded ($208.33, $277.78, $208.33) and the total theirs.
        QCOMPARE(energy->usdByYear, (std::vector<double> { 208.0, 278.0, 208.0 }));
        QCOMPARE(energy->totalUsd, 694.0);
        // F&A at 50% on electricity only, on the rounded cells: $104, $139, $104. The base is
        // those cells; the equipment is not in it.
        QCOMPARE(b.indirectBaseByYear, (std::vector<double> { 208.0, 278.0, 208.0 }));
        QCOMPARE(b.indirectBaseUsd, 694.0);
        QCOMPARE(b.indirectByYear, (std::vector<double> { 104.0, 139.0, 104.0 }));
        QCOMPARE(b.indirectUsd, 347.0);
        QCOMPARE(b.totalByYear, (std::vector<double> { 15312.0, 417.0, 312.0 }));
        QCOMPARE(b.totalUsd, 16041.0); // $16,041.67 unrounded
        QVERIFY(b.overfullYears.empty()); // 4 runs of 28.9 days fit into a year
    }

    void belowTheThresholdAMachineIsSupplies()
    {
        // On the acquisition cost itself: $4,999.60 prints $5,000 but is below the threshold.
        QVERIFY(!budgetedAsEquipment(4999.6, usFederal()));
        QVERIFY(!budgetedAsEquipment(4999.99, usFederal()));
        QVERIFY(budgetedAsEquipment(5000.0, usFederal()));
        const Results r = results();
        SponsorRules sponsor = usFederal();
        sponsor.equipmentThresholdUsd = 20000;
        const GrantBudget b
            = grantBudget(r, { BudgetTarget::Kind::Owned, 0 }, GrantPlan {}, sponsor);
        QVERIFY(!line(b, BudgetCategory::Equipment));
        const BudgetLine* supplies = line(b, BudgetCategory::Supplies);
        QVERIFY(supplies && supplies->carriesIndirect);
        // 10 runs spread 4/3/3; supplies carry F&A: 1.5 x (15,000 + 4 runs' electricity, $278).
        QCOMPARE(b.totalByYear[0], 1.5 * (15000.0 + 278.0));
    }

    void rentingIsCloudSpendWithIndirectOnTop()
    {
        const Results r = results();
        const std::size_t i = cloudIndex(r, "cloud");
        QVERIFY(i < r.cloud.size());
        GrantPlan plan;
        plan.runsPerYear = { 3, 4, 3 };
        const GrantBudget b = grantBudget(r, { BudgetTarget::Kind::Rented, i }, plan, usFederal());
        QCOMPARE(b.pricing, Pricing::OnDemand);
        QVERIFY(qAbs(b.spendPerRunUsd - kCloudPerRun) < 1e-6);
        const BudgetLine* cloud = line(b, BudgetCategory::ComputingServices);
        QVERIFY(cloud && cloud->carriesIndirect);
        QCOMPARE(cloud->usdByYear, (std::vector<double> { 4167.0, 5556.0, 4167.0 }));
        QCOMPARE(b.indirectByYear, (std::vector<double> { 2084.0, 2778.0, 2084.0 }));
        // The planner's cost per run (F&A included) times the runs, to within the rounding of
        // its six cells: $20,833.33.
        QCOMPARE(b.totalUsd, 20836.0);
        QVERIFY(qAbs(b.totalUsd - 10 * *r.cloud[i].cheapestCostUsd) < 6 * 0.5);
    }

    void noIndirectSponsorAddsNothing()
    {
        const Results r = results();
        SponsorRules none;
        none.id = "no-indirect";
        const GrantBudget b
            = grantBudget(r, { BudgetTarget::Kind::Rented, cloudIndex(r, "cloud") }, {}, none);
        QCOMPARE(b.indirectUsd, 0.0);
        QCOMPARE(b.totalUsd, 5556.0 + 4167.0 + 4167.0); // 10 x $1,388.89 in 4/3/3
    }

    // The run from which buying costs no more than renting, both under the sponsor's rules:
    // US federal puts 50% on energy and cloud, not on equipment: $15,000 / ($2,083.33 -
    // $104.17) = 7.58, run 8; without indirect costs, $15,000 / ($1,388.89 - $69.44) = 11.37,
    // past a 10-run plan, and run 12 of a 15-run one.
    void budgetBreakEvenRunUsesTheSponsorsRules()
    {
        const Results r = results();
        QCOMPARE(r.options.size(), std::size_t { 1 });
        const BudgetTarget cloud { BudgetTarget::Kind::Rented, cloudIndex(r, "cloud") };
        GrantPlan plan;
        plan.runsPerYear = { 3, 4, 3 };
        QCOMPARE(budgetBreakEvenRun(r, 0, cloud, plan, usFederal()), std::optional<int>(8));
        SponsorRules none;
        none.id = "no-indirect";
        QCOMPARE(budgetBreakEvenRun(r, 0, cloud, plan, none), std::nullopt);
        plan.runsPerYear = { 5, 5, 5 };
        QCOMPARE(budgetBreakEvenRun(r, 0, cloud, plan, none), std::optional<int>(12));
        plan.runsPerYear = { 0, 0, 0 };
        QCOMPARE(budgetBreakEvenRun(r, 0, cloud, plan, none), std::nullopt);
    }

    // A 3-year reservation at $1/h ($26,280, $39,420 with F&A) is the cheapest way to rent 36
    // runs, and costs its whole term for the first run too: against it fixed, buying the
    // $15,000 machine pays off from run 1. Against the cheapest way to rent as many runs
    // (on demand, $2,083.33 a run with F&A, up to 18 runs), from run 8, as for on demand
    // alone (budgetBreakEvenRunUsesTheSponsorsRules); the justification had said run 1 (review).
    void aBreakEvenRunIsAgainstTheCheapestWayToRentAsManyRuns()
    {
        auto c = catalog();
        for (auto& offer : c->cloudOffers)
            if (offer.id == "reserved")
                offer.reserved = { { 3.0, 1.0 } };
        Scenario s = oneGpu(c);
        s.assumptions.electricityUsdPerKwh = 0.10;
        s.assumptions.pue = 1.0;
        s.assumptions.indirectRate = 0.5;
        const Results r = evaluate(s);
        GrantPlan plan;
        plan.runsPerYear = { 12, 12, 12 };
        const auto forThePlan = cheapestRentalBudget(r, 0, plan, usFederal());
        QVERIFY(forThePlan);
        QCOMPARE(forThePlan->index, cloudIndex(r, "reserved"));
        QCOMPARE(budgetBreakEvenRun(r, 0, *forThePlan, plan, usFederal()), std::optional<int>(1));
        QCOMPARE(budgetBreakEvenRunAgainstCheapest(r, 0, plan, usFederal()), std::optional<int>(8));
        // The first 8 runs: all in year 1.
        QCOMPARE(firstRunsOf(plan, 8, r.assumptions).runsPerYear, (std::vector<int> { 8, 0, 0 }));
        QCOMPARE(firstRunsOf(plan, 20, r.assumptions).runsPerYear, (std::vector<int> { 12, 8, 0 }));
        // Nothing to rent: no break-even.
        auto none = catalog();
        none->cloudOffers.clear();
        Scenario alone = oneGpu(none);
        const Results unrented = evaluate(alone);
        QCOMPARE(budgetBreakEvenRunAgainstCheapest(unrented, 0, plan, usFederal()), std::nullopt);
    }

    void aReservationIsBudgetedAYearPerYearWithRuns()
    {
        const Results r = results(0.0);
        const std::size_t i = cloudIndex(r, "reserved");
        QVERIFY(i < r.cloud.size());
        GrantPlan plan;
        plan.runsPerYear = { 3, 0, 3 };
        const GrantBudget b = grantBudget(r, { BudgetTarget::Kind::Rented, i }, plan, usFederal());
        QCOMPARE(b.pricing, Pricing::Reserved);
        QCOMPARE(b.totalByYear, (std::vector<double> { 8760.0, 0.0, 8760.0 })); // $1/h all year
        QCOMPARE(b.reservedTermYears, 1.0);
        QCOMPARE(b.reservedAfterGrantUsd, 0.0);
        QCOMPARE(b.reservationsNeededPerYear, (std::vector<int> { 1, 0, 1 }));
        QCOMPARE(b.reservationsPaidPerYear, (std::vector<int> { 1, 0, 1 }));
        QCOMPARE(b.reservationTermYears, (std::vector<double> { 1.0 })); // one, bought twice
    }

    // A longer term is paid for every year it spans, runs or not, from the first year with
    // runs; what it spans past the grant is reported apart, not dropped.
    void aReservationIsBudgetedForEveryYearOfItsTerm_data()
    {
        QTest::addColumn<double>("term");
        QTest::addColumn<std::vector<int>>("runsPerYear");
        QTest::addColumn<std::vector<double>>("byYear");
        QTest::addColumn<double>("afterGrant");
        // $1/h: 8,760 a year.
        QTest::addRow("3-yr term, runs in years 1 and 3")
            << 3.0 << std::vector<int> { 1, 0, 1 } << std::vector<double> { 8760, 8760, 8760 }
            << 0.0;
        QTest::addRow("5-yr term in a 3-year grant")
            << 5.0 << std::vector<int> { 1, 0, 1 } << std::vector<double> { 8760, 8760, 8760 }
            << 2 * 8760.0;
        QTest::addRow("3-yr term from year 2") << 3.0 << std::vector<int> { 0, 2, 0 }
                                               << std::vector<double> { 0, 8760, 8760 } << 8760.0;
        // Year 2's run (29 days from its start) falls within the first term, which ends
        // halfway through year 2: no second term.
        QTest::addRow("1.5-yr terms, runs in years 1 and 2")
            << 1.5 << std::vector<int> { 1, 1, 0 } << std::vector<double> { 8760, 4380, 0 } << 0.0;
        // 12 runs in year 2 (347 days from its start) outlast the first term: a second starts
        // where it ends.
        QTest::addRow("1.5-yr terms, 12 runs in year 2")
            << 1.5 << std::vector<int> { 1, 12, 0 } << std::vector<double> { 8760, 8760, 8760 }
            << 0.0;
        // Terms shorter than a year: as many as the year's runs need back to back (5 runs,
        // 145 days: two quarters).
        QTest::addRow("quarter-year terms, 5 runs in year 1")
            << 0.25 << std::vector<int> { 5, 0, 0 } << std::vector<double> { 4380, 0, 0 } << 0.0;
        QTest::addRow("1.5-yr terms, runs in years 1 and 3")
            << 1.5 << std::vector<int> { 1, 0, 1 } << std::vector<double> { 8760, 4380, 8760 }
            << 4380.0;
        QTest::addRow("2-yr term, runs every year of four")
            << 2.0 << std::vector<int> { 1, 1, 1, 1 }
            << std::vector<double> { 8760, 8760, 8760, 8760 } << 0.0;
        // Runs of 28.9 days: 12 fit into a year back to back (347 days), 13 (376 days) need a
        // second reservation held beside the first, for as long as a term of it lasts.
        QTest::addRow("1-yr terms, 12 runs in year 1")
            << 1.0 << std::vector<int> { 12, 0, 3 } << std::vector<double> { 8760, 0, 8760 } << 0.0;
        QTest::addRow("1-yr terms, 13 runs in year 1")
            << 1.0 << std::vector<int> { 13, 0, 3 } << std::vector<double> { 17520, 0, 8760 }
            << 0.0;
        QTest::addRow("3-yr terms, 13 runs in year 1")
            << 3.0 << std::vector<int> { 13, 0, 3 } << std::vector<double> { 17520, 17520, 17520 }
            << 0.0;
        QTest::addRow("3-yr terms, 26 runs in year 3")
            << 3.0 << std::vector<int> { 1, 0, 26 } << std::vector<double> { 8760, 8760, 26280 }
            << 2 * 2 * 8760.0;
    }

    void aReservationIsBudgetedForEveryYearOfItsTerm()
    {
        QFETCH(double, term);
        QFETCH(std::vector<int>, runsPerYear);
        QFETCH(std::vector<double>, byYear);
        QFETCH(double, afterGrant);
        auto c = catalog();
        for (auto& offer : c->cloudOffers)
            if (offer.id == "reserved")
                offer.reserved = { { term, 1.0 } };
        Scenario s = oneGpu(c);
        s.assumptions.indirectRate = 0.0;
        const Results r = evaluate(s);
        const std::size_t i = cloudIndex(r, "reserved");
        QVERIFY(i < r.cloud.size());
        GrantPlan plan;
        plan.years = static_cast<int>(runsPerYear.size());
        plan.runsPerYear = runsPerYear;
        const GrantBudget b = grantBudget(r, { BudgetTarget::Kind::Rented, i }, plan, usFederal());
        QCOMPARE(b.pricing, Pricing::Reserved);
        QCOMPARE(b.reservedTermYears, term);
        QCOMPARE(b.totalByYear.size(), byYear.size());
        for (std::size_t y = 0; y < byYear.size(); ++y)
            QVERIFY2(qAbs(b.totalByYear[y] - byYear[y]) < 1e-6,
                qPrintable(QStringLiteral("year %1: %2").arg(y + 1).arg(b.totalByYear[y])));
        QVERIFY2(qAbs(b.reservedAfterGrantUsd - afterGrant) < 1e-6,
            qPrintable(QString::number(b.reservedAfterGrantUsd)));
    }

    // Of several terms the budget takes the one that costs it least over its own runs by year,
    // not the planner's choice at its run rate (review: three 1-year terms at $2/h, $52,560,
    // where one 3-year term at $1/h costs $26,280).
    void theBudgetTakesItsCheapestTerm()
    {
        auto c = catalog();
        for (auto& offer : c->cloudOffers)
            if (offer.id == "reserved")
                offer.reserved = { { 1.0, 2.0 }, { 3.0, 1.0 } };
        Scenario s = oneGpu(c);
        s.assumptions.indirectRate = 0.0;
        s.assumptions.plannedRuns = 1; // the planner's choice: one 1-year term ($17,520)
        const Results r = evaluate(s);
        const std::size_t i = cloudIndex(r, "reserved");
        QVERIFY(i < r.cloud.size());
        QCOMPARE(*r.cloud[i].cheapestReservedYears, 1.0);
        GrantPlan plan;
        plan.runsPerYear = { 1, 1, 1 };
        const GrantBudget spread
            = grantBudget(r, { BudgetTarget::Kind::Rented, i }, plan, usFederal());
        QCOMPARE(spread.reservedTermYears, 3.0);
        QCOMPARE(spread.totalByYear, (std::vector<double> { 8760.0, 8760.0, 8760.0 }));
        QCOMPARE(spread.usdPerGpuHour, 1.0);
        // Runs in the first year only: one 1-year term at $2/h beats three years at $1/h.
        plan.runsPerYear = { 3, 0, 0 };
        const GrantBudget first
            = grantBudget(r, { BudgetTarget::Kind::Rented, i }, plan, usFederal());
        QCOMPARE(first.reservedTermYears, 1.0);
        QCOMPARE(first.totalByYear, (std::vector<double> { 17520.0, 0.0, 0.0 }));
        // Each reservation held takes its own cheapest term (review: one term for all overpaid).
        // 13, 12, 1 runs of 29 days: one reservation runs 12 a year for three years, 3-year at
        // $1/h ($8,760 a year); the second holds year 1's 13th run alone, 1-year at $2/h.
        plan.runsPerYear = { 13, 12, 1 };
        const GrantBudget mixed
            = grantBudget(r, { BudgetTarget::Kind::Rented, i }, plan, usFederal());
        QCOMPARE(mixed.reservationTermYears, (std::vector<double> { 3.0, 1.0 }));
        // The cost per run is quoted at the term most of the money goes to: 3-year, $1/h
        // ($26,280 against $17,520 on the 1-year term).
        QCOMPARE(mixed.reservedTermYears, 3.0);
        QCOMPARE(mixed.usdPerGpuHour, 1.0);
        QVERIFY(mixed.mixesReservationTerms());
        QVERIFY(mixed.holdsReservationsSideBySide());
        QCOMPARE(mixed.totalByYear, (std::vector<double> { 26280.0, 8760.0, 8760.0 }));
        QCOMPARE(mixed.reservationsNeededPerYear, (std::vector<int> { 2, 1, 1 }));
        QCOMPARE(mixed.reservationsPaidPerYear, (std::vector<int> { 2, 1, 1 }));
    }

    // The needs behind a reservation budget: a year's runs grouped as many as fit into a year
    // back to back, each run alone where one is longer than a year; a run longer than a year
    // holds its reservation into the next, beside that year's own.
    void reservationsFollowTheRunsBackToBack()
    {
        const auto needs = reservationNeeds({ 3, 0, 1 }, 146.0); // 0.4 years a run: 2 a year
        QCOMPARE(needs.size(), std::size_t(3));
        QCOMPARE(needs[0].from, 0.0);
        QCOMPARE(needs[0].to, 0.8);
        QCOMPARE(needs[1].to, 0.4);
        QCOMPARE(needs[2].from, 2.0);
        const std::vector<ReservationTerm> yearly { { 1.0, 1.0, 8760.0 } };
        // One run of 394 days: one reservation for two years, not two side by side.
        const ReservedYears longRun = reservedYears({ 1, 0, 0 }, 394.2, yearly);
        QCOMPARE(longRun.held.size(), std::size_t(1));
        QCOMPARE(longRun.usdByYear, (std::vector<double> { 8760.0, 8760.0, 0.0 }));
        // Runs of 394 days in years 1 and 2: the first still runs when the second starts.
        const ReservedYears overlapping = reservedYears({ 1, 1, 0 }, 394.2, yearly);
        QCOMPARE(overlapping.paidPerYear, (std::vector<int> { 1, 2, 1 }));
        QCOMPARE(overlapping.neededPerYear, (std::vector<int> { 1, 1, 0 }));
        // Three runs of 197 days: one fits a year, so three side by side (not ceil(591/365) = 2).
        QCOMPARE(
            reservedYears({ 3, 0, 0 }, 197.0, yearly).paidPerYear, (std::vector<int> { 3, 0, 0 }));
        QVERIFY(reservedYears({ 0, 0, 0 }, 197.0, yearly).held.empty());

        // Review cases, 72-day runs (5 to a reservation-year), $1/h terms ($8,760 a year):
        // 1.5-year terms, runs 0, 1, 6: year 3's single run fits into the term bought for
        // year 2 (to mid-year 3); its five runs take a second reservation.
        const std::vector<ReservationTerm> eighteenMonths { { 1.5, 1.0, 8760.0 } };
        const ReservedYears straddling = reservedYears({ 0, 1, 6 }, 72.0, eighteenMonths);
        QCOMPARE(straddling.usdByYear, (std::vector<double> { 0.0, 8760.0, 4380.0 + 8760.0 }));
        QCOMPARE(straddling.afterGrantUsd, 4380.0);
        // A 4-year grant, 5 runs a year, 1-year at $1/h or 3-year at $0.60/h: a 3-year term
        // then a 1-year one ($24,528), not two 3-year terms ($31,536 with two years after it).
        const std::vector<ReservationTerm> oneOrThree { { 1.0, 1.0, 8760.0 },
            { 3.0, 0.6, 5256.0 } };
        const ReservedYears fourYears = reservedYears({ 5, 5, 5, 5 }, 72.0, oneOrThree);
        const double fourYearTotal = std::accumulate(
            fourYears.usdByYear.begin(), fourYears.usdByYear.end(), 0.0); // either order
        QCOMPARE(fourYearTotal, 3 * 5256.0 + 8760.0);
        QCOMPARE(fourYears.afterGrantUsd, 0.0);
        QCOMPARE(fourYears.termYears, (std::vector<double> { 3.0, 1.0 }));
        // Tenth-of-a-year terms: a year without runs is not paid for by rounding.
        const std::vector<ReservationTerm> tenths { { 0.1, 1.0, 8760.0 } };
        QCOMPARE(
            reservedYears({ 10, 10, 0 }, 72.0, tenths).paidPerYear, (std::vector<int> { 2, 2, 0 }));
        // Many long runs stay quick: alike reservations are priced once (10 x 100,000 runs of
        // 500 days took 25 s one by one).
        const ReservedYears many = reservedYears(std::vector<int>(10, 100000), 500.0, oneOrThree);
        QCOMPARE(many.neededPerYear.front(), 100000);
        QVERIFY(many.held.size() < 100);
    }

    void owningCostsRunFromThePurchaseYear()
    {
        Scenario s = oneGpu();
        s.assumptions.pue = 1.0;
        s.assumptions.hostingUsdPerKwMonth = 200; // 1 kW: $2,400 a year
        s.assumptions.supportRate = 0.10; // of $15,000: $1,500 a year
        s.assumptions.staffUsdPerYear = 6000;
        const Results r = evaluate(s);
        GrantPlan plan;
        plan.equipmentYear = 2;
        plan.runsPerYear = { 0, 2, 2 };
        const BudgetTarget target { BudgetTarget::Kind::Owned, 0 };
        QCOMPARE(checkGrantPlan(plan, r, target), GrantPlanProblem::None);
        const GrantBudget b = grantBudget(r, target, plan, usFederal());
        QVERIFY(qAbs(line(b, BudgetCategory::Hosting)->usdByYear[0]) < 1e-9);
        QVERIFY(qAbs(line(b, BudgetCategory::Hosting)->usdByYear[1] - 2400.0) < 1e-6);
        QVERIFY(qAbs(line(b, BudgetCategory::Support)->totalUsd - 3000.0) < 1e-6);
        QVERIFY(qAbs(line(b, BudgetCategory::Staff)->usdByYear[2] - 6000.0) < 1e-6);
        QCOMPARE(line(b, BudgetCategory::Equipment)->usdByYear,
            (std::vector<double> { 0.0, 15000.0, 0.0 }));
        QVERIFY(!line(b, BudgetCategory::Fringe)); // no rate, no line
    }

    // Fringe benefits are their own line beside the staff time they fall on, from the year of
    // purchase, and in the F&A base under US federal rules: $6,000 of staff at 32.3% is $1,938
    // a year.
    void fringeBenefitsFollowTheStaffTime()
    {
        Scenario s = oneGpu();
        s.assumptions.staffUsdPerYear = 6000;
        s.assumptions.fringeRate = 0.323;
        s.assumptions.indirectRate = 0.5;
        const Results r = evaluate(s);
        GrantPlan plan;
        plan.equipmentYear = 2;
        plan.runsPerYear = { 0, 2, 2 };
        const BudgetTarget target { BudgetTarget::Kind::Owned, 0 };
        const GrantBudget b = grantBudget(r, target, plan, usFederal());
        QVERIFY(line(b, BudgetCategory::Fringe));
        QCOMPARE(line(b, BudgetCategory::Fringe)->usdByYear,
            (std::vector<double> { 0.0, 1938.0, 1938.0 }));
        QVERIFY(line(b, BudgetCategory::Fringe)->carriesIndirect);
        // Year 2's base: electricity + staff + fringe (the machine is exempt equipment).
        const double energy = line(b, BudgetCategory::Energy)->usdByYear[1];
        QCOMPARE(b.indirectBaseByYear[1], energy + 6000.0 + 1938.0);
        QCOMPARE(b.indirectByYear[1], std::round(0.5 * (energy + 7938.0)));
    }

    // Half a dollar rounds up however the double holds it: 29% of $750 is $217.50 (held as
    // 217.49999999999997), budgeted $218; just below half stays down.
    void halfADollarRoundsUp()
    {
        QCOMPARE(0.29 * 750.0 < 217.5, true); // the double this is about
        QCOMPARE(wholeDollars(0.29 * 750.0), 218.0);
        QCOMPARE(wholeDollars(217.4999), 217.0);
        QCOMPARE(wholeDollars(0.575 * 100.0), 58.0);
        QCOMPARE(wholeDollars(0.0), 0.0);
        Scenario s = oneGpu();
        s.assumptions.electricityUsdPerKwh = 0.0; // the base is the staff time alone
        s.assumptions.staffUsdPerYear = 750.0;
        s.assumptions.indirectRate = 0.29;
        const Results r = evaluate(s);
        GrantPlan plan;
        plan.runsPerYear = { 1, 0, 0 };
        const GrantBudget b = grantBudget(r, { BudgetTarget::Kind::Owned, 0 }, plan, usFederal());
        QCOMPARE(b.indirectBaseByYear, (std::vector<double> { 750.0, 750.0, 750.0 }));
        QCOMPARE(b.indirectByYear, (std::vector<double> { 218.0, 218.0, 218.0 }));
        QCOMPARE(b.indirectUsd, 654.0);
    }

    // Runs that end after the grant's last day: owning, on one machine back to back from the
    // purchase (a year's runs from its start or when the earlier ones end); renting, side by
    // side from their year's start. 28.935-day runs: 12, 12 and 13 end 11.2 days after a
    // 3-year grant; 40 in year 3 end 792.4 days after; 20 in year 1 end within it.
    void runsEndingAfterTheGrantAreCounted()
    {
        const Results r = results();
        const double days = r.options[0].estimate.days;
        QVERIFY(qAbs(days - 28.935) < 1e-3);
        const BudgetTarget owned { BudgetTarget::Kind::Owned, 0 };
        GrantPlan plan;
        plan.runsPerYear = { 12, 12, 13 };
        GrantBudget b = grantBudget(r, owned, plan, usFederal());
        QVERIFY(b.runsBackToBack);
        QVERIFY(qAbs(b.daysPastGrant - (730.0 + 13 * days - 1095.0)) < 1e-9);
        QCOMPARE(b.overfullYears, std::vector<int> { 3 });
        plan.runsPerYear = { 0, 0, 40 };
        QVERIFY(qAbs(grantBudget(r, owned, plan, usFederal()).daysPastGrant - 792.4) < 0.1);
        plan.runsPerYear = { 20, 0, 0 };
        QCOMPARE(grantBudget(r, owned, plan, usFederal()).daysPastGrant, 0.0);
        // Side by side, 40 runs in year 3 end 28.9 days into it.
        const BudgetTarget rented { BudgetTarget::Kind::Rented, cloudIndex(r, "cloud") };
        plan.runsPerYear = { 0, 0, 40 };
        b = grantBudget(r, rented, plan, usFederal());
        QVERIFY(!b.runsBackToBack);
        QCOMPARE(b.daysPastGrant, 0.0);
        // A run of 578.7 days (2% of peak) started in year 3 ends 213.7 days after the grant,
        // rented or owned.
        Scenario slow = oneGpu();
        slow.assumptions.analyticUtilization = 0.02;
        const Results long_ = evaluate(slow);
        plan.runsPerYear = { 0, 0, 1 };
        QVERIFY(qAbs(grantBudget(long_, { BudgetTarget::Kind::Rented, cloudIndex(long_, "cloud") },
                         plan, usFederal())
                         .daysPastGrant
                    - 213.7)
            < 0.1);
        QVERIFY(qAbs(grantBudget(long_, owned, plan, usFederal()).daysPastGrant - 213.7) < 0.1);
        // A reservation held for it is owed to the run's end: 1-year terms from year 3, the
        // second wholly after the grant ($8,760 owed; cut at the grant's end it was $0).
        const GrantBudget reserved = grantBudget(long_,
            { BudgetTarget::Kind::Rented, cloudIndex(long_, "reserved") }, plan, usFederal());
        QCOMPARE(reserved.totalByYear, (std::vector<double> { 0.0, 0.0, 8760.0 })); // no F&A set
        QCOMPARE(reserved.reservedAfterGrantUsd, 8760.0);
        // What renting commits: the budget and what is owed after it, with its F&A.
        QCOMPARE(rentalCommitmentUsd(reserved, usFederal(), long_.assumptions), 2 * 8760.0);
        Assumptions withRate = long_.assumptions;
        withRate.indirectRate = 0.5;
        QCOMPARE(rentalCommitmentUsd(reserved, usFederal(), withRate), 8760.0 + 8760.0 * 1.5);
        // The 578.7-day run on a machine bought in year 3 ends within a 5-year life, not a
        // 1-year one.
        QVERIFY(!grantBudget(long_, owned, plan, usFederal()).runsOutlastMachineLife);
        slow.assumptions.amortizationYears = 1.0;
        QVERIFY(grantBudget(evaluate(slow), owned, plan, usFederal()).runsOutlastMachineLife);
        QVERIFY(qAbs(grantBudget(long_, owned, plan, usFederal()).daysPerRun - 578.7) < 0.1);
    }

    // One default sponsor for every view: US federal where the tables have it, else their
    // first (the CLI had refused such tables while the GUI took the first), else none.
    void theDefaultSponsorIsUsFederalElseTheFirst()
    {
        Catalog c;
        QCOMPARE(c.defaultSponsorId(), std::string());
        SponsorRules erc = usFederal();
        erc.id = "erc";
        c.sponsors = { erc };
        QCOMPARE(c.defaultSponsorId(), std::string("erc"));
        c.sponsors.push_back(usFederal());
        QCOMPARE(c.defaultSponsorId(), std::string("us-federal"));
    }

    // The machine's life against the grant's years from its purchase: a 5-year life from year
    // 1 of a 3-year grant is owned 2 years after it; a 3-year life in a 5-year grant ends 2
    // years before the grant does (bought in year 2: 1 year), and the budget keeps it.
    void theMachinesLifeIsWeighedAgainstTheGrant()
    {
        Scenario s = oneGpu();
        s.assumptions.amortizationYears = 5.0;
        const BudgetTarget owned { BudgetTarget::Kind::Owned, 0 };
        GrantPlan plan;
        plan.runsPerYear = { 1, 1, 1 };
        GrantBudget b = grantBudget(evaluate(s), owned, plan, usFederal());
        QCOMPARE(b.yearsOwnedAfterGrant, 2.0);
        QCOMPARE(b.yearsOwnedPastLife, 0.0);
        QCOMPARE(b.netOfResaleUsd, std::nullopt); // no resale set
        // A resale of 20 % and $1,000 a year of staff time: sold when the grant ends, 2 years
        // younger than its life, the machine fetches at least that, and the 2 years of staff
        // after the grant are not owed for it (they had been added; no F&A set).
        s.assumptions.resaleFraction = 0.2;
        s.assumptions.staffUsdPerYear = 1000.0;
        const Results resold = evaluate(s);
        b = grantBudget(resold, owned, plan, usFederal());
        QVERIFY(b.netOfResaleUsd);
        QVERIFY(
            qAbs(*b.netOfResaleUsd - (b.totalUsd - 0.2 * resold.options[0].machineCostUsd)) < 1e-6);
        // The planner's buy total for the same 3 runs nets the resale alike, when the runs
        // end: the machine less its resale, 3 runs' electricity and the months of staff they
        // take at its run rate (the budget books the grant's 3 years of staff).
        s.assumptions.plannedRuns = 3;
        const Results plannedResults = evaluate(s);
        const OwnedOption& planned = plannedResults.options[0];
        QVERIFY(qAbs(planned.planTotalUsd
                    - (planned.machineCostUsd * 0.8 + 3 * planned.energyCostUsd
                        + 3 * 1000.0 / 12 / planned.runsPerMonth))
            < 1e-6);
        s.assumptions.plannedRuns = 1;
        s.assumptions.resaleFraction = 0.0;
        s.assumptions.staffUsdPerYear = 0.0;
        s.assumptions.amortizationYears = 3.0;
        plan.years = 5;
        plan.runsPerYear = { 1, 1, 1, 1, 1 };
        b = grantBudget(evaluate(s), owned, plan, usFederal());
        QCOMPARE(b.yearsOwnedAfterGrant, 0.0);
        QCOMPARE(b.yearsOwnedPastLife, 2.0);
        s.assumptions.resaleFraction = 0.2; // assumed at the life's end: not netted
        QCOMPARE(grantBudget(evaluate(s), owned, plan, usFederal()).netOfResaleUsd, std::nullopt);
        plan.runsPerYear = { 0, 1, 1, 1, 1 };
        plan.equipmentYear = 2;
        QCOMPARE(grantBudget(evaluate(s), owned, plan, usFederal()).yearsOwnedPastLife, 1.0);
    }

    // The rental a budget weighs buying against is the one cheapest for the plan's runs: 6
    // runs of 28.9 days on demand ($1,389 each) cost less than two 1-year terms ($8,760 each);
    // 36 runs (12 a year) cost $50,000 on demand against three terms, $26,280.
    void theRentalComparedIsTheCheapestForThePlan()
    {
        const Results r = results();
        const std::size_t cloud = cloudIndex(r, "cloud");
        const std::size_t reserved = cloudIndex(r, "reserved");
        QCOMPARE(r.options[0].cheapestCloudIndex, std::optional<std::size_t>(cloud));
        GrantPlan plan;
        plan.runsPerYear = { 3, 0, 3 };
        const auto rented = [](std::size_t i) {
            return std::optional<BudgetTarget>(BudgetTarget { BudgetTarget::Kind::Rented, i });
        };
        QVERIFY(cheapestRentalBudget(r, 0, plan, usFederal()) == rented(cloud));
        plan.runsPerYear = { 12, 12, 12 };
        QVERIFY(cheapestRentalBudget(r, 0, plan, usFederal()) == rented(reserved));
        QVERIFY(grantBudget(r, { BudgetTarget::Kind::Rented, reserved }, plan, usFederal()).totalUsd
            < grantBudget(r, { BudgetTarget::Kind::Rented, cloud }, plan, usFederal()).totalUsd);
        QCOMPARE(cheapestRentalBudget(r, 7, plan, usFederal()), std::nullopt);
    }

    // An offer that rents on demand and lists reserved terms too: the planner prices it per
    // run on demand, and a grant's runs can make its terms cheaper (36 runs of 28.9 days: $50,000
    // on demand against three 1-year terms of $8,760). The budget tries both, and budgets the
    // terms where asked (BudgetTarget::reservedTerms).
    void anOffersReservedTermsAreTriedToo()
    {
        auto both = std::make_shared<Catalog>(*sharedCatalog());
        both->cloudOffers.front().reserved = { { 1.0, 1.0 } }; // "cloud": $2/h, or $1/h a year
        both->cloudOffers.pop_back(); // no offer of terms only
        Scenario s = oneGpu(both);
        s.assumptions.plannedRuns = 36;
        const Results r = evaluate(s);
        const std::size_t cloud = cloudIndex(r, "cloud");
        QCOMPARE(r.cloud[cloud].cheapestPricing, Pricing::OnDemand);
        QVERIFY(offersReservedTermsToChoose(r, cloud));
        GrantPlan plan;
        plan.runsPerYear = { 12, 12, 12 };
        const BudgetTarget onDemand { BudgetTarget::Kind::Rented, cloud };
        const BudgetTarget terms { BudgetTarget::Kind::Rented, cloud, /*reservedTerms=*/true };
        const GrantBudget byTerms = grantBudget(r, terms, plan, usFederal());
        QCOMPARE(byTerms.pricing, Pricing::Reserved);
        QCOMPARE(line(byTerms, BudgetCategory::ComputingServices)->totalUsd, 3 * 8760.0);
        QVERIFY(qAbs(line(grantBudget(r, onDemand, plan, usFederal()),
                         BudgetCategory::ComputingServices)
                         ->totalUsd
                    - 36 * kCloudPerRun)
            < 3.0);
        QVERIFY(
            cheapestRentalBudget(r, 0, plan, usFederal()) == std::optional<BudgetTarget>(terms));
        // Few runs: on demand stays cheaper than a whole term.
        plan.runsPerYear = { 1, 1, 1 };
        QVERIFY(
            cheapestRentalBudget(r, 0, plan, usFederal()) == std::optional<BudgetTarget>(onDemand));
    }

    void plansThatCannotBeBudgeted()
    {
        const Results r = results();
        const BudgetTarget owned { BudgetTarget::Kind::Owned, 0 };
        GrantPlan plan;
        plan.years = 0;
        QCOMPARE(checkGrantPlan(plan, r, owned), GrantPlanProblem::Years);
        plan = {};
        plan.runsPerYear = { 1, 2 };
        QCOMPARE(checkGrantPlan(plan, r, owned), GrantPlanProblem::RunsPerYearCount);
        // No run in any year: nothing to budget, buying or renting.
        plan.runsPerYear = { 0, 0, 0 };
        QCOMPARE(checkGrantPlan(plan, r, owned), GrantPlanProblem::NoRuns);
        QCOMPARE(
            checkGrantPlan(plan, r, { BudgetTarget::Kind::Rented, 0 }), GrantPlanProblem::NoRuns);
        // Renting buys no machine: a purchase year outside the grant is the owned budget's
        // problem only (the rental's justification says it of buying).
        plan.runsPerYear = { 1, 1, 1 };
        plan.equipmentYear = 7;
        QCOMPARE(
            checkGrantPlan(plan, r, { BudgetTarget::Kind::Rented, 0 }), GrantPlanProblem::None);
        QCOMPARE(checkGrantPlan(plan, r, owned), GrantPlanProblem::EquipmentYear);
        plan.equipmentYear = 1;
        plan.runsPerYear = { 1, -2, 0 };
        QCOMPARE(checkGrantPlan(plan, r, owned), GrantPlanProblem::RunsPerYearValue);
        plan.runsPerYear = { 1, 1, 1 };
        plan.equipmentYear = 4;
        QCOMPARE(checkGrantPlan(plan, r, owned), GrantPlanProblem::EquipmentYear);
        plan.equipmentYear = 2;
        QCOMPARE(checkGrantPlan(plan, r, owned), GrantPlanProblem::RunsBeforePurchase);
        QCOMPARE(
            checkGrantPlan(plan, r, { BudgetTarget::Kind::Owned, 7 }), GrantPlanProblem::Target);
    }

    // A budget form adds up as printed: every amount whole dollars, each line's total the sum
    // of its years, each year's direct costs the sum of its lines, indirect costs the rate on
    // the year's base, and the totals their sums, for buying and renting alike.
    void everyRowAndColumnAddsUp()
    {
        Scenario s = oneGpu();
        s.assumptions.indirectRate = 0.557;
        s.assumptions.electricityUsdPerKwh = 0.1371;
        s.assumptions.hostingUsdPerKwMonth = 187.3;
        s.assumptions.supportRate = 0.083;
        const Results r = evaluate(s);
        GrantPlan plan;
        plan.runsPerYear = { 3, 4, 3 };
        for (const BudgetTarget target : { BudgetTarget { BudgetTarget::Kind::Owned, 0 },
                 BudgetTarget { BudgetTarget::Kind::Rented, cloudIndex(r, "cloud") } }) {
            const GrantBudget b = grantBudget(r, target, plan, usFederal());
            std::vector<double> direct(3, 0.0), base(3, 0.0);
            for (const BudgetLine& l : b.lines) {
                double total = 0.0;
                for (std::size_t y = 0; y < 3; ++y) {
                    QCOMPARE(l.usdByYear[y], std::round(l.usdByYear[y]));
                    total += l.usdByYear[y];
                    direct[y] += l.usdByYear[y];
                    if (l.carriesIndirect)
                        base[y] += l.usdByYear[y];
                }
                QCOMPARE(l.totalUsd, total);
            }
            QCOMPARE(b.directByYear, direct);
            QCOMPARE(b.indirectBaseByYear, base);
            QCOMPARE(b.indirectBaseUsd, base[0] + base[1] + base[2]);
            double sum = 0.0;
            for (std::size_t y = 0; y < 3; ++y) {
                QCOMPARE(b.indirectByYear[y], std::round(0.557 * base[y]));
                QCOMPARE(b.totalByYear[y], b.directByYear[y] + b.indirectByYear[y]);
                sum += b.totalByYear[y];
            }
            QCOMPARE(b.totalUsd, sum);
            QCOMPARE(b.totalUsd, b.directUsd + b.indirectUsd);
        }
    }

    void runsThatDoNotFitAYearAreFlagged()
    {
        const Results r = results();
        GrantPlan plan;
        plan.runsPerYear = { 13, 1, 1 }; // 13 x 28.9 days = 376 days
        const GrantBudget b = grantBudget(r, { BudgetTarget::Kind::Owned, 0 }, plan, usFederal());
        QCOMPARE(b.overfullYears, (std::vector<int> { 1 }));
    }
};

QTEST_APPLESS_MAIN(TestGrantBudget)
#include "tst_grant_budget.moc"

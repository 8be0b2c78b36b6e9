// Ranges on every estimate and cost (core/uncertainty.h, evaluate.h): hand-computed intervals
// for each cost rule, the property low <= value <= high for every option of every shipped
// model, and Monte Carlo reproducible by seed.

#include "core/estimators.h"
#include "core/evaluate.h"
#include "core/uncertainty.h"
#include "pricing/catalog_loader.h"

#include <QTest>

#include <memory>

using namespace gpuplan;

namespace {

// One GPU (street price $1,000, 500 W) in a one-slot chassis (quote $200, 500 W), the paper
// saying 10 days, one on-demand offer at $1/hour. Electricity $0.20/kWh, PUE 1.5.
std::shared_ptr<Catalog> tinyCatalog()
{
    auto c = std::make_shared<Catalog>();
    GpuSpec g;
    g.id = "g";
    g.name = "G";
    g.boardPowerWatts = 500.0;
    g.priceUsd = 1000.0;
    g.priceSource.kind = PriceKind::Street;
    c->gpus.push_back(g);
    ChassisSpec ch;
    ch.id = "c";
    ch.gpuSlots = 1;
    ch.priceUsd = 200.0;
    ch.basePowerWatts = 500.0;
    ch.priceSource.kind = PriceKind::Quote;
    c->chassis.push_back(ch);
    Workload w;
    w.id = "m";
    w.trainingFlops = 1e18;
    c->workloads.push_back(w);
    ReferenceMeasurement ref;
    ref.modelId = "m";
    ref.gpuId = "g";
    ref.gpuCount = 1;
    ref.days = 10.0;
    c->reference.push_back(ref);
    CloudOffer offer;
    offer.id = "o";
    offer.gpuId = "g";
    offer.onDemandUsdPerHour = 1.0;
    c->cloudOffers.push_back(offer);
    c->defaults.electricityUsdPerKwh = 0.2;
    c->defaults.pue = 1.5;
    return c;
}

Scenario tinyScenario()
{
    Scenario s;
    s.catalog = tinyCatalog();
    s.assumptions = s.catalog->defaults;
    s.modelId = "m";
    s.source = SourcePolicy::Paper;
    s.gpuCounts = { 1 };
    return s;
}

// An option's break-even months lie within their range (where it has both).
bool monthsSpanTheirValue(const OwnedOption& o)
{
    const auto& range = o.breakEvenMonthsRange;
    return !o.breakEvenMonths || !range.low
        || (*range.low <= *o.breakEvenMonths && (!range.high || *o.breakEvenMonths <= *range.high));
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

} // namespace

class TestUncertainty : public QObject {
    Q_OBJECT

private slots:
    void positionsAreLinearOnEachSide()
    {
        QCOMPARE(atPosition(8.0, 10.0, 20.0, -1.0), 8.0);
        QCOMPARE(atPosition(8.0, 10.0, 20.0, 0.0), 10.0);
        QCOMPARE(atPosition(8.0, 10.0, 20.0, 0.5), 15.0);
        QCOMPARE(atPosition(8.0, 10.0, 20.0, -0.5), 9.0);
        QCOMPARE(atPosition(8.0, 10.0, 20.0, 3.0), 20.0); // clamped
    }

    // The months' range is ordered and holds the point; where buying never pays off at
    // renting's end, the other end still holds it (it was left as found: review).
    void breakEvenMonthsRangeSpansItsValue()
    {
        const auto spanned = [](std::optional<double> low, std::optional<double> high,
                                 std::optional<double> value) {
            return spanningItsValue({ low, high }, value);
        };
        const BreakEvenRange swapped = spanned(0.61, 0.39, 0.5);
        QCOMPARE(*swapped.low, 0.39);
        QCOMPARE(*swapped.high, 0.61);
        const BreakEvenRange widened = spanned(0.394, 0.610, 0.611);
        QCOMPARE(*widened.low, 0.394);
        QCOMPARE(*widened.high, 0.611);
        const BreakEvenRange never = spanned(0.7, std::nullopt, 0.6);
        QCOMPARE(*never.low, 0.6);
        QVERIFY(!never.high);
        const BreakEvenRange noPoint = spanned(0.7, 0.5, std::nullopt);
        QCOMPARE(*noPoint.low, 0.5);
        QCOMPARE(*noPoint.high, 0.7);
        QVERIFY(!spanned(std::nullopt, std::nullopt, 3.0).low);
    }

    void priceRangesByKindOrFromTheTable()
    {
        Provenance street;
        street.kind = PriceKind::Street;
        QVERIFY(near(priceRange(1000.0, street).low, 850.0));
        QVERIFY(near(priceRange(1000.0, street).high, 1150.0));
        Provenance list;
        list.kind = PriceKind::List;
        QVERIFY(near(priceRange(1000.0, list).low, 900.0));
        QVERIFY(near(priceRange(1000.0, list).high, 1300.0));
        Provenance given = list;
        given.lowUsd = 950.0;
        given.highUsd = 1100.0;
        QCOMPARE(priceRange(1000.0, given).low, 950.0);
        QCOMPARE(priceRange(1000.0, given).high, 1100.0);
        QVERIFY(near(rateRange(2.0, /*spot=*/false).low, 1.8));
        QVERIFY(near(rateRange(2.0, /*spot=*/true).high, 3.0));
    }

    void assumptionRangesStayWithinBounds()
    {
        const Interval electricity = assumptionRange(AssumptionId::ElectricityUsdPerKwh, 0.2);
        QVERIFY(near(electricity.low, 0.13));
        QVERIFY(near(electricity.high, 0.30));
        // Busy all the time is the most a machine can be.
        const Interval busy = assumptionRange(AssumptionId::MachineUtilization, 1.0);
        QCOMPARE(busy.high, 1.0);
        QVERIFY(near(busy.low, 0.5));
        // PUE never goes below 1.0.
        QCOMPARE(assumptionRange(AssumptionId::Pue, 1.1).low, 1.0);
        // An owning cost that is off has no range.
        const Interval off = assumptionRange(AssumptionId::HostingUsdPerKwMonth, 0.0);
        QCOMPARE(off.low, 0.0);
        QCOMPARE(off.high, 0.0);
        QVERIFY(!movedAsAssumption(AssumptionId::PlannedRuns));
        QVERIFY(!movedAsAssumption(AssumptionId::AnalyticUtilization));
        QVERIFY(movedAsAssumption(AssumptionId::Pue));
    }

    void analyticEstimateSpansTheUtilisationRange()
    {
        GpuSpec g;
        g.id = "g";
        g.peakTflops[Precision::FP32] = 100.0;
        Workload w;
        w.id = "m";
        w.trainingFlops = 100e12 * 86400.0; // one day at 100% of one GPU's peak
        const auto e = analyticEstimate(w, g, 1, 0.4);
        QVERIFY(e);
        QVERIFY(near(e->days, 1.0 / 0.4));
        QVERIFY(near(e->daysLow, 1.0 / 0.55));
        QVERIFY(near(e->daysHigh, 1.0 / 0.25));
    }

    // Each rule's interval by hand: the tiny catalog above.
    void handComputedIntervals()
    {
        const Results r = evaluate(tinyScenario());
        QVERIFY(r.hasRanges);
        QCOMPARE(r.options.size(), std::size_t(1));
        const OwnedOption& o = r.options.front();
        // Days: the paper's whole days +- 0.5.
        QCOMPARE(o.estimate.days, 10.0);
        QCOMPARE(o.daysRange.low, 9.5);
        QCOMPARE(o.daysRange.high, 10.5);
        // Machine: chassis (quote -10%/+5%) + card (street +-15%).
        QCOMPARE(o.machineCostUsd, 1200.0);
        QVERIFY(near(o.machineCostRange.low, 180.0 + 850.0));
        QVERIFY(near(o.machineCostRange.high, 210.0 + 1150.0));
        // Per experiment: price x days / (years x 365 x utilisation), years 3..6, busy 0.5..1.
        QVERIFY(near(o.experimentCostUsd, 1200.0 * 10.0 / (5.0 * 365.0)));
        QVERIFY(near(o.experimentCostRange.low, 1030.0 * 9.5 / (6.0 * 365.0)));
        QVERIFY(near(o.experimentCostRange.high, 1360.0 * 10.5 / (3.0 * 365.0 * 0.5)));
        // Energy: 1 kW x PUE (1.05..1.725) x hours x price (0.13..0.30).
        QVERIFY(near(o.energyCostUsd, 1.0 * 1.5 * 240.0 * 0.2));
        QVERIFY(near(o.energyCostRange.low, 1.05 * 9.5 * 24.0 * 0.13));
        QVERIFY(near(o.energyCostRange.high, 1.725 * 10.5 * 24.0 * 0.30));
        // Cloud per run: rate (+-10%) x hours.
        QCOMPARE(r.cloud.size(), std::size_t(1));
        const CloudOption& c = r.cloud.front();
        QVERIFY(near(*c.onDemandCostUsd, 240.0));
        QVERIFY(near(c.onDemandCostRange->low, 0.9 * 9.5 * 24.0));
        QVERIFY(near(c.onDemandCostRange->high, 1.1 * 10.5 * 24.0));
        QVERIFY(near(c.cheapestCostRange.low, 0.9 * 9.5 * 24.0));
        // Break-even: price / (cloud - energy), everything for buying, then for renting.
        QVERIFY(near(*o.breakEvenRuns, 1200.0 / (240.0 - 72.0)));
        const double buyingLow = 1030.0 / (1.1 * 10.5 * 24.0 - 1.05 * 10.5 * 24.0 * 0.13);
        const double rentingHigh = 1360.0 / (0.9 * 9.5 * 24.0 - 1.725 * 9.5 * 24.0 * 0.30);
        QVERIFY(near(*o.breakEvenRunsRange.low, buyingLow));
        QVERIFY(near(*o.breakEvenRunsRange.high, rentingHigh));
        QVERIFY(near(*o.breakEvens.front().runsRange.low, buyingLow));
        // A spot run's days: the run's days (9.5..10.5) x 1 + the restart overhead at its own
        // range (10 %: 2 %..30 %), not the stated 10 % (the chart's whiskers had used it).
        Scenario withSpot = tinyScenario();
        auto spotCatalog = tinyCatalog();
        spotCatalog->cloudOffers.front().spotUsdPerHour = 0.5;
        withSpot.catalog = spotCatalog;
        withSpot.assumptions.spotRestartOverhead = 0.1;
        const Results spotResults = evaluate(withSpot);
        const CloudOption& spot = spotResults.cloud.front();
        QVERIFY(near(spot.spotDays, 11.0));
        QVERIFY(near(spot.spotDaysRange.low, 9.5 * 1.02));
        QVERIFY(near(spot.spotDaysRange.high, 10.5 * 1.30));
        // Project totals for 3 runs: machine + 3 x energy.
        Scenario three = tinyScenario();
        three.assumptions.plannedRuns = 3;
        const Results threeRuns = evaluate(three); // kept: p refers into it
        const OwnedOption& p = threeRuns.options.front();
        QVERIFY(near(p.planTotalUsd, 1200.0 + 3 * 72.0));
        QVERIFY(near(p.planTotalRange.low, 1030.0 + 3 * 1.05 * 9.5 * 24.0 * 0.13));
        QVERIFY(near(p.planTotalRange.high, 1360.0 + 3 * 1.725 * 10.5 * 24.0 * 0.30));
    }

    void rangesCanBeSkipped()
    {
        Scenario s = tinyScenario();
        s.ranges = false;
        const Results r = evaluate(s);
        QVERIFY(!r.hasRanges);
        QCOMPARE(r.options.front().machineCostUsd, 1200.0);
    }

    void monteCarloIsReproducibleBySeed()
    {
        Scenario s = tinyScenario();
        s.monteCarloSamples = 300;
        s.seed = 42;
        s.budgetUsd = 1250.0; // the machine fits at its stated price, not at its high end
        const Results a = evaluate(s);
        const Results b = evaluate(s);
        QVERIFY(a.monteCarlo && b.monteCarlo);
        QCOMPARE(a.monteCarlo->samples, 300);
        const auto& x = a.monteCarlo->options.front();
        const auto& y = b.monteCarlo->options.front();
        QCOMPARE(x.experimentCostUsd.p10, y.experimentCostUsd.p10);
        QCOMPARE(x.experimentCostUsd.p50, y.experimentCostUsd.p50);
        QCOMPARE(x.breakEvenRuns.p90, y.breakEvenRuns.p90);
        QCOMPARE(a.monteCarlo->recommendedShare, b.monteCarlo->recommendedShare);
        QVERIFY(x.experimentCostUsd.p10 <= x.experimentCostUsd.p50);
        QVERIFY(x.experimentCostUsd.p50 <= x.experimentCostUsd.p90);
        const OwnedOption& o = a.options.front();
        QVERIFY(o.experimentCostRange.contains(x.experimentCostUsd.p10));
        QVERIFY(o.experimentCostRange.contains(x.experimentCostUsd.p90));
        QVERIFY(o.daysRange.contains(x.trainingDays.p50));
        // Within the budget in some samples only: the recommendation is not certain.
        const auto robust = recommendationRobustness(a);
        QVERIFY(robust);
        QVERIFY(robust->share > 0.2 && robust->share < 1.0);
        QVERIFY(near(robust->share + robust->noneShare, 1.0));
        // Another seed draws other cases.
        s.seed = 43;
        const Results c = evaluate(s);
        QVERIFY(c.monteCarlo->options.front().experimentCostUsd.p50 != x.experimentCostUsd.p50);
    }

    void everyShippedOptionLiesWithinItsRange_data()
    {
        QTest::addColumn<QString>("priceSet");
        QTest::addColumn<QString>("model");
        for (const auto set : { kDefaultPriceSet, kPaperPriceSet }) {
            const auto load = loadCatalog(shippedDataFiles(set));
            for (const auto& w : load.catalog->workloads)
                QTest::addRow("%s %s", std::string(set).c_str(), w.id.c_str())
                    << QString::fromStdString(std::string(set)) << QString::fromStdString(w.id);
        }
    }

    void everyShippedOptionLiesWithinItsRange()
    {
        QFETCH(QString, priceSet);
        QFETCH(QString, model);
        const CatalogLoad load = loadCatalog(shippedDataFiles(priceSet.toStdString()));
        QVERIFY2(load.issues.empty(), formatIssues(load.issues).c_str());
        Scenario s;
        s.catalog = load.catalog;
        s.assumptions = load.catalog->defaults;
        s.modelId = model.toStdString();
        s.assumptions.plannedRuns = 4;
        // Owning costs on, so that their ranges are exercised too.
        for (const auto& spec : kAssumptionSpecs)
            if (spec.suggested)
                setAssumptionValue(s.assumptions, spec.id, *spec.suggested);
        const Results r = evaluate(s);
        QVERIFY(r.hasRanges);
        for (const auto& o : r.options) {
            const std::string what = std::to_string(o.gpuCount) + "x" + o.gpu->id;
            QVERIFY2(o.daysRange.contains(o.estimate.days), what.c_str());
            QVERIFY2(o.machineCostRange.contains(o.machineCostUsd), what.c_str());
            QVERIFY2(o.experimentCostRange.contains(o.experimentCostUsd), what.c_str());
            QVERIFY2(o.energyCostRange.contains(o.energyCostUsd), what.c_str());
            QVERIFY2(o.buyCostPerRunRange.contains(o.buyCostPerRunUsd), what.c_str());
            QVERIFY2(o.planTotalRange.contains(o.planTotalUsd), what.c_str());
            QVERIFY2(o.planAmortizedRange.contains(o.planAmortizedUsd), what.c_str());
            QVERIFY2(o.machineCostRange.low < o.machineCostRange.high, what.c_str());
            if (o.breakEvenRuns) {
                QVERIFY2(o.breakEvenRunsRange.low, what.c_str());
                QVERIFY2(*o.breakEvenRunsRange.low <= *o.breakEvenRuns, what.c_str());
                QVERIFY2(
                    !o.breakEvenRunsRange.high || *o.breakEvenRuns <= *o.breakEvenRunsRange.high,
                    what.c_str());
            }
            QVERIFY2(monthsSpanTheirValue(o), what.c_str());
        }
        for (const auto& c : r.cloud) {
            QVERIFY(c.daysRange.contains(c.estimate.days));
            QVERIFY(c.cheapestCostRange.contains(*c.cheapestCostUsd));
            QVERIFY(c.planTotalRange.contains(c.planTotalUsd));
        }
    }

    // At the defaults, where runs fit back to back: the months of the corner in buying's
    // favour (longer runs, fewer a month) came out above the stated months (review: 4xRTX
    // 5090 against Vast for Mamba-2.8B, 0.611 months, its range 0.394-0.610).
    void breakEvenMonthsSpanTheirValueAtTheDefaults()
    {
        const CatalogLoad load = loadCatalog(shippedDataFiles(kDefaultPriceSet));
        Scenario s;
        s.catalog = load.catalog;
        s.assumptions = load.catalog->defaults;
        s.modelId = "mamba-2.8b";
        const Results r = evaluate(s);
        int checked = 0;
        for (const auto& o : r.options) {
            if (!o.breakEvenMonths || !o.breakEvenMonthsRange.low)
                continue;
            const std::string what = std::to_string(o.gpuCount) + "x" + o.gpu->id;
            QVERIFY2(monthsSpanTheirValue(o), what.c_str());
            ++checked;
        }
        QVERIFY(checked > 10);
    }

    // The paper's Fig. 7 at the point values, with ranges around them.
    void paperFiguresStayExactAtThePoint()
    {
        const CatalogLoad load = loadCatalog(shippedDataFiles(kPaperPriceSet));
        Scenario s;
        s.catalog = load.catalog;
        s.assumptions = load.catalog->defaults;
        s.modelId = "pythia-1b";
        s.source = SourcePolicy::Paper;
        s.budgetUsd = 40000.0;
        s.monteCarloSamples = 200;
        const Results r = evaluate(s);
        QVERIFY(r.recommended);
        const OwnedOption& best = r.options[*r.recommended];
        QCOMPARE(best.gpu->id, std::string("rtx-3090"));
        QCOMPARE(best.gpuCount, 8);
        QCOMPARE(best.machineCostUsd, 21073.0);
        for (const auto& o : r.options) {
            if (o.gpu->id == "a100-80gb-sxm" && o.gpuCount == 8)
                QCOMPARE(qRound(o.experimentCostUsd * 100.0), 80222);
            if (o.gpu->id == "h100-80gb-sxm" && o.gpuCount == 4)
                QCOMPARE(qRound(o.experimentCostUsd * 100.0), 55883);
        }
        const auto robust = recommendationRobustness(r);
        QVERIFY(robust);
        QVERIFY(robust->share > 0.0 && robust->share <= 1.0);
    }
};

QTEST_GUILESS_MAIN(TestUncertainty)
#include "tst_uncertainty.moc"

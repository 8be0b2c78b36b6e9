// How the views word core's structured reasons: the recommendation for each rule, why an
// option is unavailable, warnings and pricing labels. Core returns kinds and values; these are
// the sentences every view (CLI, GUI, report, JSON) shows.

#include "app/common/budget_table.h"
#include "app/common/cloud_columns.h"
#include "app/common/format.h"
#include "app/common/option_columns.h"
#include "app/common/results_csv.h"
#include "app/common/wording.h"
#include "pricing/catalog_loader.h"

#include <QTest>

using namespace gpuplan;

namespace {
// Pythia-1B from the paper's tables at the paper's prices (the Fig. 7 set-up).
Scenario paperScenario()
{
    const CatalogLoad load = loadCatalog(shippedDataFiles(kPaperPriceSet));
    if (!load.ok())
        qFatal("the paper's price set does not load");
    Scenario s;
    s.catalog = load.catalog;
    s.assumptions = load.catalog->defaults;
    s.modelId = "pythia-1b";
    s.source = SourcePolicy::Paper;
    return s;
}
} // namespace

class TestWording : public QObject {
    Q_OBJECT

private slots:
    // A CSV cell never runs as a formula when a spreadsheet opens it (provider and offer names
    // come from third parties' catalogs); numbers keep their sign.
    void csvCellsAreNeverFormulas()
    {
        QCOMPARE(views::csvRow({ QStringLiteral("=HYPERLINK(\"http://x\",\"a\")"),
                     QStringLiteral("@SUM(A1)"), QStringLiteral("+1 GPU"), QStringLiteral("-5"),
                     QStringLiteral("-1.5e3"), QStringLiteral("AWS") }),
            QStringLiteral(
                "\"'=HYPERLINK(\"\"http://x\"\",\"\"a\"\")\",'@SUM(A1),'+1 GPU,-5,-1.5e3,"
                "AWS\r\n"));
    }

    void recommendation_data()
    {
        QTest::addColumn<double>("budget"); // 0: none
        QTest::addColumn<double>("deadline"); // 0: none
        QTest::addColumn<QString>("expected");
        QTest::addRow("none") << 0.0 << 0.0 << QString();
        QTest::addRow("budget (the paper's Fig. 7)")
            << 40000.0 << 0.0 << QStringLiteral("fastest machine within the $40,000 budget");
        QTest::addRow("deadline") << 0.0 << 10.0
                                  << QStringLiteral("cheapest machine that trains within 10 days");
        QTest::addRow("both")
            << 200000.0 << 10.0
            << QStringLiteral("cheapest machine within the $200,000 budget that trains within "
                              "10 days");
        // With the nearest miss: the fastest the budget buys, or the cheapest of all.
        QTest::addRow("nothing meets both")
            << 100000.0 << 10.0
            << QStringLiteral("no machine meets the constraints; the fastest within the budget, "
                              "2\u00D7H100 SXM 80GB, takes 16 days, past the 10-day deadline");
        QTest::addRow("deadline too near")
            << 0.0 << 1.0
            << QStringLiteral("no machine meets the constraints; the fastest, 8\u00D7H100 SXM "
                              "80GB, takes 4.0 days, past the 1-day deadline");
        QTest::addRow("budget too small")
            << 500.0 << 0.0
            << QStringLiteral("no machine meets the constraints; the cheapest, 1\u00D7RTX 3090, "
                              "costs $2,320, over the $500.00 budget");
    }
    void recommendation()
    {
        QFETCH(double, budget);
        QFETCH(double, deadline);
        QFETCH(QString, expected);
        Scenario s = paperScenario();
        if (budget > 0)
            s.budgetUsd = budget;
        if (deadline > 0)
            s.deadlineDays = deadline;
        QCOMPARE(views::recommendationReason(evaluate(s)), expected);
    }

    // The paper's builds held against the supplies its Appendix H lists: 2 H100 SXM in the
    // 2-GPU desktop draw 2 x 700 + 225 = 1,625 W on a 1,600 W supply (short); 8 A100 SXM in
    // the 8-GPU server 8 x 400 + 470 = 3,670 W, both of its 2 x 3,200 W (none to spare); 8
    // RTX A6000, 2,870 W, fit with one to spare. Flagged, their figures the paper's.
    void powerSuppliesAreFlagged()
    {
        Scenario s = paperScenario();
        const Results r = evaluate(s);
        const auto option = [&r](const std::string& gpu, int count) -> const OwnedOption* {
            for (const auto& o : r.options)
                if (o.gpu->id == gpu && o.gpuCount == count)
                    return &o;
            return nullptr;
        };
        const OwnedOption* twoH100 = option("h100-80gb-sxm", 2);
        const OwnedOption* eightA100 = option("a100-80gb-sxm", 8);
        const OwnedOption* eightA6000 = option("rtx-a6000", 8);
        QVERIFY(twoH100 && eightA100 && eightA6000);
        QCOMPARE(twoH100->machineCostUsd, 61456.29); // the paper's desktop, kept
        QCOMPARE(twoH100->powerSupplyFit, PowerSupplyFit::Short);
        QVERIFY(views::optionFlagList(*twoH100).contains(QStringLiteral("power supply short")));
        QCOMPARE(views::powerSupplyText(*twoH100),
            QStringLiteral("The cards and the rest of the machine draw 1,625 W at their rating, "
                           "more than the chassis's single 1,600 W supply gives: as priced it "
                           "cannot power them, and a build that can costs more."));
        QCOMPARE(eightA100->powerSupplyFit, PowerSupplyFit::NoSpare);
        QVERIFY(views::optionFlagList(*eightA100)
                    .endsWith(QStringLiteral("suspect, no spare power supply")));
        QCOMPARE(views::powerSupplyText(*eightA100),
            QStringLiteral("The cards and the rest of the machine draw 3,670 W at their rating, "
                           "more than one of the chassis's two 3,200 W supplies gives: it needs "
                           "both, so none is spare if one fails; a server built for these cards "
                           "may cost more than this price."));
        QCOMPARE(eightA6000->powerSupplyFit, PowerSupplyFit::Fits);
        QVERIFY(views::powerSupplyText(*eightA6000).isEmpty());
        QVERIFY(!views::optionFlagList(*eightA6000).contains(QStringLiteral("power")));
        // The recommendation's caution says the power supply beside the estimate's caution,
        // not instead of it: 2xH100 has no estimate caution, 8xA100 is suspect (97 %) too.
        QCOMPARE(views::recommendationCaution(*twoH100),
            QStringLiteral("Caution: ") + views::powerSupplyText(*twoH100));
        const QString both = views::recommendationCaution(*eightA100);
        QVERIFY2(both.startsWith(QStringLiteral("Caution: Implied utilisation is 75% of peak"))
                && both.endsWith(QStringLiteral(" Caution: ") + views::powerSupplyText(*eightA100)),
            qPrintable(both));
        // A system sold whole is not checked (its supplies are the vendor's).
        s.gpuIds = { "h100-80gb-sxm" };
        const CatalogLoad current = loadCatalog(shippedDataFiles());
        s.catalog = current.catalog;
        const Results systems = evaluate(s);
        int checked = 0;
        for (const auto& o : systems.options)
            if (o.system) {
                QCOMPARE(o.powerSupplyFit, PowerSupplyFit::NotChecked);
                ++checked;
            }
        QVERIFY(checked > 0); // the HGX and DGX H100
    }

    void unavailable_data()
    {
        QTest::addColumn<int>("reason");
        QTest::addColumn<QString>("expected");
        QTest::addRow("no chassis") << static_cast<int>(UnavailableReason::NoChassis)
                                    << QStringLiteral("no chassis with 16 GPU slots");
        QTest::addRow("infeasible")
            << static_cast<int>(UnavailableReason::Infeasible)
            << QStringLiteral("infeasible: published so in the paper's Table 1");
        QTest::addRow("needs offloading")
            << static_cast<int>(UnavailableReason::NeedsOffloading)
            << QStringLiteral("no analytic estimate: published so in the paper's Table 1");
        QTest::addRow("no estimate") << static_cast<int>(UnavailableReason::NoEstimate)
                                     << QStringLiteral("no paper-naive estimate");
    }
    void unavailable()
    {
        QFETCH(int, reason);
        QFETCH(QString, expected);
        const Unavailable u { "a100-80gb-sxm", 16, static_cast<UnavailableReason>(reason),
            "published so in the paper's Table 1" };
        QCOMPARE(views::unavailableReason(u, SourcePolicy::PaperNaive), expected);
    }
    void soldOnlyAsSystemNamesTheCounts()
    {
        const Unavailable u { "h100-80gb-sxm", 4, UnavailableReason::SoldOnlyAsSystem, "4 or 8" };
        QCOMPARE(views::unavailableReason(u, SourcePolicy::Best),
            QStringLiteral("sold only in systems of 4 or 8 GPUs"));
    }

    // The machines left out, grouped by why and by the counts they miss; a GPU named where the
    // results hold one of its machines, by its id where they do not.
    void unavailableMachinesAreSummarised()
    {
        GpuSpec h100;
        h100.id = "h100-80gb-sxm";
        h100.name = "H100 SXM 80GB";
        GpuSpec h200;
        h200.id = "h200-sxm";
        h200.name = "H200 SXM 141GB";
        Results r;
        r.source = SourcePolicy::Best;
        r.options.resize(2);
        r.options[0].gpu = &h100;
        r.options[1].gpu = &h200;
        QCOMPARE(views::unavailableSummary(r), QString());
        for (const char* gpu : { "h100-80gb-sxm", "h200-sxm" })
            for (int count : { 1, 2, 4 })
                r.unavailable.push_back({ gpu, count, UnavailableReason::SoldOnlyAsSystem, "8" });
        r.unavailable.push_back({ "rtx-3090", 16, UnavailableReason::NoChassis, "" });
        r.unavailable.push_back(
            { "h100-80gb-sxm", 1, UnavailableReason::SoldOnlyAsSystem, "4 or 8" });
        QCOMPARE(views::unavailableSummary(r),
            QStringLiteral(
                "H100 SXM 80GB and H200 SXM 141GB as 1, 2 or 4 GPUs (sold only in systems "
                "of 8 GPUs); rtx-3090 as 16 GPUs (no chassis with 16 GPU slots); H100 "
                "SXM 80GB as 1 GPU (sold only in systems of 4 or 8 GPUs)"));
    }

    void warnings()
    {
        QCOMPARE(views::warningText(
                     { Warning::Kind::OfferUnknownGpu, "x-offer", "b300" }, SourcePolicy::Best),
            QStringLiteral("cloud offer x-offer names unknown GPU b300"));
        QCOMPARE(views::warningText({ Warning::Kind::NoEstimateForAnyMachine, "mamba-2.8b", {} },
                     SourcePolicy::Measured),
            QStringLiteral(
                "no machine to buy has a measured estimate for mamba-2.8b; measurements come from "
                "gpuplan-bench results files: File > Import measurements in the app, "
                "--results FILE in gpuplan-cli"));
        QCOMPARE(views::warningText({ Warning::Kind::NoEstimateForAnyMachine, "pythia-1b", {} },
                     SourcePolicy::Extrapolated),
            QStringLiteral("no machine to buy has an extrapolated estimate for pythia-1b; "
                           "measurements come from "
                           "gpuplan-bench results files: File > Import measurements in the app, "
                           "--results FILE in gpuplan-cli"));
        QVERIFY(
            views::warningText({ Warning::Kind::NoEstimateForAnyMachine, "tiny", "cpu (run.yaml)" },
                SourcePolicy::Measured)
                .endsWith(QStringLiteral(
                    "; gpuplan-bench measured it on cpu (run.yaml), a device the GPU table "
                    "has no entry for (the results file's gpu_id is empty or unknown), so "
                    "those measurements cannot be priced")));
        QCOMPARE(views::unavailableReason(
                     { "a100-80gb-sxm", 8, UnavailableReason::NoPrice, {} }, SourcePolicy::Paper),
            QStringLiteral("no purchase price in this price set"));
        QCOMPARE(
            views::warningText({ Warning::Kind::UnknownModel, "gpt-5", {} }, SourcePolicy::Best),
            QStringLiteral("unknown model: gpt-5"));
        QCOMPARE(
            views::warningText({ Warning::Kind::UnknownSponsor, "nsf", {} }, SourcePolicy::Best),
            QStringLiteral("unknown sponsor nsf: the indirect (F&A) rate falls on cloud spend "
                           "only, every machine counted as exempt equipment"));
    }

    // Rentals nothing can time are named, not dropped without a word: Pythia-1B trains in
    // bf16, which V100s have no peak for (README: no_peak_known). Only for the sources where
    // that gap is not the source's own choice.
    void untimedRentalsAreNamed()
    {
        Scenario s;
        s.catalog = loadCatalog(shippedDataFiles()).catalog;
        s.assumptions = s.catalog->defaults;
        s.modelId = "pythia-1b";
        const Results best = evaluate(s);
        QCOMPARE(views::untimedOffersSummary(best),
            QStringLiteral("gcp-v100 and drexel-picotte-v100 (no source times the model on V100 "
                           "SXM2 16GB or V100 SXM2 32GB: no peak is known for its precision "
                           "there)"));
        for (const CloudOption& c : best.cloud)
            QVERIFY(c.offer->id != "gcp-v100");
        // Pythia-6.9B trains in fp16, which V100s have a peak for, but its 110 GB of training
        // state fits no V100 offer at one or two GPUs (at most 64 GB): the reason is the
        // memory.
        s.modelId = "pythia-6.9b";
        s.gpuCounts = { 1, 2 };
        const Results large = evaluate(s);
        QVERIFY(!large.untimedOffers.empty());
        for (const auto& u : large.untimedOffers)
            QVERIFY2(u.stateDoesNotFit, u.offer->id.c_str());
        QVERIFY2(views::untimedOffersSummary(large).contains(
                     QStringLiteral("(the model's training state does not fit the memory of the ")),
            qPrintable(views::untimedOffersSummary(large)));
        s.modelId = "pythia-1b";
        s.gpuCounts = Scenario {}.gpuCounts;
        s.source = SourcePolicy::Paper;
        QVERIFY(evaluate(s).untimedOffers.empty());
        s.source = SourcePolicy::Best;
        s.modelId = "vit-large-22k"; // fp32: V100s have a peak for it
        QVERIFY(views::untimedOffersSummary(evaluate(s)).isEmpty());
    }

    // Which costs carry F&A, in the words every view puts beside its costs.
    void indirectBaseInWords()
    {
        const auto load = loadCatalog(shippedDataFiles());
        const SponsorRules* federal = load.catalog->findSponsor("us-federal");
        QVERIFY(federal);
        QCOMPARE(views::indirectBaseText(*federal),
            QStringLiteral("cloud and recharge computing, a machine below $5,000 (supplies), "
                           "electricity, hosting, support, staff time and fringe benefits"));
        QCOMPARE(views::indirectBaseText(*load.catalog->findSponsor("no-indirect")),
            QStringLiteral("no cost"));
        QCOMPARE(views::indirectBaseText(cloudSpendOnlyRules()),
            QStringLiteral("cloud and recharge computing; every machine exempt as equipment"));
        QCOMPARE(views::indirectScopeText(cloudSpendOnlyRules(), 0.0), QString());
        QCOMPARE(views::indirectScopeText(cloudSpendOnlyRules(), 0.55),
            QStringLiteral("Costs include F&A at 55% on cloud and recharge computing; every "
                           "machine exempt as equipment (no sponsor's rules loaded)"));
        QCOMPARE(views::indirectScopeText(*load.catalog->findSponsor("no-indirect"), 0.5),
            QStringLiteral("No cost includes F&A: the sponsor's rules (No indirect costs) put the "
                           "rate of 50% on none"));
        QCOMPARE(views::listedWithAnd({ QStringLiteral("a") }), QStringLiteral("a"));
        QCOMPARE(
            views::listedWithAnd({ QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") }),
            QStringLiteral("a, b and c"));
    }

    void priceAgesAndSets()
    {
        QCOMPARE(views::priceDateText("2025-03-03", { 20, true, {} }),
            QStringLiteral("2025-03-03 (20 mo, stale)"));
        QCOMPARE(views::priceDateText("2025-03-03", {}), QStringLiteral("2025-03-03"));
        QCOMPARE(views::priceSetLabel("paper"), QStringLiteral("the paper's prices (2024-09-21)"));
        QCOMPARE(views::priceSetLabel("current"), QStringLiteral("current prices (2025-2026)"));
        // The paper's prices are 26 months old on 2026-11-23: every option is flagged.
        Scenario s;
        s.catalog = loadCatalog(shippedDataFiles(kPaperPriceSet)).catalog;
        s.assumptions = s.catalog->defaults;
        s.modelId = "pythia-1b";
        s.today = "2026-11-23";
        const Results r = evaluate(s);
        QVERIFY(r.options.front().priceAge.stale);
        QCOMPARE(*r.options.front().priceAge.months, 26);
        // The flag says which of the machine's prices it is (a fresh GPU price beside a stale
        // chassis read as a stale GPU price).
        // Every stale one of its prices (the paper's GPUs and chassis are all 2024's).
        for (const OwnedOption& o : r.options) {
            const bool system = o.system != nullptr;
            QCOMPARE(o.priceAge.of, std::string(system ? "system" : "GPU and chassis"));
            QVERIFY(views::flagList(o.estimate, o.priceAge)
                        .endsWith(system ? QStringLiteral("stale system price")
                                         : QStringLiteral("stale GPU and chassis prices")));
        }
        // At current prices, the RTX PRO 6000 Blackwell's price (2026-04) is fresh and the
        // desktop chassis it goes in (the paper's, 2024-09) is not.
        Scenario current = s;
        current.catalog = loadCatalog(shippedDataFiles("current")).catalog;
        current.assumptions = current.catalog->defaults;
        current.today = "2026-11-28";
        const Results now = evaluate(current);
        bool seen = false;
        for (const OwnedOption& o : now.options)
            if (o.gpu->id == "rtx-pro-6000-blackwell" && o.gpuCount == 1) {
                seen = true;
                QCOMPARE(o.priceAge.of, std::string("chassis"));
                QVERIFY(views::flagList(o.estimate, o.priceAge)
                            .endsWith(QStringLiteral("stale chassis price")));
            }
        QVERIFY(seen);
        QCOMPARE(views::stalePriceNote(r),
            QStringLiteral("The price or rate is older than 12 months on 2026-11-23, undated, or "
                           "dated after that day: check it before it goes into a budget (limit: "
                           "assumption stale_months)"));
        Results oneMonth = r; // one month, not "1 months"
        oneMonth.assumptions.staleMonths = 1;
        QVERIFY(views::stalePriceNote(oneMonth).startsWith(
            QStringLiteral("The price or rate is older than 1 month on 2026-11-23")));
        // Within the limit, nothing is flagged: the set's oldest rates (2024-01) are 19 months old.
        s.today = "2025-09-01";
        s.assumptions.staleMonths = 24;
        QVERIFY(views::stalePriceNote(evaluate(s)).isEmpty());
        // Ten days after the paper's quotes, the RTX 4090's street price of 2025-08 is dated
        // after the plan's day: flagged, not taken as fresh.
        s.today = "2024-10-01";
        const Results early = evaluate(s);
        QVERIFY(!views::stalePriceNote(early).isEmpty());
        for (const auto& o : early.options)
            if (o.gpu->id == "rtx-4090") {
                QCOMPARE(*o.priceAge.months, -10);
                QVERIFY(o.priceAge.stale);
                QCOMPARE(views::priceDateText(o.priceDate, o.priceAge),
                    QStringLiteral("2025-08 (after today, stale)"));
            }
    }

    // An offer of reservations only is shown at a planned run's share of its whole terms, not
    // at the term's rate per run (the paper's AWS p4de 5-year term: $4,968 at the rate, $50,374
    // a run of a 20-run plan), as pay-as-you-go offers are at theirs.
    void aReservationIsShownByItsTermsPerRun()
    {
        CloudOption o;
        o.cheapestCostUsd = 4968.0;
        o.cheapestPricing = Pricing::Reserved;
        o.cheapestReservedYears = 5.0;
        o.cheapestIsCommitment = true;
        o.termsPerPlannedRunUsd = 50374.0;
        QCOMPARE(views::displayText(o, views::CloudColumn::CheapestCost),
            QStringLiteral("$50,374 (reserved 5-yr, whole terms over the planned runs)"));
        QCOMPARE(views::sortValue(o, views::CloudColumn::CheapestCost).toDouble(), 50374.0);
        // Its range is the plan total's, per planned run (the CSV's cheapest_cost_usd_low/high
        // too), not the term's rate's.
        o.planTotalUsd = 20 * 50374.0;
        o.planTotalRange = { 0.9 * o.planTotalUsd, 1.2 * o.planTotalUsd };
        o.cheapestCostRange = { 4000.0, 6000.0 };
        QVERIFY(qFuzzyCompare(views::cheapestPerRunShownRange(o).low, 0.9 * 50374.0));
        QVERIFY(qFuzzyCompare(views::cheapestPerRunShownRange(o).high, 1.2 * 50374.0));
        QVERIFY(views::displayText(o, views::CloudColumn::CheapestCost)
                    .startsWith(QStringLiteral("$50,374 ($45,337-$60,449, reserved 5-yr")));
        o.termsPerPlannedRunUsd.reset(); // pay-as-you-go: the rate per run
        o.cheapestPricing = Pricing::OnDemand;
        o.cheapestReservedYears.reset();
        QCOMPARE(views::displayText(o, views::CloudColumn::CheapestCost),
            QStringLiteral("$4,968 ($4,000-$6,000, on-demand)"));
    }

    // A pod of 8 GPUs at the per-GPU rate is one instance that pays the rate 8 times: the table
    // says both, the rate column says it is the listed one, and the CSV has the billed count
    // beside the instances (rate x hours x instances was no longer the cost).
    void aPodIsOneInstanceBilledPerGpu()
    {
        CloudOption o;
        o.instances = 1;
        o.ratesBilled = 8;
        QCOMPARE(views::displayText(o, views::CloudColumn::Instances),
            QStringLiteral("1 (rate \u00D7 8)"));
        QCOMPARE(views::sortValue(o, views::CloudColumn::Instances).toInt(), 1);
        o.instances = 8; // eight 1-GPU instances
        QCOMPARE(views::displayText(o, views::CloudColumn::Instances), QStringLiteral("8"));
        QCOMPARE(views::displayHeader(views::CloudColumn::OnDemandRate, nullptr),
            QStringLiteral("On-demand $/h as listed"));
    }

    void commitments()
    {
        Commitment m;
        m.years = 1;
        m.termCostUsd = 210328.0;
        m.runsInTerm = 47.24;
        m.breakEvenRuns = 20.7;
        QCOMPARE(views::commitmentVerdict(m, 1),
            QStringLiteral(
                "a 1-yr commitment costs $210,328 for 47.2 runs back to back; within one "
                "term it beats on-demand from 20.7 runs, and for this plan of 1 run it does not"));
        m.breakEvenRunsRange = Interval { 14.24, 31.0 };
        QVERIFY(views::commitmentVerdict(m, 1).contains(
            QStringLiteral("it beats on-demand from 20.7 runs (14.2\u201331.0), and")));
        m.breakEvenRunsRange = Interval { 20.66, 20.74 }; // the same to one decimal: no range
        QVERIFY(views::commitmentVerdict(m, 1).contains(QStringLiteral("from 20.7 runs, and")));
        m.beatsOnDemandForPlan = true;
        QVERIFY(views::commitmentVerdict(m, 30).endsWith(
            QStringLiteral("for this plan of 30 runs it does")));
        // The ranges: the same verdict at both cost corners adds nothing, one that differs
        // says the ranges leave it open.
        m.beatsOnDemandAtLowCost = m.beatsOnDemandAtHighCost = true;
        QVERIFY(views::commitmentVerdict(m, 30).endsWith(
            QStringLiteral("for this plan of 30 runs it does")));
        m.termsForPlan = 2; // 60 runs of 47.2 a term
        QVERIFY(views::commitmentVerdict(m, 60).endsWith(
            QStringLiteral("for this plan of 60 runs (2 terms one after another) it does")));
        m.termsForPlan = 1;
        m.beatsOnDemandAtHighCost = false;
        QVERIFY(views::commitmentVerdict(m, 30).endsWith(
            QStringLiteral("for this plan of 30 runs it does at the central estimate; within the "
                           "ranges it may go either way")));
        m.beatsOnDemandForPlan = false;
        m.beatsOnDemandAtLowCost = false;
        m.beatsOnDemandAtHighCost = true;
        QVERIFY(views::commitmentVerdict(m, 1).endsWith(
            QStringLiteral("it does not at the central estimate; within the ranges it may go "
                           "either way")));
        m.breakEvenRuns.reset();
        QVERIFY(views::commitmentVerdict(m, 1).endsWith(
            QStringLiteral("(no on-demand rate to compare with)")));
    }

    // The recommendation keeps its rule's pick, and says when that pick's time cannot be
    // trusted, most serious reason first.
    void recommendationCautionNamesTheWorstFlag()
    {
        OwnedOption o;
        QCOMPARE(views::recommendationCaution(o), QString());
        o.estimate.flags = { EstimateFlag::UnsynchronisedTiming };
        QCOMPARE(views::recommendationCaution(o), QString()); // a source, not a verdict
        o.estimate.flags = { EstimateFlag::PerfectScaling, EstimateFlag::Suspect };
        QVERIFY(views::recommendationCaution(o).startsWith(
            QStringLiteral("Caution: Implied utilisation is 75% of peak or more")));
        o.estimate.flags.push_back(EstimateFlag::ExceedsPeak);
        QCOMPARE(views::recommendationCaution(o),
            QStringLiteral("Caution: Implied utilisation is above 100% of the GPUs' peak: "
                           "physically impossible, so this time is too short."));
        // An exchange-bound time is trusted, and said beside any other caution.
        o.estimate.flags.push_back(EstimateFlag::ExchangeBound);
        QCOMPARE(views::recommendationCaution(o),
            QStringLiteral("Caution: Implied utilisation is above 100% of the GPUs' peak: "
                           "physically impossible, so this time is too short. Caution: The GPUs "
                           "spend more of this time exchanging gradients (and parameters, where "
                           "sharded) than computing, below half the speed their compute alone "
                           "would give: their link, not the GPUs, sets the time, and more GPUs "
                           "over it buy little; fewer GPUs or a faster link may cost less per "
                           "run."));
    }

    // A recommendation that meets the deadline or budget at its central estimate only says so.
    void recommendationRangeNoteNamesWhatItCrosses()
    {
        Results r;
        r.hasRanges = true;
        r.options.resize(1);
        OwnedOption& o = r.options[0];
        o.daysRange = { 39.3, 86.4 };
        o.machineCostRange = { 30000.0, 38000.0 };
        QCOMPARE(views::recommendationRangeNote(r), QString()); // nothing recommended
        r.recommended = 0;
        r.deadlineDays = 60.0;
        QCOMPARE(views::recommendationRangeNote(r),
            QStringLiteral("Within the constraints at the central estimate only: its time's "
                           "range reaches 86 days, past the 60-day deadline."));
        r.budgetUsd = 35000.0;
        QVERIFY(views::recommendationRangeNote(r).endsWith(
            QStringLiteral("60-day deadline; and its price's range reaches $38,000, over the "
                           "$35,000 budget.")));
        r.deadlineDays = 90.0;
        r.budgetUsd = 40000.0;
        QCOMPARE(views::recommendationRangeNote(r), QString()); // the whole range keeps within
        r.deadlineDays = 60.0;
        r.hasRanges = false;
        QCOMPARE(views::recommendationRangeNote(r), QString());
    }

    // Days with their range, the ends never shifted by rounding.
    // One citation of an assumption for every view: source and date, the source alone without
    // a date (never "undated"), the user's own figure as theirs.
    void assumptionsAreCitedOneWay()
    {
        Provenance p;
        QCOMPARE(views::assumptionCitation(p), QString());
        p.source = "EIA Electric Power Monthly";
        QCOMPARE(views::assumptionCitation(p), QStringLiteral("EIA Electric Power Monthly"));
        p.date = "2024";
        QCOMPARE(views::assumptionCitation(p), QStringLiteral("EIA Electric Power Monthly, 2024"));
        p = {};
        p.source = std::string(kUserSupplied);
        QCOMPARE(views::assumptionCitation(p), QStringLiteral("user-supplied"));
    }

    // Offers are ranked by what a planned run costs: a reservation by its whole terms over the
    // runs, not by a run's share of its term.
    void reservationsRankByTheirTerms()
    {
        CloudOption payAsYouGo;
        payAsYouGo.cheapestCostUsd = 7085.0;
        CloudOption reservation;
        reservation.cheapestCostUsd = 3205.44; // a run's share of a $649,992 term
        reservation.cheapestIsCommitment = true;
        reservation.planTotalUsd = 649992.0;
        QCOMPARE(views::rankingCostPerRunUsd(payAsYouGo, 1), 7085.0);
        QCOMPARE(views::rankingCostPerRunUsd(reservation, 1), 649992.0);
        QCOMPARE(views::rankingCostPerRunUsd(reservation, 200), 649992.0 / 200);
        QVERIFY(views::rankingCostPerRunUsd(payAsYouGo, 1)
            < views::rankingCostPerRunUsd(reservation, 1));
    }

    // An hourly rate multiplies out: cents, and hundredths of a cent where it has them.
    void hourlyRatesAreShownAsPreciseAsTheyAre()
    {
        QCOMPARE(views::formatUsdPerHour(4.10), QStringLiteral("$4.10"));
        QCOMPARE(views::formatUsdPerHour(14.84 / 8), QStringLiteral("$1.855"));
        QCOMPARE(views::formatUsdPerHour(2.0), QStringLiteral("$2.00"));
        QCOMPARE(views::formatUsdPerHour(0.12345), QStringLiteral("$0.1235"));
    }

    void daysWithTheirRange()
    {
        TrainingEstimate e;
        e.days = 30.0;
        e.daysLow = 29.5;
        e.daysHigh = 30.5;
        QCOMPARE(views::daysText(e), QStringLiteral("30.0 days (29.5-30.5)"));
        // The point at the range's precision: "38 days (38.2-38.5)" read as outside it (review).
        e.days = 38.31;
        e.daysLow = 38.2;
        e.daysHigh = 38.5;
        QCOMPARE(views::daysText(e), QStringLiteral("38.3 days (38.2-38.5)"));
        e.days = 30.0;
        e.daysLow = 27.0;
        e.daysHigh = 34.0;
        QCOMPARE(views::daysText(e), QStringLiteral("30 days (27-34)"));
        e.days = 8.0;
        e.daysLow = 7.5;
        e.daysHigh = 8.5;
        QCOMPARE(views::daysText(e), QStringLiteral("8.0 days (7.5-8.5)"));
        e.daysLow = e.daysHigh = 8.0;
        QCOMPARE(views::daysText(e), QStringLiteral("8.0 days"));
    }

    // Energy per run carries its range like every other cost column.
    void energyPerRunWithItsRange()
    {
        OwnedOption o;
        o.energyCostUsd = 497.03;
        o.energyCostRange = { 350.0, 700.0 };
        QCOMPARE(views::displayText(o, views::OptionColumn::EnergyCost),
            QStringLiteral("$497.03 ($350.00-$700.00)"));
    }

    void pricing()
    {
        QCOMPARE(views::pricingLabel(Pricing::OnDemand), QStringLiteral("on-demand"));
        QCOMPARE(views::pricingLabel(Pricing::Spot), QStringLiteral("spot"));
        QCOMPARE(views::pricingLabel(Pricing::Reserved, 3.0), QStringLiteral("reserved 3-yr"));
    }

    // Each sensitivity input in its own unit: the tornado's bar ends and the CLI's table.
    void sensitivityInputs_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("machine price") << "purchase_price" << 4423.4 << "$4,423";
        QTest::newRow("cloud rate") << "cloud_rate" << 0.2 << "$0.20/h";
        QTest::newRow("training days") << "training_days" << 109.5 << "110 days";
        QTest::newRow("a range's end") << "training_days" << 29.5 << "29.5 days";
        QTest::newRow("one day") << "training_days" << 1.0 << "1 day";
        QTest::newRow("electricity") << "electricity_usd_per_kwh" << 0.0845 << "$0.0845/kWh";
        QTest::newRow("pue") << "pue" << 1.817 << "1.82";
        QTest::newRow("in use") << "machine_utilization" << 0.5 << "50%";
        QTest::newRow("years") << "amortization_years" << 3.0 << "3 years";
        QTest::newRow("one year") << "amortization_years" << 1.0 << "1 year";
        QTest::newRow("hosting") << "hosting_usd_per_kw_month" << 128.84 << "$128.84/kW-month";
        QTest::newRow("staff") << "staff_usd_per_year" << 12671.8 << "$12,672/year";
        QTest::newRow("support") << "support_rate" << 0.13 << "13%/year";
        QTest::newRow("small support") << "support_rate" << 0.013 << "1.3%/year";
        QTest::newRow("whole small share") << "support_rate" << 0.01 << "1%/year";
        QTest::newRow("near a thousand") << "staff_usd_per_year" << 999.6 << "$999.60/year";
        QTest::newRow("tiny tariff") << "electricity_usd_per_kwh" << 0.00005 << "$0.00005/kWh";
        QTest::newRow("rounds to one year") << "amortization_years" << 0.9996 << "1 year";
        QTest::newRow("runs a month") << "runs_per_month" << 999.6 << "1,000 runs/month";
    }

    void sensitivityInputs()
    {
        QFETCH(QString, input);
        QFETCH(double, value);
        QFETCH(QString, text);
        SensitivityRow row;
        row.input = input.toStdString();
        QCOMPARE(views::sensitivityInputText(row, value), text);
    }
    // Reservations held side by side are named with why, the years and what each year pays,
    // in the budget's notes (CLI and report) and, capitalised, in the justification, with the
    // terms where they differ; one at a time says nothing.
    void reservationsHeldAtOnceAreNoted()
    {
        GrantBudget b;
        b.pricing = Pricing::Reserved;
        b.runsPerYear = { 13, 1, 0 };
        b.reservationTermYears = { 3.0, 1.0 };
        b.reservationsNeededPerYear = { 2, 1, 0 };
        b.reservationsPaidPerYear = { 2, 1, 1 };
        const QString expected = QStringLiteral(
            "the runs of year 1 (13 runs) take longer than a year back to back, so reservations "
            "are held side by side; paid: 2 in year 1, 1 in year 2 and 1 in year 3. Each buys "
            "the terms cheapest for its own runs (here 3-yr and 1-yr terms).");
        QCOMPARE(views::budgetPricingLabel(b), QStringLiteral("reserved (3-yr and 1-yr terms)"));
        QCOMPARE(views::reservationsHeldText(b), expected);
        QVERIFY(views::budgetNotes(0.0, SponsorRules {}, b)
                    .contains(QStringLiteral("Note: ") + expected));
        // Runs longer than a year, one a year: side by side in the second year.
        b.reservedTermYears = 1.0;
        b.reservationTermYears = { 1.0 };
        b.reservationsNeededPerYear = { 1, 1, 0 };
        b.reservationsPaidPerYear = { 1, 2, 1 };
        QCOMPARE(views::reservationsHeldText(b),
            QStringLiteral("runs longer than a year overlap the next year's, so reservations are "
                           "held side by side; paid: 1 in year 1, 2 in year 2 and 1 in year 3."));
        QCOMPARE(views::budgetPricingLabel(b), QStringLiteral("reserved 1-yr"));
        // Years with nothing paid are left out; large counts are grouped.
        b.runsPerYear = { 26000, 0, 0 };
        b.reservationsNeededPerYear = { 2000, 0, 0 };
        b.reservationsPaidPerYear = { 2000, 0, 0 };
        QCOMPARE(views::reservationsHeldText(b),
            QStringLiteral("the runs of year 1 (26,000 runs) take longer than a year back to "
                           "back, so reservations are held side by side; paid: 2,000 in year "
                           "1."));
        b.reservationTermYears = { 1.0 };
        b.reservationsNeededPerYear = { 1, 0, 1 };
        b.reservationsPaidPerYear = { 1, 0, 1 };
        QVERIFY(views::reservationsHeldText(b).isEmpty());
        QVERIFY(views::budgetNotes(0.0, SponsorRules {}, b).isEmpty());
        // What is owed after the grant: one reservation by its term, several as such.
        b.reservedAfterGrantUsd = 4380.0;
        QCOMPARE(views::reservedAfterGrantText(b),
            QStringLiteral("the 1-year reservation runs past the grant's last year: a further "
                           "$4,380 before indirect costs is owed after it, outside this budget."));
        b.reservationsPaidPerYear = { 1, 2, 1 };
        QVERIFY(views::reservedAfterGrantText(b).startsWith(
            QStringLiteral("reservations run past the grant's last year")));
    }

    // Years one machine cannot run back to back: one sentence, the years listed as prose, in
    // the notes (CLI and report) as a warning; nothing where every year fits.
    void overfullYearsAreListedAsProse()
    {
        GrantBudget b;
        b.runsPerYear = { 25, 1, 25 };
        QVERIFY(views::overfullYearsText(b).isEmpty());
        QVERIFY(views::budgetNotes(0.0, SponsorRules {}, b).isEmpty());
        b.overfullYears = { 1 };
        QCOMPARE(views::overfullYearsText(b),
            QStringLiteral("the runs of year 1 do not fit on one machine back to back"));
        b.overfullYears = { 1, 3 };
        QCOMPARE(views::overfullYearsText(b),
            QStringLiteral("the runs of years 1 and 3 do not fit on one machine back to back"));
        QCOMPARE(views::budgetNotes(0.0, SponsorRules {}, b),
            QStringList { QStringLiteral(
                "Warning: the runs of years 1 and 3 do not fit on one machine back to back.") });
    }

    // Runs ending after the grant: said as they were counted, in the notes as a warning; a
    // rounding of the calendar (under a minute) is not.
    // A break-even of one run reads "1 run", not "1 runs"; a range keeps its plural.
    void aBreakEvenOfOneRunIsSingular()
    {
        QCOMPARE(views::breakEvenRangeText({ 0.4, 0.9 }), QStringLiteral("pays off after 1 run"));
        QCOMPARE(views::breakEvenRangeText({ 0.4, std::nullopt }),
            QStringLiteral("pays off after 1 run at best, or never"));
        QCOMPARE(views::breakEvenRangeText({ 0.4, 2.5 }),
            QStringLiteral("pays off after 1\u20133 runs"));
        QCOMPARE(views::breakEvenRangeText({ 8.2, 8.9 }), QStringLiteral("pays off after 9 runs"));
    }

    void runsPastTheGrantAreWarned()
    {
        GrantBudget b;
        b.runsPerYear = { 0, 0, 1 };
        b.daysPastGrant = 674.0;
        b.runsBackToBack = true;
        QCOMPARE(views::runsPastGrantText(b),
            QStringLiteral("the run ends 674 days after the grant's last day; it is budgeted in "
                           "the year it is planned"));
        b.runsPerYear = { 0, 3, 40 };
        QCOMPARE(views::runsPastGrantText(b),
            QStringLiteral("back to back on one machine, the runs end 674 days after the grant's "
                           "last day; each is budgeted in the year it is planned"));
        b.runsBackToBack = false;
        b.daysPastGrant = 5.0;
        QCOMPARE(views::budgetNotes(0.0, SponsorRules {}, b),
            QStringList { QStringLiteral("Warning: even side by side, the last runs end 5.0 days "
                                         "after the grant's last day; each is budgeted in the "
                                         "year it is planned.") });
        // Under a tenth of a day the overrun is in minutes or hours: "0.0 days after" had
        // warned of nothing.
        b.daysPastGrant = 0.03; // 43.2 minutes
        QCOMPARE(views::runsPastGrantText(b),
            QStringLiteral("even side by side, the last runs end 44 minutes after the grant's "
                           "last day; each is budgeted in the year it is planned"));
        b.daysPastGrant = 0.09;
        QVERIFY(views::runsPastGrantText(b).contains(QStringLiteral(" 2.2 hours after")));
        b.daysPastGrant = 1e-9;
        QVERIFY(views::runsPastGrantText(b).isEmpty());
        QCOMPARE(views::grantPlanProblemText(GrantPlanProblem::NoRuns, GrantPlan {}),
            QStringLiteral("the plan has no runs: plan at least one run in some year"));
    }

    // Rates as entered, to two decimals of a percent; a small fraction to three digits.
    void ratesAsNegotiated()
    {
        QCOMPARE(views::formatRate(0.5), QStringLiteral("50%"));
        QCOMPARE(views::formatRate(0.555), QStringLiteral("55.5%"));
        QCOMPARE(views::formatRate(0.5775), QStringLiteral("57.75%"));
        QCOMPARE(views::formatRate(0.0), QStringLiteral("0%"));
        QCOMPARE(views::formatQuantity(0.323, Unit::Fraction), QStringLiteral("32.3%"));
        QCOMPARE(views::formatQuantity(0.0125, Unit::Fraction), QStringLiteral("1.25%"));
        QCOMPARE(views::formatPercent(0.555), QStringLiteral("56%")); // measured shares
    }

    // Staff time without fringe benefits understates the personnel: said; with them, nothing.
    void staffWithoutFringeIsWarned()
    {
        GrantBudget b;
        b.runsPerYear = { 1, 1, 1 };
        b.lines.push_back({ BudgetCategory::Staff, { 905, 905, 905 }, 2715, false });
        const QString warning = QStringLiteral(
            "Warning: the staff time is budgeted without fringe benefits: set your institution's "
            "rate for staff (the Fringe benefits assumption; --fringe-rate in gpuplan-cli), or "
            "the personnel costs are understated.");
        QCOMPARE(views::budgetNotes(0.0, SponsorRules {}, b), QStringList { warning });
        b.lines.push_back({ BudgetCategory::Fringe, { 292, 292, 292 }, 876, false });
        QVERIFY(views::budgetNotes(0.0, SponsorRules {}, b).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestWording)
#include "tst_wording.moc"

// Scenario files (.gpuplan.yaml): round trip, defaults for what a file leaves out, and clear
// errors with line and column for bad files.

#include "pricing/catalog_loader.h"
#include "pricing/scenario/price_table_writer.h"
#include "pricing/scenario/scenario_file.h"

#include <QtTest>

using namespace gpuplan;

class TestScenarioFile : public QObject {
    Q_OBJECT

private:
    Assumptions defaults() const { return loadCatalog(shippedDataFiles()).catalog->defaults; }

private slots:
    void roundTripKeepsEverySetting()
    {
        Scenario s;
        s.modelId = "pythia-2.8b";
        s.source = SourcePolicy::PaperNaive;
        s.gpuCounts = { 2, 8 };
        s.gpuIds = { "a100-80gb-sxm", "h100-80gb-sxm" };
        s.budgetUsd = 123456.5;
        s.deadlineDays = 42.25;
        s.assumptions = defaults();
        s.assumptions.amortizationYears = 3.5;
        s.assumptions.machineUtilization = 0.6;
        s.assumptions.electricityUsdPerKwh = 0.21;
        s.assumptions.pue = 1.2;
        s.assumptions.spotRestartOverhead = 0.25;
        s.assumptions.indirectRate = 0.55;
        s.assumptions.analyticUtilization = 0.35;
        s.assumptions.plannedRuns = 12;
        s.assumptions.runsPerMonth = 2.5;

        const std::string text = writeScenario(s);
        const ScenarioRead read = readScenario(text, "plan.gpuplan.yaml", defaults());
        QVERIFY2(read.scenario, formatIssues(read.issues).c_str());
        QVERIFY(read.issues.empty());
        const Scenario& r = *read.scenario;
        QCOMPARE(r.modelId, s.modelId);
        QVERIFY(r.source == s.source);
        QCOMPARE(r.gpuCounts, s.gpuCounts);
        QCOMPARE(r.gpuIds, s.gpuIds);
        QCOMPARE(*r.budgetUsd, 123456.5);
        QCOMPARE(*r.deadlineDays, 42.25);
        QCOMPARE(r.assumptions.amortizationYears, 3.5);
        QCOMPARE(r.assumptions.machineUtilization, 0.6);
        QCOMPARE(r.assumptions.electricityUsdPerKwh, 0.21);
        QCOMPARE(r.assumptions.pue, 1.2);
        QCOMPARE(r.assumptions.spotRestartOverhead, 0.25);
        QCOMPARE(r.assumptions.indirectRate, 0.55);
        QCOMPARE(r.assumptions.analyticUtilization, 0.35);
        QCOMPARE(r.assumptions.plannedRuns, 12);
        QCOMPARE(r.assumptions.runsPerMonth, 2.5);
        // Writing what was read gives the same text: nothing is lost or reordered.
        QCOMPARE(writeScenario(r), text);
    }

    // Citations survive the file: the user's own figures stay "user-supplied" (listed under
    // user_supplied), a value the tables no longer give is the scenario's, not the user's nor
    // the new table's source's, and the others keep the tables' sources (review).
    void citationsSurviveTheRoundTrip()
    {
        Scenario s;
        s.modelId = "pythia-1b";
        s.assumptions = defaults();
        chooseAssumptionValue(s.assumptions, AssumptionId::ElectricityUsdPerKwh, 0.08);
        const AssumptionSpec& hosting = assumptionSpec(AssumptionId::HostingUsdPerKwMonth);
        chooseAssumptionValue(
            s.assumptions, AssumptionId::HostingUsdPerKwMonth, *hosting.suggested);
        const std::string text = writeScenario(s);
        QVERIFY2(text.find("user_supplied: [electricity_usd_per_kwh]") != std::string::npos,
            text.c_str());

        const ScenarioRead same = readScenario(text, "plan.gpuplan.yaml", defaults());
        QVERIFY2(same.scenario && same.issues.empty(), formatIssues(same.issues).c_str());
        const Assumptions& a = same.scenario->assumptions;
        QCOMPARE(a.source(AssumptionId::ElectricityUsdPerKwh).source, std::string(kUserSupplied));
        QCOMPARE(a.source(AssumptionId::HostingUsdPerKwMonth).source,
            std::string(hosting.suggestedSource));
        QCOMPARE(a.source(AssumptionId::Pue).source, defaults().source(AssumptionId::Pue).source);
        QCOMPARE(writeScenario(*same.scenario), text);

        // The tables changed since: the saved PUE is the scenario's.
        Assumptions newer = defaults();
        newer.pue = 1.4;
        const ScenarioRead later = readScenario(text, "plan.gpuplan.yaml", newer);
        QVERIFY(later.scenario);
        QCOMPARE(later.scenario->assumptions.pue, defaults().pue);
        QCOMPARE(later.scenario->assumptions.source(AssumptionId::Pue).source,
            std::string("the value saved with the scenario; the price tables now give another"));
        QCOMPARE(later.scenario->assumptions.source(AssumptionId::ElectricityUsdPerKwh).source,
            std::string(kUserSupplied));

        std::string bad = text;
        bad.replace(bad.find("[electricity_usd_per_kwh]"), 25, "[electricity]");
        // A key it does not know (a newer version's): warned with its position, the file opens.
        const ScenarioRead warned = readScenario(bad, "plan.gpuplan.yaml", defaults());
        QVERIFY(warned.scenario);
        QVERIFY2(formatIssues(warned.issues).find("plan.gpuplan.yaml:") != std::string::npos
                && formatIssues(warned.issues)
                        .find("user_supplied: 'electricity' is not an assumption's key; ignored")
                    != std::string::npos,
            formatIssues(warned.issues).c_str());
        QCOMPARE(warned.scenario->assumptions.source(AssumptionId::ElectricityUsdPerKwh).source,
            std::string("the value saved with the scenario; the price tables now give another"));
    }

    void viewSettingsRoundTrip()
    {
        Scenario s;
        s.modelId = "pythia-1b";
        s.assumptions = defaults();
        ScenarioView view;
        view.logAxes = false;
        view.buyGpuId = "h100-80gb-sxm";
        view.buyGpuCount = 4;
        view.buyMonths = true;
        view.buyOffers = std::vector<ScenarioCloudChoice> { { "runpod-h100-sxm", 4 },
            { "lambda-8xh100-sxm", 8 } };
        const std::string text = writeScenario(s, view);
        QVERIFY2(
            QString::fromStdString(text).contains(QStringLiteral("axis: months")), text.c_str());
        QVERIFY2(
            QString::fromStdString(text).contains(QStringLiteral("log_axes: false")), text.c_str());
        const ScenarioRead read = readScenario(text, "view.gpuplan.yaml", defaults());
        QVERIFY2(read.scenario, formatIssues(read.issues).c_str());
        QVERIFY(read.issues.empty());
        QCOMPARE(read.view.logAxes, std::optional<bool>(false));
        QCOMPARE(read.view.buyGpuId, std::optional<std::string>("h100-80gb-sxm"));
        QCOMPARE(read.view.buyGpuCount, std::optional<int>(4));
        QCOMPARE(read.view.buyMonths, std::optional<bool>(true));
        QVERIFY(read.view.buyOffers);
        QCOMPARE(read.view.buyOffers->size(), std::size_t { 2 });
        QCOMPARE(read.view.buyOffers->at(1).offerId, std::string("lambda-8xh100-sxm"));
        QCOMPARE(read.view.buyOffers->at(1).gpuCount, 8);
        QCOMPARE(writeScenario(*read.scenario, read.view), text);

        // No offer ticked is a choice too: it is kept as an empty list, not as "unset".
        view.buyOffers = std::vector<ScenarioCloudChoice> {};
        const ScenarioRead none
            = readScenario(writeScenario(s, view), "none.gpuplan.yaml", defaults());
        QVERIFY2(none.scenario, formatIssues(none.issues).c_str());
        QVERIFY(none.view.buyOffers && none.view.buyOffers->empty());

        // A file written before views were saved leaves every view as it is.
        const ScenarioRead old = readScenario(writeScenario(s), "old.gpuplan.yaml", defaults());
        QVERIFY(old.scenario);
        QVERIFY(old.view == ScenarioView {});
        QVERIFY(!QString::fromStdString(writeScenario(s)).contains(QStringLiteral("view")));
    }

    // The Budget tab's grant and what it budgets are saved with the plan and read back.
    void grantSettingsRoundTrip()
    {
        Scenario s;
        s.modelId = "pythia-1b";
        s.assumptions = defaults();
        ScenarioGrant grant;
        grant.plan.years = 3;
        grant.plan.startYear = 2027;
        grant.plan.startMonth = 7;
        grant.plan.runsPerYear = { 3, 4, 3 };
        grant.plan.equipmentYear = 2;
        grant.sponsorId = "us-federal-10k";
        ScenarioView view;
        view.budgetOffer = ScenarioCloudChoice { "lambda-8xa100-80gb", 8 };
        const std::string text = writeScenario(s, view, grant);
        QVERIFY2(QString::fromStdString(text).contains(
                     QStringLiteral("grant: {years: 3, start: 2027-07, runs_per_year: [3, 4, 3], "
                                    "equipment_year: 2, sponsor: us-federal-10k}")),
            text.c_str());
        const ScenarioRead read = readScenario(text, "grant.gpuplan.yaml", defaults());
        QVERIFY2(read.scenario, formatIssues(read.issues).c_str());
        QVERIFY(read.issues.empty());
        QVERIFY(read.grant == grant);
        QCOMPARE(read.view.budgetOffer->offerId, std::string("lambda-8xa100-80gb"));
        QCOMPARE(read.view.budgetOffer->gpuCount, 8);
        QVERIFY(!read.view.budgetGpuId);
        QVERIFY(!read.view.budgetReservedTerms);
        QCOMPARE(writeScenario(*read.scenario, read.view, read.grant), text);

        // An offer by its reserved terms keeps them.
        view.budgetReservedTerms = true;
        const std::string terms = writeScenario(s, view, grant);
        QVERIFY2(QString::fromStdString(terms).contains(QStringLiteral(
                     "budget: {offer: lambda-8xa100-80gb, gpu_count: 8, terms: reserved}")),
            terms.c_str());
        const ScenarioRead byTerms = readScenario(terms, "terms.gpuplan.yaml", defaults());
        QVERIFY2(byTerms.scenario, formatIssues(byTerms.issues).c_str());
        QVERIFY(byTerms.view.budgetReservedTerms);
        QCOMPARE(writeScenario(*byTerms.scenario, byTerms.view, byTerms.grant), terms);

        // Runs spread evenly (no list) and a machine to budget.
        grant.plan.runsPerYear.clear();
        grant.sponsorId.reset();
        view = {};
        view.budgetGpuId = "a100-80gb-sxm";
        view.budgetGpuCount = 4;
        const ScenarioRead even
            = readScenario(writeScenario(s, view, grant), "even.gpuplan.yaml", defaults());
        QVERIFY2(even.scenario, formatIssues(even.issues).c_str());
        QVERIFY(even.grant == grant);
        QCOMPARE(even.view.budgetGpuId, std::optional<std::string>("a100-80gb-sxm"));
        QCOMPARE(even.view.budgetGpuCount, std::optional<int>(4));

        // A file without a grant leaves the Budget tab's settings as they are.
        QVERIFY(!readScenario(writeScenario(s), "old.gpuplan.yaml", defaults()).grant);
    }

    void missingSettingsKeepTheDefaults()
    {
        const Assumptions d = defaults();
        const ScenarioRead read = readScenario(
            "schema_version: 1\nkind: gpuplan-scenario\nmodel: pythia-1b\n", "min.gpuplan.yaml", d);
        QVERIFY2(read.scenario, formatIssues(read.issues).c_str());
        QCOMPARE(read.scenario->modelId, std::string("pythia-1b"));
        QVERIFY(read.scenario->source == SourcePolicy::Best);
        QVERIFY(!read.scenario->budgetUsd);
        QCOMPARE(read.scenario->gpuCounts, (std::vector<int> { 1, 2, 4, 8 }));
        QCOMPARE(read.scenario->assumptions.pue, d.pue);
        QCOMPARE(read.scenario->assumptions.source(AssumptionId::ElectricityUsdPerKwh).source,
            d.source(AssumptionId::ElectricityUsdPerKwh).source);
    }

    void badFilesAreRejectedWithAPosition_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        const QString head = QStringLiteral("schema_version: 1\nkind: gpuplan-scenario\n");
        QTest::newRow("not a scenario")
            << QStringLiteral("schema_version: 1\nkind: gpuplan-bench-results\nmodel: x\n") << 2
            << QStringLiteral("not a scenario file");
        QTest::newRow("unknown source")
            << head + QStringLiteral("model: pythia-1b\nsource: guess\n") << 4
            << QStringLiteral("unknown source 'guess'");
        QTest::newRow("negative budget")
            << head + QStringLiteral("model: pythia-1b\nbudget_usd: -5\n") << 4
            << QStringLiteral("budget_usd");
        QTest::newRow("duplicate key")
            << head + QStringLiteral("model: pythia-1b\nmodel: pythia-2.8b\n") << 4
            << QStringLiteral("duplicate");
        QTest::newRow("pue below one")
            << head + QStringLiteral("model: pythia-1b\nassumptions:\n  pue: 0.5\n") << 5
            << QStringLiteral("pue");
        QTest::newRow("zero gpus") << head + QStringLiteral("model: pythia-1b\ngpu_counts: [0]\n")
                                   << 4 << QStringLiteral("gpu_counts");
        QTest::newRow("log axes not a boolean")
            << head + QStringLiteral("model: pythia-1b\nview: {log_axes: maybe}\n") << 4
            << QStringLiteral("log_axes");
        QTest::newRow("buy-vs-rent machine without a count")
            << head + QStringLiteral("model: pythia-1b\nview:\n  buy_vs_rent: {gpu: rtx-3090}\n")
            << 5 << QStringLiteral("gpu_count");
        QTest::newRow("buy-vs-rent axis neither runs nor months")
            << head
                + QStringLiteral("model: pythia-1b\nview:\n  buy_vs_rent: {gpu: rtx-3090, "
                                 "gpu_count: 2, axis: years}\n")
            << 5 << QStringLiteral("axis must be runs or months, not 'years'");
        QTest::newRow("buy-vs-rent offer without its count") << head
                + QStringLiteral("model: pythia-1b\nview:\n  buy_vs_rent:\n    gpu: rtx-3090\n"
                                 "    gpu_count: 2\n    offers:\n      - offer: vast-rtx-3090\n")
                                                             << 9 << QStringLiteral("gpu_count");
        QTest::newRow("unknown price set")
            << head + QStringLiteral("model: pythia-1b\nprice_set: 2019\n") << 4
            << QStringLiteral("unknown price_set '2019' (current or paper)");
        QTest::newRow("grant start not a month")
            << head + QStringLiteral("model: pythia-1b\ngrant:\n  years: 3\n  start: 2027-13\n")
            << 6
            << QStringLiteral("start must be a month, YYYY-MM, from 1900 to 2200, not '2027-13'");
        // Year 0 had opened as whatever the budget's date box kept from the scenario before.
        QTest::newRow("grant start in year 0")
            << head + QStringLiteral("model: pythia-1b\ngrant:\n  years: 3\n  start: 0000-05\n")
            << 6
            << QStringLiteral("start must be a month, YYYY-MM, from 1900 to 2200, not '0000-05'");
        QTest::newRow("grant runs per year not one per year")
            << head
                + QStringLiteral("model: pythia-1b\ngrant:\n  years: 3\n  runs_per_year: [3, 4]\n")
            << 6
            << QStringLiteral(
                   "runs_per_year has 2 entries for a grant of 3 years: give one per year");
        QTest::newRow("grant runs per year negative") << head
                + QStringLiteral("model: pythia-1b\ngrant:\n  years: 2\n  runs_per_year: [3, -1]\n")
                                                      << 6 << QStringLiteral("runs_per_year");
        QTest::newRow("grant of eleven years")
            << head + QStringLiteral("model: pythia-1b\ngrant: {years: 11}\n") << 4
            << QStringLiteral("years");
        QTest::newRow("machine bought after the grant")
            << head + QStringLiteral("model: pythia-1b\ngrant:\n  years: 2\n  equipment_year: 3\n")
            << 6 << QStringLiteral("equipment_year 3 is not a year of a 2-year grant");
        QTest::newRow("budget both a machine and an offer")
            << head
                + QStringLiteral("model: pythia-1b\nview:\n  budget: {gpu: rtx-3090, offer: "
                                 "vast-rtx-3090, gpu_count: 2}\n")
            << 5
            << QStringLiteral("budget needs a gpu (a machine) or an offer (a way to rent), "
                              "not both");
        QTest::newRow("budget terms other than reserved")
            << head
                + QStringLiteral("model: pythia-1b\nview:\n  budget: {offer: vast-rtx-3090, "
                                 "gpu_count: 2, terms: spot}\n")
            << 5 << QStringLiteral("budget terms must be 'reserved', not 'spot'");
        QTest::newRow("budget terms on a machine")
            << head
                + QStringLiteral("model: pythia-1b\nview:\n  budget: {gpu: rtx-3090, "
                                 "gpu_count: 2, terms: reserved}\n")
            << 5 << QStringLiteral("budget terms go with an offer (a way to rent), not a gpu");
        QTest::newRow("budget offer not an id")
            << head
                + QStringLiteral("model: pythia-1b\nview:\n  budget: {offer: Vast_3090, "
                                 "gpu_count: 2}\n")
            << 5 << QStringLiteral("'Vast_3090' is not a valid id for budget");
        QTest::newRow("gpu count not whole")
            << head + QStringLiteral("model: pythia-1b\ngpu_counts: [2.5, 2]\n") << 4
            << QStringLiteral("gpu_counts: 2.5 must be a whole number");
        QTest::newRow("grant runs per year not whole")
            << head
                + QStringLiteral(
                    "model: pythia-1b\ngrant:\n  years: 2\n  runs_per_year: [2.5, 3]\n")
            << 6 << QStringLiteral("runs_per_year: 2.5 must be a whole number");
        QTest::newRow("missing model") << head << 1 << QStringLiteral("model");
        QTest::newRow("not yaml") << head + QStringLiteral("model: [unclosed\n") << 0 << QString();
    }

    void badFilesAreRejectedWithAPosition()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, message);
        const ScenarioRead read = readScenario(text.toStdString(), "bad.gpuplan.yaml", defaults());
        QVERIFY(!read.scenario);
        QVERIFY(hasErrors(read.issues));
        const auto error = std::find_if(read.issues.begin(), read.issues.end(),
            [](const auto& i) { return i.severity == LoadIssue::Severity::Error; });
        const QString shown = QString::fromStdString(error->toString());
        QVERIFY2(shown.startsWith(QStringLiteral("bad.gpuplan.yaml:")), qPrintable(shown));
        QVERIFY2(error->line > 0, qPrintable(shown));
        if (line > 0)
            QVERIFY2(error->line == line, qPrintable(shown));
        QVERIFY2(shown.contains(message), qPrintable(shown));
    }

    void priceSetIsTheCatalogs()
    {
        Scenario s;
        s.modelId = "pythia-1b";
        s.assumptions = defaults();
        s.catalog = loadCatalog(shippedDataFiles(kPaperPriceSet)).catalog;
        const ScenarioRead read = readScenario(writeScenario(s), "paper.gpuplan.yaml", defaults());
        QVERIFY2(read.scenario, formatIssues(read.issues).c_str());
        QCOMPARE(read.priceSet, std::optional<std::string>("paper"));
        // A file from before price sets names none; the planner keeps its own.
        const ScenarioRead old
            = readScenario("schema_version: 1\nkind: gpuplan-scenario\nmodel: pythia-1b\n",
                "old.yaml", defaults());
        QVERIFY(old.scenario);
        QVERIFY(!old.priceSet);
    }

    // The GUI saves edits as a whole price file: read back over the set it came from, every
    // price, kind, system and offer is what was written.
    void priceTablesRoundTrip_data()
    {
        QTest::addColumn<QString>("priceSet");
        for (const auto& set : priceSetNames())
            QTest::newRow(set.c_str()) << QString::fromStdString(set);
    }
    void priceTablesRoundTrip()
    {
        QFETCH(QString, priceSet);
        auto files = shippedDataFiles(priceSet.toStdString());
        const auto shipped = loadCatalog(files).catalog;
        files.push_back({ "edited-prices.yaml", writePriceTables(*shipped) });
        const CatalogLoad load = loadCatalog(files);
        QVERIFY2(load.issues.empty(), formatIssues(load.issues).c_str());
        const Catalog& back = *load.catalog;
        QCOMPARE(back.gpus.size(), shipped->gpus.size());
        for (const GpuSpec& g : shipped->gpus) {
            const GpuSpec* b = back.findGpu(g.id);
            QVERIFY(b);
            QCOMPARE(b->priceUsd, g.priceUsd);
            QCOMPARE(b->priceSource.date, g.priceSource.date);
            QVERIFY(b->priceSource.kind == g.priceSource.kind);
            // A price's own range (RTX PRO 6000's retail $8,000-9,200) is kept.
            QCOMPARE(b->priceSource.lowUsd, g.priceSource.lowUsd);
            QCOMPARE(b->priceSource.highUsd, g.priceSource.highUsd);
        }
        if (priceSet == QLatin1String("current"))
            QCOMPARE(
                back.findGpu("rtx-pro-6000-blackwell")->priceSource.lowUsd, std::optional(8000.0));
        // A chassis keeps the power supplies its build lists (the paper's 2 x 3,200 W).
        QCOMPARE(back.chassis.size(), shipped->chassis.size());
        for (std::size_t i = 0; i < shipped->chassis.size(); ++i) {
            QCOMPARE(back.chassis[i].powerSupplies.count, shipped->chassis[i].powerSupplies.count);
            QCOMPARE(back.chassis[i].powerSupplies.wattsEach,
                shipped->chassis[i].powerSupplies.wattsEach);
            QCOMPARE(back.chassis[i].powerSupplies.source.source,
                shipped->chassis[i].powerSupplies.source.source);
        }
        QCOMPARE(back.findChassis("server-8gpu")->powerSupplies.totalWatts(), 6400.0);
        QCOMPARE(back.systems.size(), shipped->systems.size());
        for (std::size_t i = 0; i < shipped->systems.size(); ++i) {
            QCOMPARE(back.systems[i].id, shipped->systems[i].id);
            QCOMPARE(back.systems[i].priceUsd, shipped->systems[i].priceUsd);
            QCOMPARE(back.systems[i].gpuCount, shipped->systems[i].gpuCount);
            QVERIFY(back.systems[i].priceSource.kind == shipped->systems[i].priceSource.kind);
        }
        QCOMPARE(back.cloudOffers.size(), shipped->cloudOffers.size());
        for (const CloudOffer& o : shipped->cloudOffers) {
            const CloudOffer* b = back.findCloudOffer(o.id);
            QVERIFY(b);
            QVERIFY(b->kind == o.kind);
            QCOMPARE(b->onDemandUsdPerHour, o.onDemandUsdPerHour);
            QCOMPARE(b->spotUsdPerHour, o.spotUsdPerHour);
            QCOMPARE(b->reserved.size(), o.reserved.size());
            QCOMPARE(b->applicationLeadDays, o.applicationLeadDays);
            QCOMPARE(b->queueWaitDays, o.queueWaitDays);
            QCOMPARE(b->gpusPerInstance, o.gpusPerInstance);
            QCOMPARE(b->maxGpusPerInstance, o.maxGpusPerInstance);
            QCOMPARE(b->instanceGpuCounts, o.instanceGpuCounts);
            QCOMPARE(b->network.has_value(), o.network.has_value());
            if (o.network) {
                QCOMPARE(b->network->gbps, o.network->gbps);
                QCOMPARE(b->network->source.date, o.network->source.date);
                QCOMPARE(b->network->source.source, o.network->source.source);
                QCOMPARE(b->network->source.note, o.network->source.note);
            }
            QCOMPARE(b->region, o.region);
            QCOMPARE(b->source.date, o.source.date);
        }
        // Both sets rent RunPod's pods of up to 8 and GCP's V100s in VMs of 1, 2, 4 or 8,
        // which the comparison above then covers; the current set lists networks.
        const char* pod
            = priceSet == QLatin1String("current") ? "runpod-h100-sxm" : "runpod-rtx-4090";
        QCOMPARE(back.findCloudOffer(pod)->maxGpusPerInstance, 8);
        QCOMPARE(
            back.findCloudOffer("gcp-v100")->instanceGpuCounts, (std::vector<int> { 1, 2, 4, 8 }));
        if (priceSet == QLatin1String("current")) {
            QCOMPARE(back.findCloudOffer("aws-p5-4xlarge")->network->gbps, 100.0);
            QCOMPARE(back.findCloudOffer(pod)->network->source.date, std::string("2026-12-02"));
        }
    }

    void unknownKeysAreWarningsOnly()
    {
        const ScenarioRead read = readScenario(
            "schema_version: 1\nkind: gpuplan-scenario\nmodel: pythia-1b\ncolour: blue\n",
            "extra.gpuplan.yaml", defaults());
        QVERIFY(read.scenario);
        QCOMPARE(read.issues.size(), std::size_t { 1 });
        QVERIFY(read.issues.front().severity == LoadIssue::Severity::Warning);
        QVERIFY(QString::fromStdString(read.issues.front().message).contains("colour"));
    }
};

QTEST_APPLESS_MAIN(TestScenarioFile)
#include "tst_scenario_file.moc"

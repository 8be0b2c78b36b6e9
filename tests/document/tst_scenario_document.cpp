// The open scenario file without any widget: open and save round trips, refusals with their
// position, atomic saves, the recent-files list, the last scenario, and the view state kept by
// ids so that it survives a reordering of the results.

#include "app/document/scenario_document.h"
#include "pricing/catalog_loader.h"
#include "tests/support/golden.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuplan;
using gpuplan::testing::readAll;

namespace {

void write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

} // namespace

class TestScenarioDocument : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::shared_ptr<const Catalog> m_catalog;

    Scenario pythia1b() const
    {
        Scenario s;
        s.catalog = m_catalog;
        s.assumptions = m_catalog->defaults;
        s.modelId = "pythia-1b";
        return s;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(
            QSettings::IniFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        // The paper's prices: its 8 x A100 SXM server is a machine to keep the view state of.
        const CatalogLoad load = loadCatalog(shippedDataFiles(kPaperPriceSet));
        QVERIFY(load.ok());
        m_catalog = load.catalog;
    }
    void init() { QSettings().clear(); }

    void saveThenOpenKeepsEverything()
    {
        document::ScenarioDocument doc;
        QCOMPARE(doc.displayName(), QStringLiteral("Untitled scenario"));
        QSignalSpy pathChanged(&doc, &document::ScenarioDocument::pathChanged);
        Scenario s = pythia1b();
        s.budgetUsd = 40000;
        s.assumptions.pue = 4.0; // the files' bound is 5
        const QString path = m_dir.filePath(QStringLiteral("plan.gpuplan.yaml"));
        QString error;
        QVERIFY2(doc.save(path, s, {}, std::nullopt, &error), qPrintable(error));
        QCOMPARE(doc.path(), path);
        QCOMPARE(doc.displayName(), QStringLiteral("plan.gpuplan.yaml"));
        QCOMPARE(pathChanged.count(), 1);

        document::ScenarioDocument other;
        const auto opened = other.read(path, *m_catalog, &error);
        QVERIFY2(opened, qPrintable(error));
        QCOMPARE(opened->scenario.modelId, std::string("pythia-1b"));
        QCOMPARE(*opened->scenario.budgetUsd, 40000.0);
        QCOMPARE(opened->scenario.assumptions.pue, 4.0);
        QVERIFY(opened->warnings.isEmpty());
        QVERIFY(!opened->grant); // none was saved
        // Reading changes nothing: the window adopts the file only once it has opened it.
        QVERIFY(other.path().isEmpty());
        other.adopt(path, opened->digest);
        QCOMPARE(other.path(), path);
        QVERIFY(!other.changedOnDisk());
        QVERIFY(!doc.changedOnDisk());

        // The Budget tab's grant is saved with the plan.
        ScenarioGrant grant;
        grant.plan.years = 4;
        grant.plan.startYear = 2027;
        grant.plan.startMonth = 9;
        grant.plan.runsPerYear = { 1, 2, 2, 1 };
        grant.plan.equipmentYear = 1;
        grant.sponsorId = "no-indirect";
        QVERIFY2(doc.save(path, s, {}, grant, &error), qPrintable(error));
        // Another document's save is a change on disk to the one that had opened the file, not
        // to the one that wrote it.
        QVERIFY(other.changedOnDisk());
        QVERIFY(!doc.changedOnDisk());
        const auto withGrant = other.read(path, *m_catalog, &error);
        QVERIFY2(withGrant, qPrintable(error));
        QVERIFY(withGrant->grant == grant);
    }

    void refusalsNameTheFileAndLine_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected"); // after the path
        QTest::addRow("unknown source") << QByteArray(
            "schema_version: 1\nkind: gpuplan-scenario\nmodel: pythia-1b\nsource: x\n")
                                        << QStringLiteral(":4:9: error: unknown source 'x'");
        QTest::addRow("PUE above its bound")
            << QByteArray("schema_version: 1\nkind: gpuplan-scenario\nmodel: pythia-1b\n"
                          "assumptions: {pue: 6}\n")
            << QStringLiteral(":4:20: error: pue of assumptions = 6 is outside the plausible "
                              "range 1 to 5");
        QTest::addRow("unknown model")
            << QByteArray("schema_version: 1\nkind: gpuplan-scenario\nmodel: gpt-9\n")
            << QStringLiteral(":3:8: error: model 'gpt-9' is not in the price tables");
        QTest::addRow("a GPU count twice")
            << QByteArray("schema_version: 1\nkind: gpuplan-scenario\nmodel: pythia-1b\n"
                          "gpu_counts: [8, 8]\n")
            << QStringLiteral(":4:17: error: gpu_counts: 8 is listed twice");
        QTest::addRow("a GPU twice")
            << QByteArray("schema_version: 1\nkind: gpuplan-scenario\nmodel: pythia-1b\n"
                          "gpus: [a100-80gb-sxm, a100-80gb-sxm]\n")
            << QStringLiteral(":4:23: error: gpus: 'a100-80gb-sxm' is listed twice");
    }

    // A GPU the tables do not know (one that left them since the file was saved) is warned
    // about at its line and left out; it used to select nothing, and the scenario opened on
    // empty charts without a word.
    void unknownGpuIsLeftOutWithAWarning()
    {
        const QString path = m_dir.filePath(QStringLiteral("gpus.gpuplan.yaml"));
        write(path,
            "schema_version: 1\nkind: gpuplan-scenario\nmodel: pythia-1b\n"
            "gpus: [nosuch, a100-80gb-sxm]\n");
        document::ScenarioDocument doc;
        QString error;
        const auto opened = doc.read(path, *m_catalog, &error);
        QVERIFY2(opened, qPrintable(error));
        QCOMPARE(opened->scenario.gpuIds, std::vector<std::string> { "a100-80gb-sxm" });
        QVERIFY2(opened->warnings.startsWith(path
                     + QStringLiteral(":4:8: warning: gpus: 'nosuch' is not in the price tables; "
                                      "left out of the GPUs shown")),
            qPrintable(opened->warnings));

        // None known: no selection is every GPU, and the warnings say so.
        write(
            path, "schema_version: 1\nkind: gpuplan-scenario\nmodel: pythia-1b\ngpus: [nosuch]\n");
        const auto none = doc.read(path, *m_catalog, &error);
        QVERIFY2(none, qPrintable(error));
        QVERIFY(none->scenario.gpuIds.empty());
        QVERIFY2(none->warnings.contains(QStringLiteral(
                     "gpus: none of the GPUs listed is in the price tables; every GPU is shown")),
            qPrintable(none->warnings));
    }
    void refusalsNameTheFileAndLine()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const QString path = m_dir.filePath(QStringLiteral("bad.gpuplan.yaml"));
        write(path, text);
        document::ScenarioDocument doc;
        QString error;
        QVERIFY(!doc.read(path, *m_catalog, &error));
        QVERIFY2(error.startsWith(path + expected), qPrintable(error));
        QVERIFY(doc.path().isEmpty()); // nothing changed
        QVERIFY(doc.recentFiles().isEmpty());
    }

    void missingFileIsRefused()
    {
        document::ScenarioDocument doc;
        QString error;
        QVERIFY(!doc.read(m_dir.filePath(QStringLiteral("gone.gpuplan.yaml")), *m_catalog, &error));
        QVERIFY2(error.endsWith(QStringLiteral(
                     "gone.gpuplan.yaml: error: cannot open the file: it does not exist")),
            qPrintable(error));
        // A pipe is refused before it is read: it would block the window.
        QVERIFY(!doc.read(QStringLiteral("/dev/zero"), *m_catalog, &error));
        QCOMPARE(error, QStringLiteral("/dev/zero: error: not a regular file"));
    }

    void failedSaveKeepsTheOldFile()
    {
        document::ScenarioDocument doc;
        QString error;
        const QString path = m_dir.filePath(QStringLiteral("nowhere/plan.gpuplan.yaml"));
        QVERIFY(!doc.save(path, pythia1b(), {}, std::nullopt, &error));
        QVERIFY2(error.startsWith(QStringLiteral("cannot write ") + path), qPrintable(error));
        QVERIFY(doc.path().isEmpty());
    }

    void recentFilesAreNewestFirstAndBounded()
    {
        document::ScenarioDocument doc;
        QString error;
        for (int i = 0; i < document::ScenarioDocument::kMaxRecentFiles + 2; ++i)
            QVERIFY(doc.save(m_dir.filePath(QStringLiteral("r%1.gpuplan.yaml").arg(i)), pythia1b(),
                {}, std::nullopt, &error));
        // Saving an older one again moves it to the front, once.
        QVERIFY(doc.save(m_dir.filePath(QStringLiteral("r3.gpuplan.yaml")), pythia1b(), {},
            std::nullopt, &error));
        const QStringList recent = doc.recentFiles();
        QCOMPARE(recent.size(), document::ScenarioDocument::kMaxRecentFiles);
        QCOMPARE(recent.first(), m_dir.filePath(QStringLiteral("r3.gpuplan.yaml")));
        QCOMPARE(recent.count(m_dir.filePath(QStringLiteral("r3.gpuplan.yaml"))), 1);
        QCOMPARE(recent.at(1), m_dir.filePath(QStringLiteral("r9.gpuplan.yaml")));
        QVERIFY(!recent.contains(m_dir.filePath(QStringLiteral("r0.gpuplan.yaml"))));
    }

    // A file opened by a relative path (gpuplan plan.gpuplan.yaml) is remembered absolute: the
    // next start, from a desktop launcher, runs in another folder.
    void relativePathsAreRememberedAbsolute()
    {
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(m_dir.path()));
        document::ScenarioDocument doc;
        QString error;
        const bool saved
            = doc.save(QStringLiteral("rel.gpuplan.yaml"), pythia1b(), {}, std::nullopt, &error);
        doc.rememberAsLast();
        QVERIFY(QDir::setCurrent(before));
        QVERIFY2(saved, qPrintable(error));
        const QString absolute = m_dir.filePath(QStringLiteral("rel.gpuplan.yaml"));
        QCOMPARE(doc.path(), absolute);
        QCOMPARE(document::ScenarioDocument().lastScenario(), absolute);
        QCOMPARE(doc.recentFiles().first(), absolute);
    }

    void lastScenarioOnlyWhileItExists()
    {
        document::ScenarioDocument doc;
        QString error;
        const QString path = m_dir.filePath(QStringLiteral("last.gpuplan.yaml"));
        QVERIFY(doc.save(path, pythia1b(), {}, std::nullopt, &error));
        doc.rememberAsLast();
        QCOMPARE(document::ScenarioDocument().lastScenario(), path);
        QFile::remove(path);
        QVERIFY(document::ScenarioDocument().lastScenario().isEmpty());
    }

    void viewStateIsKeptByIds()
    {
        const Results r = evaluate(pythia1b());
        std::optional<std::size_t> machine;
        for (std::size_t i = 0; i < r.options.size(); ++i)
            if (r.options[i].gpu->id == "a100-80gb-sxm" && r.options[i].gpuCount == 8)
                machine = i;
        QVERIFY(machine);
        const auto offers = matchingCloudOffers(r, *machine);
        QVERIFY(offers.size() >= 2);
        document::ViewSelection chosen;
        chosen.logAxes = false;
        chosen.monthsAxis = true;
        chosen.machine = machine;
        chosen.offers = std::vector<std::size_t> { offers.back() };
        chosen.budget = BudgetTarget { BudgetTarget::Kind::Rented, offers.front() };
        const ScenarioView view = document::captureView(r, chosen);
        QCOMPARE(view.budgetOffer->offerId, r.cloud[offers.front()].offer->id);
        QVERIFY(!view.budgetGpuId);
        QCOMPARE(*view.buyGpuId, std::string("a100-80gb-sxm"));
        QCOMPARE(*view.buyGpuCount, 8);
        QCOMPARE(view.buyOffers->size(), std::size_t { 1 });
        QCOMPARE(view.buyOffers->front().offerId, r.cloud[offers.back()].offer->id);

        // Against results with fewer GPUs, the same ids find the same machine and offer at
        // other indices.
        Scenario narrower = pythia1b();
        narrower.gpuIds = { "a100-80gb-sxm" };
        const Results n = evaluate(narrower);
        const document::ViewSelection back = document::resolveView(view, n);
        QVERIFY(back.machine);
        QCOMPARE(n.options[*back.machine].gpu->id, std::string("a100-80gb-sxm"));
        QCOMPARE(n.options[*back.machine].gpuCount, 8);
        QCOMPARE(back.offers->size(), std::size_t { 1 });
        QCOMPARE(n.cloud[back.offers->front()].offer->id, view.buyOffers->front().offerId);
        QCOMPARE(*back.monthsAxis, true);
        QCOMPARE(*back.logAxes, false);
        QVERIFY(back.budget && back.budget->kind == BudgetTarget::Kind::Rented);
        QCOMPARE(n.cloud[back.budget->index].offer->id, view.budgetOffer->offerId);
        QCOMPARE(n.cloud[back.budget->index].gpuCount, view.budgetOffer->gpuCount);

        // A machine to budget is kept by GPU and count too.
        chosen.budget = BudgetTarget { BudgetTarget::Kind::Owned, *machine };
        const document::ViewSelection owned
            = document::resolveView(document::captureView(r, chosen), n);
        QVERIFY(owned.budget && owned.budget->kind == BudgetTarget::Kind::Owned);
        QCOMPARE(owned.budget->index, *back.machine);

        // A machine the results no longer have is left out, with its offers.
        Scenario without = pythia1b();
        without.gpuIds = { "rtx-3090" };
        const document::ViewSelection gone = document::resolveView(view, evaluate(without));
        QVERIFY(!gone.machine);
        QVERIFY(!gone.offers);
    }
};

QTEST_GUILESS_MAIN(TestScenarioDocument)
#include "tst_scenario_document.moc"

// The main window end to end (offscreen): assumptions re-plot, selection highlights, scenario
// files, measurements appear beside the paper's, price edits re-plot and save, menus.

#include "app/common/user_data.h"
#include "app/gui/assumptions_panel.h"
#include "app/gui/buy_vs_rent_view.h"
#include "app/gui/main_window.h"
#include "app/gui/option_table_model.h"
#include "app/gui/planner_session.h"
#include "app/gui/planner_view.h"
#include "app/gui/price_book.h"
#include "app/gui/price_tables_view.h"
#include "app/gui/user_files.h"
#include "app/render/chart_widget.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QUndoStack>
#include <QtTest>

using namespace gpuplan;
using namespace gpuplan::gui;

namespace {

const QString kFixture = QStringLiteral(GPUPLAN_TEST_DATA "/data/measured-pythia-1b-8xa100.yaml");

bool hasSeries(const render::ChartData& chart, const QString& name)
{
    return std::any_of(
        chart.series.begin(), chart.series.end(), [&](const auto& s) { return s.name == name; });
}

std::optional<std::size_t> optionOf(const Results& r, const std::string& gpu, int count)
{
    for (std::size_t i = 0; i < r.options.size(); ++i)
        if (r.options[i].gpu->id == gpu && r.options[i].gpuCount == count)
            return i;
    return std::nullopt;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

    QTemporaryDir m_data;
    QTemporaryDir m_files;

    std::unique_ptr<MainWindow> makeWindow()
    {
        auto window = std::make_unique<MainWindow>(loadUserCatalog().catalog);
        window->resize(1400, 900);
        return window;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_data.isValid() && m_files.isValid());
        qputenv("GPUPLAN_DATA_DIR", m_data.path().toUtf8());
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(
            QSettings::IniFormat, QSettings::UserScope, m_files.filePath("settings"));
        QCoreApplication::setOrganizationDomain(QStringLiteral("test.gpuplan.org"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_main_window"));
    }

    void cleanup()
    {
        // Each test starts with an empty user data dir.
        QDir(m_data.path()).removeRecursively();
        QDir().mkpath(m_data.path());
    }

    void viewsAndMenus()
    {
        auto w = makeWindow();
        QStringList tabs;
        for (int i = 0; i < w->tabs()->count(); ++i)
            tabs << w->tabs()->tabText(i);
        QVERIFY(tabs.contains(QStringLiteral("Planner")));
        QVERIFY(tabs.contains(QStringLiteral("Buy vs rent")));
        QVERIFY(tabs.contains(QStringLiteral("Price tables")));
        QStringList shortcuts;
        for (QAction* a : w->findChildren<QAction*>())
            for (const QKeySequence& k : a->shortcuts())
                shortcuts << k.toString();
        for (const char* expected :
            { "Ctrl+O", "Ctrl+S", "Ctrl+Z", "Ctrl+Shift+Z", "Ctrl+E", "F1" })
            QVERIFY2(shortcuts.contains(QLatin1String(expected)), expected);
        QVERIFY(w->windowTitle().contains(QStringLiteral("Untitled scenario")));
    }

    void everyAssumptionChangeReplots()
    {
        auto w = makeWindow();
        const Results before = w->session()->results();
        const auto a100 = optionOf(before, "a100-80gb-sxm", 8);
        QVERIFY(a100);
        auto* years = w->assumptionsPanel()->findChild<QDoubleSpinBox*>(
            QStringLiteral("amortizationYears"));
        QVERIFY(years);
        QCOMPARE(years->value(), 5.0);
        years->setValue(2.5);
        const Results& after = w->session()->results();
        QCOMPARE(after.assumptions.amortizationYears, 2.5);
        QCOMPARE(
            after.options[*a100].experimentCostUsd, 2.0 * before.options[*a100].experimentCostUsd);
        // The bottom chart shows the new cost.
        bool found = false;
        for (const auto& s : w->plannerView()->experimentChart()->chartData().series)
            for (const auto& p : s.points)
                if (p.optionIndex == static_cast<int>(*a100)) {
                    QCOMPARE(p.y, after.options[*a100].experimentCostUsd);
                    found = true;
                }
        QVERIFY(found);
        QVERIFY(w->isWindowModified());
    }

    void selectingARowHighlightsItsPoint()
    {
        auto w = makeWindow();
        QTableView* table = w->plannerView()->optionsTable();
        table->selectRow(2);
        const int option
            = table->model()->index(2, 0).data(OptionTableModel::OptionIndexRole).toInt();
        const auto& chart = w->plannerView()->hardwareChart()->chartData();
        QVERIFY(chart.highlight);
        QCOMPARE(chart.highlight->x, w->session()->results().options[option].machineCostUsd);
        QVERIFY(w->plannerView()->experimentChart()->chartData().highlight);
        // And the other way: a clicked point selects its row.
        emit w->plannerView()->hardwareChart()->optionClicked(5);
        QCOMPARE(table->currentIndex().data(OptionTableModel::OptionIndexRole).toInt(), 5);
    }

    void scenarioFileRoundTrip()
    {
        auto w = makeWindow();
        w->session()->setBudget(50000.0);
        w->session()->setModel("pythia-410m");
        const QString path = m_files.filePath(QStringLiteral("plan.gpuplan.yaml"));
        QString error;
        QVERIFY2(w->saveScenario(path, &error), qPrintable(error));
        QVERIFY(!w->isWindowModified());
        QVERIFY(w->windowTitle().contains(QStringLiteral("plan.gpuplan.yaml")));
        QVERIFY(QSettings()
                    .value(QStringLiteral("recentScenarios"))
                    .toStringList()
                    .contains(QFileInfo(path).absoluteFilePath()));

        auto other = makeWindow();
        QVERIFY2(other->openScenario(path, &error), qPrintable(error));
        QCOMPARE(other->session()->scenario().modelId, std::string("pythia-410m"));
        QCOMPARE(*other->session()->scenario().budgetUsd, 50000.0);
        QVERIFY(!other->isWindowModified());
        QCOMPARE(other->scenarioPath(), path);
    }

    void badScenarioIsRefusedWithItsPosition()
    {
        auto w = makeWindow();
        const QString path = m_files.filePath(QStringLiteral("bad.gpuplan.yaml"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("schema_version: 1\nkind: gpuplan-scenario\nmodel: pythia-1b\nsource: guess\n");
        f.close();
        QString error;
        QVERIFY(!w->openScenario(path, &error));
        QVERIFY2(error.contains(path + QStringLiteral(":4:")), qPrintable(error));
        QCOMPARE(w->session()->scenario().modelId, std::string("pythia-1b")); // unchanged
    }

    void importedMeasurementsAppearBesideThePapers()
    {
        auto w = makeWindow();
        QVERIFY(w->session()->comparisons().empty());
        const int rowsBefore = w->plannerView()->optionModel()->rowCount();
        QString error;
        QVERIFY2(w->importMeasurements(kFixture, &error), qPrintable(error));
        QCOMPARE(views::userResultFiles().size(), qsizetype { 1 });
        QVERIFY(!w->session()->comparisons().empty());
        QVERIFY(w->plannerView()->optionModel()->rowCount() > rowsBefore);
        QVERIFY(hasSeries(w->plannerView()->hardwareChart()->chartData(),
            QStringLiteral("Measured (gpuplan-bench)")));
        // The paper's and the analytic estimate of the measured GPU stay visible beside it.
        QVERIFY(hasSeries(
            w->plannerView()->hardwareChart()->chartData(), QStringLiteral("Paper, Table 1")));
        QVERIFY(hasSeries(
            w->plannerView()->hardwareChart()->chartData(), QStringLiteral("Analytic estimate")));
        for (const auto& c : w->session()->comparisons())
            for (const auto& o : c.options)
                QCOMPARE(o.gpu->id, std::string("a100-80gb-sxm"));
        // Best now prefers the measurement for 8×A100.
        const auto a100 = optionOf(w->session()->results(), "a100-80gb-sxm", 8);
        QVERIFY(a100);
        QVERIFY(w->session()->results().options[*a100].estimate.source == EstimateSource::Measured);
        QCOMPARE(w->session()->results().options[*a100].estimate.days, 20.0);

        QVERIFY(!w->importMeasurements(m_files.filePath(QStringLiteral("missing.yaml")), &error));
        QVERIFY(!error.isEmpty());
    }

    void reloadPicksUpNewResultsFiles()
    {
        auto w = makeWindow();
        QVERIFY(w->session()->catalog().measured.empty());
        QDir().mkpath(views::userDataDir() + QStringLiteral("/results"));
        QVERIFY(QFile::copy(kFixture, views::userDataDir() + QStringLiteral("/results/run.yaml")));
        QMetaObject::invokeMethod(w.get(), "reloadMeasurements");
        QCOMPARE(w->session()->catalog().measured.size(), std::size_t { 1 });
        QVERIFY(hasMeasurements(w->session()->catalog(), "pythia-1b"));
    }

    void benchmarkTabReloadsTheMeasurementsItSaves()
    {
        auto w = makeWindow();
        QWidget* bench = nullptr;
        for (int i = 0; i < w->tabs()->count(); ++i)
            if (w->tabs()->tabText(i) == QStringLiteral("Benchmark"))
                bench = w->tabs()->widget(i);
        if (!bench)
            QSKIP("built without app/benchview: no Benchmark tab");
        QDir().mkpath(views::userDataDir() + QStringLiteral("/results"));
        const QString saved = views::userDataDir() + QStringLiteral("/results/bench-run.yaml");
        QVERIFY(QFile::copy(kFixture, saved));
        // What the view emits once a run's results file is in the user results dir.
        QVERIFY(QMetaObject::invokeMethod(bench, "measurementsSaved", Q_ARG(QString, saved)));
        QCOMPARE(w->session()->catalog().measured.size(), std::size_t { 1 });
        QVERIFY(hasSeries(w->plannerView()->hardwareChart()->chartData(),
            QStringLiteral("Measured (gpuplan-bench)")));
    }

    void priceEditsReplotAndSave()
    {
        auto w = makeWindow();
        const auto a100 = optionOf(w->session()->results(), "a100-80gb-sxm", 8);
        QVERIFY(a100);
        const double before = w->session()->results().options[*a100].machineCostUsd;
        PriceBook* book = w->priceBook();
        int row = -1;
        for (std::size_t i = 0; i < book->catalog().gpus.size(); ++i)
            if (book->catalog().gpus[i].id == "a100-80gb-sxm")
                row = static_cast<int>(i);
        const double oldPrice = *book->catalog().gpus[row].priceUsd;
        QVERIFY(book->edit(PriceTable::Gpus, row, 1, QStringLiteral("10000")).isEmpty());
        const auto after = optionOf(w->session()->results(), "a100-80gb-sxm", 8);
        QCOMPARE(w->session()->results().options[*after].machineCostUsd,
            before - 8 * (oldPrice - 10000.0));
        QVERIFY(w->isWindowModified());
        QVERIFY(w->priceTablesView()->message().contains(QStringLiteral("Modified")));

        emit w->priceTablesView()->saveRequested();
        QVERIFY(QFileInfo::exists(editedPricesPath()));
        QVERIFY(!book->isModified());
        const CatalogLoad reloaded = loadUserCatalog();
        QVERIFY2(reloaded.ok(), qPrintable(issueText(reloaded.issues)));
        QCOMPARE(*reloaded.catalog->findGpu("a100-80gb-sxm")->priceUsd, 10000.0);
        // The saved file keeps every other entry as shipped.
        QCOMPARE(reloaded.catalog->gpus.size(), book->catalog().gpus.size());
        QCOMPARE(reloaded.catalog->cloudOffers.size(), book->catalog().cloudOffers.size());
    }

    void electricityEditReachesTheAssumptions()
    {
        auto w = makeWindow();
        QVERIFY(
            w->priceBook()->edit(PriceTable::Electricity, 0, 1, QStringLiteral("0.25")).isEmpty());
        QCOMPARE(w->session()->scenario().assumptions.electricityUsdPerKwh, 0.25);
        auto* spin
            = w->assumptionsPanel()->findChild<QDoubleSpinBox*>(QStringLiteral("electricityPrice"));
        QCOMPARE(spin->value(), 0.25);
        w->priceBook()->undoStack()->undo();
        QCOMPARE(w->session()->scenario().assumptions.electricityUsdPerKwh,
            w->priceBook()->catalog().defaults.electricityUsdPerKwh);
    }

    void buyVsRentStatesTheBreakEven()
    {
        auto w = makeWindow();
        const auto rtx = optionOf(w->session()->results(), "rtx-3090", 2);
        QVERIFY(rtx);
        w->buyVsRentView()->setMachine(*rtx);
        const QString words = w->buyVsRentView()->conclusion();
        QVERIFY2(words.contains(QStringLiteral("Buying 2×RTX 3090 pays off from run")),
            qPrintable(words));
        QVERIFY(!w->buyVsRentView()->chartData().series.empty());
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"

// The main window end to end (offscreen): assumptions re-plot, selection highlights, scenario
// files, measurements appear beside the paper's, price edits re-plot and save, menus; what the
// user is asked before losing anything (unsaved edits, a running benchmark), imports that never
// overwrite each other, settings restored at the next start, exports.

#include "app/common/budget_table.h"
#include "app/common/format.h"
#include "app/common/option_columns.h"
#include "app/common/user_data.h"
#include "app/common/wording.h"
#include "app/gui/assumptions_panel.h"
#include "app/gui/budget_view.h"
#include "app/gui/buy_vs_rent_view.h"
#include "app/gui/chart_actions.h"
#include "app/gui/main_window.h"
#include "app/gui/option_table_model.h"
#include "app/gui/planner_session.h"
#include "app/gui/planner_view.h"
#include "app/gui/price_book.h"
#include "app/gui/price_tables_view.h"
#include "app/gui/rental_filter_button.h"
#include "app/gui/user_files.h"
#include "app/render/buy_vs_rent_chart.h"
#include "app/render/chart_export.h"
#include "app/render/chart_widget.h"
#include "app/render/proposal_report.h"
#include "pricing/scenario/price_table_writer.h"

#include "app/benchview/benchmark_view.h"

#include "tests/support/golden.h"

#include "core/limits.h"
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDateEdit>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSet>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QUndoStack>

#include <QtTest>

using namespace gpuplan;
using gpuplan::testing::readAll;
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

// Answers the message boxes that come up next, in order, as a user would, and keeps their
// texts. It polls because QMessageBox::question runs its own event loop until answered.
class BoxAnswerer : public QObject {
public:
    explicit BoxAnswerer(QList<QMessageBox::StandardButton> answers)
        : m_answers(std::move(answers))
    {
        connect(&m_poll, &QTimer::timeout, this, &BoxAnswerer::answer);
        m_poll.start(10);
    }
    QStringList texts;
    bool answeredAll() const { return m_answers.isEmpty(); }

private:
    void answer()
    {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box || !box->isVisible() || m_answers.isEmpty())
            return;
        texts << box->text();
        QAbstractButton* button = box->button(m_answers.takeFirst());
        if (!button)
            qFatal("the message box has no such button: %s", qPrintable(box->text()));
        button->click();
    }

    QList<QMessageBox::StandardButton> m_answers;
    QTimer m_poll;
};

void writeFile(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        qFatal("cannot write %s", qPrintable(path));
}

// A price table as a supplier would send it: the shipped tables with one A100 price changed.
void writePriceFile(const QString& path, double a100Price)
{
    Catalog catalog = *loadCatalog(shippedDataFiles(kPaperPriceSet)).catalog;
    for (auto& g : catalog.gpus)
        if (g.id == "a100-80gb-sxm")
            g.priceUsd = a100Price;
    const std::string text = writePriceTables(catalog);
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(text.data(), static_cast<qint64>(text.size()));
}

// The action `text` in any menu of the menu bar ("&New scenario", "Open &recent"); nullptr if
// none.
QAction* menuAction(const MainWindow& w, const QString& text)
{
    for (QAction* menu : w.menuBar()->actions())
        for (QAction* a : menu->menu()->actions())
            if (a->text() == text)
                return a;
    return nullptr;
}

double a100Price(const MainWindow& w)
{
    return *w.priceBook()->catalog().findGpu("a100-80gb-sxm")->priceUsd;
}

int gpuRow(const MainWindow& w, const std::string& id)
{
    const auto& gpus = w.priceBook()->catalog().gpus;
    for (std::size_t i = 0; i < gpus.size(); ++i)
        if (gpus[i].id == id)
            return static_cast<int>(i);
    return -1;
}

// Gone means reaped: a zombie keeps its /proc entry until its parent waits for it.
bool processGone(qint64 pid)
{
    return pid > 0 && !QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid));
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

    // Most cases below buy the paper's 8 x A100 SXM server, which the current prices sell only as
    // a whole HGX system: they plan with the paper's price set, as a user may choose to.
    void init() { setCurrentPriceSet(QString::fromStdString(std::string(kPaperPriceSet))); }

    void cleanup()
    {
        // Each test starts with an empty user data dir.
        QDir(m_data.path()).removeRecursively();
        QDir().mkpath(m_data.path());
    }

    // The Budget tab: core's budget in the table, a plan that cannot be budgeted said in words,
    // and the justification on the clipboard as the text the view shows.
    void budgetViewShowsTheGrantBudget()
    {
        auto w = makeWindow();
        BudgetView* view = w->budgetView();
        QVERIFY(view);
        w->tabs()->setCurrentWidget(view);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(view->target());
        QCOMPARE(view->target()->kind, BudgetTarget::Kind::Owned);
        view->findChild<QLineEdit*>(QStringLiteral("runsPerYear"))
            ->setText(QStringLiteral("3,4,3"));
        const auto plan = view->plan();
        QVERIFY(plan);
        QCOMPARE(plan->runsPerYear, (std::vector<int> { 3, 4, 3 }));
        const Results& r = w->session()->results();
        const GrantBudget budget = grantBudget(r, *view->target(), *plan, *view->sponsor());
        auto* table = view->findChild<QTableWidget*>(QStringLiteral("budgetTable"));
        const int last = table->rowCount() - 1;
        QCOMPARE(table->item(last, 0)->text(), QStringLiteral("Total"));
        QCOMPARE(table->item(last, table->columnCount() - 1)->text(),
            views::formatWholeUsd(budget.totalUsd));
        QCOMPARE(table->item(0, 2)->text(), QStringLiteral("4")); // runs in year 2

        // On a laptop screen every row is in sight, the Total too (with shares of the height it
        // scrolled under the justification at 1280x800), and a narrower window keeps it there.
        for (const QSize size : { QSize(1280, 800), QSize(1100, 720) }) {
            w->resize(size);
            QTest::qWait(50); // the resize and the layout it asks for
            const QRect total = table->visualItemRect(table->item(last, 0));
            QVERIFY2(table->viewport()->rect().contains(total),
                qPrintable(QStringLiteral("%1x%2: Total row at y %3-%4, viewport %5 high")
                               .arg(size.width())
                               .arg(size.height())
                               .arg(total.top())
                               .arg(total.bottom())
                               .arg(table->viewport()->height())));
        }

        view->copyJustification();
        const QString copied = QApplication::clipboard()->text();
        QVERIFY(copied.startsWith(QStringLiteral("Budget justification: computing to train")));
        QCOMPARE(copied, view->justificationText());
        QVERIFY(copied.contains(
            QStringLiteral("We request ") + views::formatWholeUsd(budget.totalUsd)));

        // Behind another tab an assumption change leaves the table as it was until the tab is
        // shown again: the planner re-plots without budgeting a grant nobody sees.
        const QString total = table->item(last, table->columnCount() - 1)->text();
        w->tabs()->setCurrentIndex(0);
        QVERIFY(!view->isVisible());
        Assumptions dearer = w->session()->scenario().assumptions;
        dearer.electricityUsdPerKwh *= 2.0;
        w->session()->setAssumptions(dearer);
        const GrantBudget dearerBudget = grantBudget(
            w->session()->results(), *view->target(), *view->plan(), *view->sponsor());
        QVERIFY(views::formatWholeUsd(dearerBudget.totalUsd) != total);
        QCOMPARE(table->item(table->rowCount() - 1, table->columnCount() - 1)->text(), total);
        w->tabs()->setCurrentWidget(view);
        QCOMPARE(table->item(table->rowCount() - 1, table->columnCount() - 1)->text(),
            views::formatWholeUsd(dearerBudget.totalUsd));

        // The budget's notes stand under the sponsor's rules, as `gpuplan-cli budget` prints
        // them: here a rate the rules put on nothing.
        auto* sponsor = view->findChild<QComboBox*>(QStringLiteral("sponsor"));
        sponsor->setCurrentIndex(sponsor->findData(QStringLiteral("no-indirect")));
        Assumptions withRate = w->session()->scenario().assumptions;
        withRate.indirectRate = 0.5;
        w->session()->setAssumptions(withRate);
        const auto* note = view->findChild<QLabel*>(QStringLiteral("sponsorNote"));
        QVERIFY2(note->text().contains(QStringLiteral("put the indirect rate of 50% on no "
                                                      "category, so this budget has no indirect")),
            qPrintable(note->text()));

        view->findChild<QLineEdit*>(QStringLiteral("runsPerYear"))->setText(QStringLiteral("3,4"));
        QVERIFY(!view->plan());
        auto* problem = view->findChild<QLabel*>(QStringLiteral("budgetProblem"));
        QCOMPARE(problem->text(),
            QStringLiteral("Cannot budget: runs per year has 2 entries; the grant has 3 years."));
        QCOMPARE(table->rowCount(), 0);
    }

    // Runs typed per year are the plan's runs: Buy vs rent and the project totals count them.
    // Runs set programmatically (a scenario file) leave the planned runs as the file has them.
    void runsTypedPerYearBecomeThePlannedRuns()
    {
        auto w = makeWindow();
        BudgetView* view = w->budgetView();
        w->tabs()->setCurrentWidget(view);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QCOMPARE(w->session()->scenario().assumptions.plannedRuns, 1);
        auto* runs = view->findChild<QLineEdit*>(QStringLiteral("runsPerYear"));
        QCOMPARE(runs->placeholderText(), QStringLiteral("even: 1 run"));
        // A list the tab cannot budget (two entries for three years) changes nothing.
        QTest::keyClicks(runs, QStringLiteral("3,4"));
        QTest::keyClick(runs, Qt::Key_Return);
        QCOMPARE(w->session()->scenario().assumptions.plannedRuns, 1);
        QTest::keyClicks(runs, QStringLiteral(",3"));
        QCOMPARE(w->session()->scenario().assumptions.plannedRuns, 1); // not on every keystroke
        QTest::keyClick(runs, Qt::Key_Return);
        QCOMPARE(w->session()->scenario().assumptions.plannedRuns, 10);
        QCOMPARE(w->session()->results().assumptions.plannedRuns, 10);
        QCOMPARE(w->findChild<AssumptionsPanel*>()->assumptions().plannedRuns, 10); // the dock
        // And their pace, as the report plans them: 10 runs over the 36 months of a grant whose
        // machine is bought in year 1, so Buy vs rent's break-even months are the report's.
        QVERIFY(qAbs(w->session()->scenario().assumptions.runsPerMonth - 10.0 / 36.0) < 1e-12);
        render::ReportInput report;
        report.results = &w->session()->results();
        report.scenario = &w->session()->scenario();
        report.catalog = &w->session()->catalog();
        report.budgetTarget = view->target();
        report.grantPlan = view->plan();
        report.sponsor = view->sponsor();
        QVERIFY(!render::planAtGrantRuns(report)); // no other pace for the report to plan at
        QCOMPARE(runs->placeholderText(), QStringLiteral("even: 10 runs"));
        runs->setText(QStringLiteral("1,1,1"));
        QCOMPARE(w->session()->scenario().assumptions.plannedRuns, 10);
        // Runs per year and planned runs that disagree are said (the other views count 10).
        const auto* note = view->findChild<QLabel*>(QStringLiteral("sponsorNote"));
        QVERIFY2(note->text().contains(QStringLiteral(
                     "Note: the runs per year add up to 3, the Planned runs assumption is 10")),
            qPrintable(note->text()));
        runs->setText(QStringLiteral("4,3,3"));
        QVERIFY(!note->text().contains(QStringLiteral("runs per year add up")));
        QVERIFY(!note->text().contains(QStringLiteral("this grant's pace"))); // 10/36 typed
        // A run rate set apart from the grant's pace is said, with the pace the report plans
        // at: Buy vs rent's break-even months differ from the report's.
        Assumptions a = w->session()->scenario().assumptions;
        a.runsPerMonth = 1.0;
        w->session()->setAssumptions(a);
        QVERIFY2(note->text().contains(QStringLiteral(
                     "Note: the report plans buy vs rent at this grant's pace, 0.28 runs a "
                     "month over the months it has the compute; Buy vs rent counts the Run "
                     "rate, 1 run a month")),
            qPrintable(note->text()));
        QVERIFY(render::planAtGrantRuns(report));
        QVERIFY2(note->text().contains(QStringLiteral("Set the Run rate to 0.28 to see")),
            qPrintable(note->text()));
        // Owning costs by the month follow the pace too; with none counted, none is named.
        QVERIFY2(note->text().contains(QStringLiteral(
                     "1 run a month, so the break-even's months can differ from the report's")),
            qPrintable(note->text()));
        a.hostingUsdPerKwMonth = 100.0;
        w->session()->setAssumptions(a);
        QVERIFY2(note->text().contains(QStringLiteral(
                     "so the break-even's months, the owning costs each run carries and the "
                     "buy-vs-rent verdict can differ from the report's")),
            qPrintable(note->text()));
        a.hostingUsdPerKwMonth = 0.0;
        // A Run rate above what fits back to back: the note quotes the rate Buy vs rent counts,
        // the machine's capped one, not the rate typed (review).
        a.runsPerMonth = 5.0;
        w->session()->setAssumptions(a);
        const OwnedOption& budgeted = w->session()->results().options[view->target()->index];
        QVERIFY(budgeted.runsPerMonth < 4.0);
        QVERIFY2(note->text().contains(
                     QStringLiteral("Buy vs rent counts %1 (of the Run rate's 5 runs a month, as "
                                    "many as fit back to back)")
                         .arg(render::runRateText(budgeted.runsPerMonth))),
            qPrintable(note->text()));
        // Set as asked, at the box's two decimals, the note is gone.
        a.runsPerMonth = 0.28;
        w->session()->setAssumptions(a);
        QVERIFY(!note->text().contains(QStringLiteral("this grant's pace")));
    }

    // A machine chosen in the Planner stays that machine when a re-plot renumbers the options
    // (fewer GPU counts here; an edited price adding machines alike): the table row, the
    // chart's ring, Buy vs rent and the budget all name it, not whichever option now has its
    // old number.
    void theChosenMachineIsFoundAgainAfterARenumbering()
    {
        auto w = makeWindow();
        const auto before = optionOf(w->session()->results(), "a100-80gb-sxm", 2);
        QVERIFY(before);
        w->plannerView()->selectOption(*before);
        Scenario fewer = w->session()->scenario();
        fewer.gpuCounts = { 2, 4, 8 };
        w->session()->setScenario(fewer);
        const Results& r = w->session()->results();
        const auto after = optionOf(r, "a100-80gb-sxm", 2);
        QVERIFY(after);
        QVERIFY(*after != *before); // renumbered: the 1-GPU machines are gone
        QCOMPARE(w->plannerView()->selectedOption(), after);
        QCOMPARE(w->plannerView()->chartOptions().highlightOption, after);
        QCOMPARE(w->buyVsRentView()->machine(), after);
        QVERIFY(w->budgetView()->target());
        QCOMPARE(w->budgetView()->target()->index, *after);
        // A machine that is gone is no longer selected (rather than another in its place).
        fewer.gpuCounts = { 4, 8 };
        w->session()->setScenario(fewer);
        QCOMPARE(w->plannerView()->selectedOption(), std::nullopt);
    }

    // Until a machine is chosen, Buy vs rent and the budget follow the recommendation as the
    // budget and deadline move it (they kept the cheapest per experiment shown at start).
    void unchosenViewsFollowTheRecommendation()
    {
        auto w = makeWindow();
        const auto atStart = w->buyVsRentView()->machine();
        w->session()->setBudget(40000.0);
        w->session()->setDeadline(60.0);
        const auto recommended = w->session()->results().recommended;
        QVERIFY(recommended);
        QVERIFY(recommended != atStart); // else this would test nothing
        QCOMPARE(w->buyVsRentView()->machine(), recommended);
        QVERIFY(w->budgetView()->target());
        QCOMPARE(w->budgetView()->target()->index, *recommended);
        // Once chosen in the tab, the choice stays when the recommendation moves.
        const std::size_t other = *recommended == 0 ? 1 : 0;
        w->plannerView()->selectOption(other);
        w->session()->setBudget(std::nullopt);
        w->session()->setDeadline(std::nullopt);
        QCOMPARE(w->buyVsRentView()->machine(), std::optional<std::size_t>(other));
        QCOMPARE(w->budgetView()->target()->index, other);
        // A scenario keeps the choice; one saved without a choice keeps none, so that it opens
        // following the recommendation rather than pinned to what was shown.
        QString error;
        const QString chosen = m_files.filePath(QStringLiteral("chosen.gpuplan.yaml"));
        QVERIFY2(w->saveScenario(chosen, &error), qPrintable(error));
        QVERIFY(readAll(chosen).contains("buy_vs_rent: {gpu:"));
        // File > New forgets the choice: the views follow the recommendation again.
        QAction* newScenario = menuAction(*w, QStringLiteral("&New scenario"));
        QVERIFY(newScenario);
        newScenario->trigger();
        QVERIFY(!w->buyVsRentView()->machineChosen());
        QVERIFY(!w->budgetView()->targetChosen());
        w->session()->setBudget(40000.0);
        w->session()->setDeadline(60.0);
        QCOMPARE(w->buyVsRentView()->machine(), w->session()->results().recommended);
        const QString unchosen = m_files.filePath(QStringLiteral("unchosen.gpuplan.yaml"));
        QVERIFY2(w->saveScenario(unchosen, &error), qPrintable(error));
        QVERIFY2(!readAll(unchosen).contains("buy_vs_rent: {gpu:"), readAll(unchosen).constData());
        QVERIFY(!readAll(unchosen).contains("budget: {"));
        // Opening the chosen one applies its choice.
        QVERIFY2(w->openScenario(chosen, &error), qPrintable(error));
        QVERIFY(w->buyVsRentView()->machineChosen());
        QCOMPARE(w->buyVsRentView()->machine(), std::optional<std::size_t>(other));
    }

    // The grant, the sponsor and what is budgeted are part of the plan: a change marks the
    // scenario modified, saving keeps them and reopening shows the same budget.
    void budgetSettingsAreSavedWithTheScenario()
    {
        auto w = makeWindow();
        BudgetView* view = w->budgetView();
        const auto a100 = optionOf(w->session()->results(), "a100-80gb-sxm", 4);
        QVERIFY(a100);
        view->setMachine(*a100);
        QVERIFY(!w->isWindowModified()); // following the planner's selection is not an edit
        view->findChild<QSpinBox*>(QStringLiteral("grantYears"))->setValue(4);
        QVERIFY(w->isWindowModified());
        view->findChild<QLineEdit*>(QStringLiteral("runsPerYear"))
            ->setText(QStringLiteral("0,3,4,3"));
        view->findChild<QSpinBox*>(QStringLiteral("equipmentYear"))->setValue(2);
        auto* sponsor = view->findChild<QComboBox*>(QStringLiteral("sponsor"));
        // The chosen rules' caveats stand under them (US federal: ask about electricity).
        const auto* note = view->findChild<QLabel*>(QStringLiteral("sponsorNote"));
        QVERIFY(note);
        QVERIFY2(note->text().contains(QStringLiteral("whether electricity may be budgeted")),
            qPrintable(note->text()));
        QCOMPARE(w->session()->results().indirectRules.id, std::string("us-federal"));
        sponsor->setCurrentIndex(sponsor->findData(QStringLiteral("no-indirect")));
        // The rules weigh F&A in every view's costs, not only the budget's: the plan's.
        QCOMPARE(w->session()->results().indirectRules.id, std::string("no-indirect"));
        QCOMPARE(view->sponsor()->id, std::string("no-indirect"));
        view->findChild<QDateEdit*>(QStringLiteral("grantStart"))->setDate(QDate(2028, 3, 1));
        const QString justification = view->justificationText();
        QVERIFY(!justification.isEmpty());
        const QString path = m_files.filePath(QStringLiteral("grant.gpuplan.yaml"));
        QString error;
        QVERIFY2(w->saveScenario(path, &error), qPrintable(error));
        const QByteArray saved = readAll(path);
        QVERIFY2(saved.contains("grant: {years: 4, start: 2028-03, runs_per_year: [0, 3, 4, 3], "
                                "equipment_year: 2, sponsor: no-indirect}"),
            saved.constData());
        QVERIFY2(saved.contains("budget: {gpu: a100-80gb-sxm, gpu_count: 4}"), saved.constData());

        auto other = makeWindow();
        QVERIFY2(other->openScenario(path, &error), qPrintable(error));
        BudgetView* reopened = other->budgetView();
        QCOMPARE(reopened->target()->kind, BudgetTarget::Kind::Owned);
        QCOMPARE(reopened->target()->index, *a100);
        QCOMPARE(reopened->plan()->runsPerYear, (std::vector<int> { 0, 3, 4, 3 }));
        QCOMPARE(reopened->plan()->equipmentYear, 2);
        QCOMPARE(reopened->sponsor()->id, std::string("no-indirect"));
        QCOMPARE(other->session()->results().indirectRules.id, std::string("no-indirect"));
        QCOMPARE(reopened->justificationText(), justification);
        QVERIFY(!other->isWindowModified());

        // A file naming rules that are not loaded plans by the default ones, not by the rules
        // of the scenario open before (no-indirect here), and says so.
        QByteArray unknown = saved;
        unknown.replace("sponsor: no-indirect", "sponsor: my-univ");
        const QString unknownPath
            = m_files.filePath(QStringLiteral("unknown-sponsor.gpuplan.yaml"));
        {
            QFile file(unknownPath);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(unknown);
        }
        QVERIFY2(other->openScenario(unknownPath, &error), qPrintable(error));
        QCOMPARE(other->session()->results().indirectRules.id, std::string("us-federal"));
        QVERIFY2(other->statusBar()->currentMessage().contains(
                     QStringLiteral("The scenario's sponsor 'my-univ' is not among the loaded "
                                    "sponsors' rules; the plan and budget use US federal")),
            qPrintable(other->statusBar()->currentMessage()));
        QVERIFY(!other->isWindowModified());
    }

    void viewsAndMenus()
    {
        auto w = makeWindow();
        QStringList tabs;
        for (int i = 0; i < w->tabs()->count(); ++i)
            tabs << w->tabs()->tabText(i);
        QVERIFY(tabs.contains(QStringLiteral("Planner")));
        QVERIFY(tabs.contains(QStringLiteral("Buy vs rent")));
        QVERIFY(tabs.contains(QStringLiteral("Budget")));
        QVERIFY(tabs.contains(QStringLiteral("Price tables")));
        QStringList shortcuts;
        for (QAction* a : w->findChildren<QAction*>())
            for (const QKeySequence& k : a->shortcuts())
                shortcuts << k.toString();
        for (const char* expected :
            { "Ctrl+O", "Ctrl+S", "Ctrl+Z", "Ctrl+Shift+Z", "Ctrl+Shift+E", "F1" })
            QVERIFY2(shortcuts.contains(QLatin1String(expected)), expected);
        QVERIFY(w->windowTitle().contains(QStringLiteral("Untitled scenario")));
    }

    // Keyboard use (review): Tab leaves every table, and no two entries of a menu, nor a button
    // and a menu title, share a mnemonic (Alt+F R had opened nothing; Alt+V on the Budget tab
    // focused a button instead of opening View); Ctrl+E, which a text field takes for "end of
    // line", is not a window shortcut.
    void keyboardUseIsNotTrapped()
    {
        auto w = makeWindow();
        const auto tables = w->findChildren<QAbstractItemView*>();
        QVERIFY(tables.size() >= 4);
        for (const QAbstractItemView* table : tables)
            if (qobject_cast<const QTableView*>(table))
                QVERIFY2(!table->tabKeyNavigation(), qPrintable(table->objectName()));
        const auto mnemonic = [](const QString& text) {
            const qsizetype at = text.indexOf(QRegularExpression(QStringLiteral("&[^&]")));
            return at < 0 ? QChar() : text.at(at + 1).toLower();
        };
        QSet<QChar> titles;
        for (QAction* top : w->menuBar()->actions()) {
            const QChar title = mnemonic(top->text());
            QVERIFY2(!titles.contains(title), qPrintable(top->text()));
            titles.insert(title);
            QSet<QChar> entries;
            for (QAction* entry : top->menu()->actions()) {
                const QChar key = mnemonic(entry->text());
                if (key.isNull())
                    continue;
                QVERIFY2(!entries.contains(key), qPrintable(top->text() + " " + entry->text()));
                entries.insert(key);
            }
        }
        for (const QAbstractButton* button : w->findChildren<QAbstractButton*>())
            QVERIFY2(!titles.contains(mnemonic(button->text())), qPrintable(button->text()));
        QStringList shortcuts;
        for (QAction* a : w->findChildren<QAction*>())
            for (const QKeySequence& k : a->shortcuts())
                shortcuts << k.toString();
        QVERIFY(!shortcuts.contains(QStringLiteral("Ctrl+E")));
    }

    // The smallest the window can be fits a 1024x768 screen, and a 1366x768 laptop at 125 %
    // (1093x614), with room for a window frame and a desktop panel. It needed 1229 px wide while
    // control rows kept one line (the Planner's alone 939 px), and 1243x784 before the charts
    // could shrink and the Assumptions dock could put a field under its label.
    void theWindowFitsASmallScreen()
    {
        auto w = makeWindow();
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        const QSize smallest = w->minimumSizeHint().expandedTo(w->minimumSize());
        QVERIFY2(smallest.width() <= 1024 - 16 && smallest.height() <= 614 - 60,
            qPrintable(QStringLiteral("%1x%2").arg(smallest.width()).arg(smallest.height())));
        // There, the Planner's controls wrap onto a second line and stay visible.
        w->resize(smallest);
        QTest::qWait(50);
        const auto* deadline = w->findChild<QWidget*>(QStringLiteral("deadline"));
        QVERIFY(deadline->isVisible());
        const QPoint at = deadline->mapTo(w.get(), QPoint(deadline->width(), 0));
        QVERIFY2(at.x() <= w->width(), qPrintable(QString::number(at.x())));
        QVERIFY(deadline->mapTo(w.get(), QPoint(0, 0)).y()
            > w->findChild<QWidget*>(QStringLiteral("model"))->mapTo(w.get(), QPoint(0, 0)).y());
    }

    // Both tables open sorted A to Z by their first column (Qt's default is Z to A).
    void tablesOpenSortedAToZ()
    {
        auto w = makeWindow();
        for (const char* name : { "optionsTable", "cloudTable" }) {
            const auto* table = w->findChild<QTableView*>(QLatin1String(name));
            QVERIFY2(table, name);
            const QAbstractItemModel* model = table->model();
            QVERIFY(model->rowCount() > 1);
            QCOMPARE(table->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
            const QString first = model->index(0, 0).data().toString();
            const QString last = model->index(model->rowCount() - 1, 0).data().toString();
            QVERIFY2(QString::localeAwareCompare(first, last) <= 0,
                qPrintable(first + QStringLiteral(" > ") + last));
        }
    }

    // What a PI reads first sits next to the row's name on screen: the options' flags (above
    // peak, stale price) and a rental's cost per run were a page of scrolling to the right on a
    // laptop. The CSV and the CLI keep their own column order.
    void tablesShowFlagsAndCostsNearTheName()
    {
        auto w = makeWindow();
        const auto* options = w->findChild<QTableView*>(QStringLiteral("optionsTable"));
        const auto* cloud = w->findChild<QTableView*>(QStringLiteral("cloudTable"));
        QVERIFY(options && cloud);
        const auto visual = [](const QTableView* table, const QString& header) {
            for (int c = 0; c < table->model()->columnCount(); ++c)
                if (table->model()->headerData(c, Qt::Horizontal).toString().startsWith(header))
                    return table->horizontalHeader()->visualIndex(c);
            return -1;
        };
        QCOMPARE(visual(options, QStringLiteral("GPU")), 0);
        QCOMPARE(visual(options, QStringLiteral("Flags")), 6);
        QCOMPARE(visual(cloud, QStringLiteral("Provider")), 0);
        QCOMPARE(visual(cloud, QStringLiteral("Cheapest")), 4);
        QCOMPARE(views::header(views::OptionColumn::Flags),
            options->model()->headerData(
                static_cast<int>(views::OptionColumn::Flags), Qt::Horizontal));
    }

    // A column whose header grows (the indirect rate adds "(with F&A)") is sized anew: it was
    // cut to "er experiment (with F&A", the part that says what the figures hold.
    void aLongerHeaderWidensItsColumn()
    {
        auto w = makeWindow();
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        auto* table = w->findChild<QTableView*>(QStringLiteral("optionsTable"));
        QVERIFY(table);
        Assumptions withRate = w->session()->scenario().assumptions;
        withRate.indirectRate = 0.5;
        w->session()->setAssumptions(withRate);
        const QAbstractItemModel* model = table->model();
        int widened = 0;
        for (int c = 0; c < model->columnCount(); ++c) {
            const QString header = model->headerData(c, Qt::Horizontal).toString();
            if (!header.contains(QStringLiteral("(with F&A)")))
                continue;
            ++widened;
            QVERIFY2(table->columnWidth(c) >= table->horizontalHeader()->sectionSizeHint(c),
                qPrintable(QStringLiteral("%1: %2 px for %3")
                               .arg(header)
                               .arg(table->columnWidth(c))
                               .arg(table->horizontalHeader()->sectionSizeHint(c))));
        }
        QVERIFY(widened >= 2); // per experiment, energy per run
        // Each cost cell's tooltip says whether its figure holds F&A, which the header cannot:
        // a machine from the equipment threshold carries none on its price (review).
        int perExperiment = -1;
        for (int c = 0; c < model->columnCount(); ++c)
            if (model->headerData(c, Qt::Horizontal).toString().startsWith("Per experiment"))
                perExperiment = c;
        QVERIFY(perExperiment >= 0);
        QStringList tips;
        for (int row = 0; row < model->rowCount(); ++row)
            tips << model->index(row, perExperiment).data(Qt::ToolTipRole).toString();
        QVERIFY2(tips.filter(QStringLiteral("Includes F&A at 50% on the machine.")).size() > 0,
            qPrintable(tips.join(QLatin1Char('|'))));
        QVERIFY(
            tips.filter(QStringLiteral("Carries no F&A under these sponsor rules.")).size() > 0);
    }

    // The header takes no focus: Alt+Up and Alt+Down sort by the current cell's column, as the
    // table's context menu does.
    void tablesSortFromTheKeyboard()
    {
        auto w = makeWindow();
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        auto* table = w->findChild<QTableView*>(QStringLiteral("optionsTable"));
        QVERIFY(table);
        table->setFocus();
        table->setCurrentIndex(table->model()->index(0, 1)); // GPUs
        QTest::keyClick(table, Qt::Key_Down, Qt::AltModifier);
        QCOMPARE(table->horizontalHeader()->sortIndicatorSection(), 1);
        QCOMPARE(table->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        const QAbstractItemModel* model = table->model();
        QCOMPARE(model->index(0, 1).data().toInt(), 8);
        QCOMPARE(model->index(model->rowCount() - 1, 1).data().toInt(), 1);
        QTest::keyClick(table, Qt::Key_Up, Qt::AltModifier);
        QCOMPARE(table->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
        QCOMPARE(model->index(0, 1).data().toInt(), 1);
        QCOMPARE(table->actions().size(), 2);
        QCOMPARE(table->contextMenuPolicy(), Qt::ActionsContextMenu);
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
        // A sourced value is offered with its unit.
        auto* hosting = w->assumptionsPanel()->findChild<QToolButton*>(
            QStringLiteral("hostingUsdPerKwMonthSuggested"));
        QVERIFY(hosting);
        QVERIFY2(hosting->toolTip().startsWith(
                     QStringLiteral("Use $184.06/kW-month: CBRE North America Data Center")),
            qPrintable(hosting->toolTip()));
    }

    // A value typed back to the price tables' own is cited with their source again, not as the
    // user's ("user-supplied" for the shipped EIA tariff after a typo was undone).
    void aValueTypedBackToTheTablesIsTheirs()
    {
        auto w = makeWindow();
        auto* electricity
            = w->assumptionsPanel()->findChild<QDoubleSpinBox*>(QStringLiteral("electricityPrice"));
        QVERIFY(electricity);
        const double tables = electricity->value();
        const std::string shipped = w->session()
                                        ->scenario()
                                        .assumptions.source(AssumptionId::ElectricityUsdPerKwh)
                                        .source;
        QVERIFY(!shipped.empty() && shipped != kUserSupplied);
        electricity->setValue(0.2);
        QCOMPARE(
            w->session()->scenario().assumptions.source(AssumptionId::ElectricityUsdPerKwh).source,
            std::string(kUserSupplied));
        electricity->setValue(tables);
        QCOMPARE(
            w->session()->scenario().assumptions.source(AssumptionId::ElectricityUsdPerKwh).source,
            shipped);
        QVERIFY2(electricity->toolTip().contains(QStringLiteral("Source: ")),
            qPrintable(electricity->toolTip()));
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

    // The Planner's boxes show what a file holds within core's limits: a $50 budget and a
    // 32.95-day deadline showed as $100 and 33.0, which the next tick of a box then applied.
    void budgetAndDeadlineBoxesShowTheScenariosValues()
    {
        auto w = makeWindow();
        w->session()->setBudget(50.0);
        w->session()->setDeadline(32.95);
        const auto* budget = w->findChild<QDoubleSpinBox*>(QStringLiteral("budget"));
        const auto* deadline = w->findChild<QDoubleSpinBox*>(QStringLiteral("deadline"));
        QVERIFY(budget && deadline);
        QCOMPARE(budget->value(), 50.0);
        QCOMPARE(deadline->value(), 32.95);
        QCOMPARE(deadline->text(), QStringLiteral("32.95 days"));
        QCOMPARE(budget->minimum(), limits::kBudgetUsd.bounds.min);
        QCOMPARE(deadline->maximum(), limits::kDeadlineDays.bounds.max);
    }

    // Values the files allow but the panel shows rounded, or that an older panel could not
    // show at all (PUE 4 when its spin box stopped at 3), survive an edit of another field.
    void valuesThePanelShowsRoundedAreNotChangedBehindTheUsersBack()
    {
        const QString path = m_files.filePath(QStringLiteral("pue4.gpuplan.yaml"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("schema_version: 1\nkind: gpuplan-scenario\nmodel: pythia-1b\n"
                "assumptions: {pue: 4, electricity_usd_per_kwh: 0.12345, planned_runs: 60000}\n");
        f.close();
        auto w = makeWindow();
        QString error;
        QVERIFY2(w->openScenario(path, &error), qPrintable(error));
        QCOMPARE(w->session()->scenario().assumptions.pue, 4.0);
        auto* pue = w->assumptionsPanel()->findChild<QDoubleSpinBox*>(QStringLiteral("pue"));
        QVERIFY(pue);
        QCOMPARE(pue->value(), 4.0); // shown as it is, not clamped
        auto* years = w->assumptionsPanel()->findChild<QDoubleSpinBox*>(
            QStringLiteral("amortizationYears"));
        years->setValue(4.0);
        QVERIFY2(w->saveScenario(path, &error), qPrintable(error));

        const ScenarioRead read = readScenario(
            readAll(path).toStdString(), path.toStdString(), w->session()->catalog().defaults);
        QVERIFY(read.scenario);
        QCOMPARE(read.scenario->assumptions.pue, 4.0);
        QCOMPARE(read.scenario->assumptions.electricityUsdPerKwh, 0.12345); // shown as 0.123
        QCOMPARE(read.scenario->assumptions.plannedRuns, 60000);
        QCOMPARE(read.scenario->assumptions.amortizationYears, 4.0); // the edit itself
    }

    // The panel's bounds are the assumption table's: whatever a file may hold, it can show.
    void panelBoundsAreTheTables()
    {
        auto w = makeWindow();
        for (const auto& spec : kAssumptionSpecs) {
            const bool percent = spec.unit == Unit::Fraction || spec.unit == Unit::FractionPerYear;
            const double scale = percent ? 100.0 : 1.0;
            const QAbstractSpinBox* editor = w->assumptionsPanel()->editor(spec.id);
            QVERIFY2(editor, spec.key.data());
            if (const auto* whole = qobject_cast<const QSpinBox*>(editor)) {
                QVERIFY(spec.wholeNumber);
                QCOMPARE(whole->minimum(), static_cast<int>(spec.bounds.min));
                QCOMPARE(whole->maximum(), static_cast<int>(spec.bounds.max));
            } else {
                const auto* number = qobject_cast<const QDoubleSpinBox*>(editor);
                QVERIFY(number);
                QCOMPARE(number->minimum(), spec.bounds.min * scale);
                QCOMPARE(number->maximum(), spec.bounds.max * scale);
            }
        }
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

    // 8 x H100 SXM is bought as a whole system, the cheapest sold with 8 of them: editing the
    // HGX server's price moves the machine's cost, and past the DGX's price the DGX prices it.
    void systemPriceEditReachesThePlan()
    {
        setCurrentPriceSet(QString::fromStdString(std::string(kDefaultPriceSet)));
        auto w = makeWindow();
        PriceBook* book = w->priceBook();
        const auto& systems = book->catalog().systems;
        int hgx = -1;
        for (std::size_t i = 0; i < systems.size(); ++i)
            if (systems[i].id == "hgx-h100-8gpu")
                hgx = static_cast<int>(i);
        QVERIFY(hgx >= 0);
        const auto cost = [&] {
            const auto option = optionOf(w->session()->results(), "h100-80gb-sxm", 8);
            return option ? w->session()->results().options[*option].machineCostUsd : -1.0;
        };
        QCOMPARE(cost(), 255237.04);
        constexpr int kPriceColumn = 3;
        QVERIFY(book->edit(PriceTable::Systems, hgx, kPriceColumn, QStringLiteral("265237.04"))
                    .isEmpty());
        QCOMPARE(cost(), 265237.04);
        QVERIFY(
            book->edit(PriceTable::Systems, hgx, kPriceColumn, QStringLiteral("400000")).isEmpty());
        QCOMPARE(cost(), 375000.0); // the DGX H100, now the cheaper of the two
        book->undoStack()->undo();
        book->undoStack()->undo();
        QCOMPARE(cost(), 255237.04);
        QVERIFY(w->priceTablesView()->table(PriceTable::Systems)->model()->rowCount() >= 4);
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

    // Opening a scenario of another price set, declined at the question about unsaved price
    // edits, changes nothing: not the plan, not the file a later Save writes to.
    void declinedOpenChangesNothing()
    {
        auto w = makeWindow();
        w->show();
        const QString mine = m_files.filePath(QStringLiteral("mine.gpuplan.yaml"));
        QString error;
        w->session()->setModel("pythia-1b");
        // A machine chosen, so that the views keep it when the edit below makes another the
        // cheapest (unchosen, they follow the recommendation or the cheapest).
        const auto h100 = optionOf(w->session()->results(), "h100-80gb-sxm", 2);
        QVERIFY(h100);
        w->plannerView()->selectOption(*h100);
        QVERIFY2(w->saveScenario(mine, &error), qPrintable(error));
        const QByteArray saved = readAll(mine);
        const QString other = m_files.filePath(QStringLiteral("other.gpuplan.yaml"));
        QFile file(other);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("schema_version: 1\nkind: gpuplan-scenario\nmodel: pythia-410m\n"
                   "price_set: current\n");
        file.close();
        QVERIFY(w->priceBook()
                    ->edit(PriceTable::Gpus, gpuRow(*w, "a100-80gb-sxm"), 1, QStringLiteral("9999"))
                    .isEmpty());
        // The status bar says the plan is on edited tables, not the set as shipped (review).
        QCOMPARE(w->findChild<QLabel*>(QStringLiteral("priceSetLabel"))->text(),
            QStringLiteral("Planning with the paper's prices (2024-09-21), edited (not saved)"));
        {
            BoxAnswerer cancel({ QMessageBox::Cancel });
            QVERIFY(!w->openScenario(other, &error));
            QVERIFY(cancel.answeredAll());
            QVERIFY(error.isEmpty()); // cancelled: nothing to report
        }
        QCOMPARE(w->scenarioPath(), mine);
        QCOMPARE(w->session()->scenario().modelId, std::string("pythia-1b"));
        QCOMPARE(a100Price(*w), 9999.0);
        QVERIFY(w->saveScenario(w->scenarioPath(), &error));
        QCOMPARE(readAll(mine), saved); // the other file's plan did not land in this one
        // Discarded, it opens, asking once.
        BoxAnswerer discard({ QMessageBox::Discard });
        QVERIFY2(w->openScenario(other, &error), qPrintable(error));
        QCOMPARE(discard.texts.size(), 1);
        QCOMPARE(w->scenarioPath(), other);
        QCOMPARE(w->session()->scenario().modelId, std::string("pythia-410m"));
        QCOMPARE(w->session()->catalog().priceSet, std::string("current"));
    }

    // What is typed in a dock field but not yet entered is what Save writes and what Quit asks
    // about: the user sees it.
    void aValueBeingTypedIsSavedAndAskedAbout()
    {
        auto w = makeWindow();
        w->show();
        w->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        auto* years = w->assumptionsPanel()->findChild<QDoubleSpinBox*>(
            QStringLiteral("amortizationYears"));
        QVERIFY(years);
        QCOMPARE(years->value(), 5.0);
        years->setFocus();
        QTRY_VERIFY(years->hasFocus());
        years->selectAll();
        QTest::keyClicks(years, QStringLiteral("4"));
        QCOMPARE(w->session()->scenario().assumptions.amortizationYears, 5.0); // not entered yet
        const QString path = m_files.filePath(QStringLiteral("typed.gpuplan.yaml"));
        QString error;
        QVERIFY2(w->saveScenario(path, &error), qPrintable(error));
        QVERIFY2(readAll(path).contains("amortization_years: 4"), readAll(path).constData());
        QCOMPARE(w->session()->scenario().assumptions.amortizationYears, 4.0);
        QVERIFY(!w->isWindowModified());
        QVERIFY(years->hasFocus()); // the user goes on where they were

        years->selectAll();
        QTest::keyClicks(years, QStringLiteral("3"));
        BoxAnswerer cancel({ QMessageBox::Cancel });
        QVERIFY(!w->close());
        QCOMPARE(cancel.texts,
            QStringList {
                QStringLiteral("The scenario has changes that are not saved. Save them?") });
        QCOMPARE(w->session()->scenario().assumptions.amortizationYears, 3.0);
    }

    // Every setting the scenario file keeps marks it modified when the user changes it: the
    // offers ticked in Buy vs rent, its axis, and the price set.
    void savedSettingsMarkTheScenarioModified()
    {
        auto w = makeWindow();
        w->tabs()->setCurrentWidget(w->buyVsRentView());
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        w->session()->setModified(false);
        auto* offers = w->buyVsRentView()->findChild<QListWidget*>(QStringLiteral("offers"));
        QVERIFY(offers && offers->count() > 0);
        offers->item(0)->setCheckState(
            offers->item(0)->checkState() == Qt::Checked ? Qt::Unchecked : Qt::Checked);
        QVERIFY(w->session()->isModified());

        w->session()->setModified(false);
        auto* axis = w->buyVsRentView()->findChild<QComboBox*>(QStringLiteral("axis"));
        axis->setFocus();
        QTest::keyClick(axis, Qt::Key_Down);
        QVERIFY(w->buyVsRentView()->monthsAxis());
        QVERIFY(w->session()->isModified());

        w->session()->setModified(false);
        QAction* current = nullptr;
        for (QAction* a : w->findChildren<QAction*>())
            if (a->data().toString() == QStringLiteral("current"))
                current = a;
        QVERIFY(current);
        current->trigger();
        QCOMPARE(w->session()->catalog().priceSet, std::string("current"));
        QVERIFY(w->session()->isModified());
        // The Price tables view names the file Save now writes: the current set's.
        auto* intro = w->priceTablesView()->findChild<QLabel*>(QStringLiteral("pricesIntro"));
        QVERIFY2(intro->text().contains(QStringLiteral("/prices/current/edited-prices.yaml")),
            qPrintable(intro->text()));
    }

    // Editing PUE in the Electricity table carries PUE into the scenario, and only PUE: the
    // scenario's own electricity price stays, through the undo too.
    void pueEditKeepsTheScenariosElectricityPrice()
    {
        auto w = makeWindow();
        Assumptions a = w->session()->scenario().assumptions;
        a.electricityUsdPerKwh = 0.25;
        w->session()->setAssumptions(a);
        const double pue = w->session()->scenario().assumptions.pue;
        QVERIFY(
            w->priceBook()->edit(PriceTable::Electricity, 1, 1, QStringLiteral("1.3")).isEmpty());
        QCOMPARE(w->session()->scenario().assumptions.pue, 1.3);
        QCOMPARE(w->session()->scenario().assumptions.electricityUsdPerKwh, 0.25);
        w->priceBook()->undoStack()->undo();
        QCOMPARE(w->session()->scenario().assumptions.pue, pue);
        QCOMPARE(w->session()->scenario().assumptions.electricityUsdPerKwh, 0.25);
    }

    // An Electricity table edit replaces the scenario's own price; undoing it, edit by edit,
    // gives the scenario's own price back, with its source, in the plan and in the dock (it had
    // come back as the table's old default). Redo carries the edit again.
    void undoingAnElectricityEditGivesTheScenariosPriceBack()
    {
        auto w = makeWindow();
        Assumptions a = w->session()->scenario().assumptions;
        QVERIFY(a.electricityUsdPerKwh != 0.25);
        chooseAssumptionValue(a, AssumptionId::ElectricityUsdPerKwh, 0.25);
        w->session()->setAssumptions(a);
        QVERIFY(
            w->priceBook()->edit(PriceTable::Electricity, 0, 1, QStringLiteral("0.3")).isEmpty());
        QVERIFY(
            w->priceBook()->edit(PriceTable::Electricity, 0, 1, QStringLiteral("0.35")).isEmpty());
        const auto price
            = [&] { return w->session()->scenario().assumptions.electricityUsdPerKwh; };
        QCOMPARE(price(), 0.35);
        auto* undo = w->priceBook()->undoStack();
        undo->undo();
        QCOMPARE(price(), 0.3);
        undo->undo();
        QCOMPARE(price(), 0.25);
        QCOMPARE(
            w->session()->scenario().assumptions.source(AssumptionId::ElectricityUsdPerKwh).source,
            std::string(kUserSupplied));
        auto* spin
            = w->assumptionsPanel()->findChild<QDoubleSpinBox*>(QStringLiteral("electricityPrice"));
        QCOMPARE(spin->value(), 0.25);
        undo->redo();
        QCOMPARE(price(), 0.3);
        // A scenario that follows the table follows it back: nothing of its own was replaced.
        undo->undo();
        QCOMPARE(price(), 0.25);
        a = w->session()->scenario().assumptions;
        a.electricityUsdPerKwh = w->priceBook()->catalog().defaults.electricityUsdPerKwh;
        w->session()->setAssumptions(a);
        const double table = a.electricityUsdPerKwh;
        QVERIFY(
            w->priceBook()->edit(PriceTable::Electricity, 0, 1, QStringLiteral("0.4")).isEmpty());
        QCOMPARE(price(), 0.4);
        undo->undo();
        QCOMPARE(price(), table);
    }

    // File > Save asks before replacing a scenario file that another program or window wrote
    // since it was opened: Cancel keeps that file as it is, Overwrite replaces it. A file only
    // this window wrote is saved without a question.
    void saveAsksBeforeReplacingAFileChangedOnDisk()
    {
        auto w = makeWindow();
        w->show();
        const QString path = m_files.filePath(QStringLiteral("shared.gpuplan.yaml"));
        QString error;
        QVERIFY2(w->saveScenario(path, &error), qPrintable(error));
        QAction* save = menuAction(*w, QStringLiteral("&Save scenario"));
        QVERIFY(save);
        {
            BoxAnswerer none({});
            save->trigger();
            QVERIFY(none.texts.isEmpty());
        }
        const QByteArray theirs = "schema_version: 1\nkind: gpuplan-scenario\nmodel: pythia-410m\n";
        writeFile(path, theirs);
        {
            BoxAnswerer cancel({ QMessageBox::Cancel });
            save->trigger();
            QVERIFY(cancel.answeredAll());
            QVERIFY2(cancel.texts.first().startsWith(
                         QStringLiteral("shared.gpuplan.yaml changed on disk since it was opened")),
                qPrintable(cancel.texts.first()));
            QCOMPARE(readAll(path), theirs);
        }
        {
            BoxAnswerer overwrite({ QMessageBox::Save });
            save->trigger();
            QVERIFY(overwrite.answeredAll());
            QVERIFY(readAll(path) != theirs);
        }
        // Saved here now: no question.
        BoxAnswerer none({});
        save->trigger();
        QVERIFY(none.texts.isEmpty());
    }

    // File > New scenario starts the grant afresh, as a new scenario file has none; and the
    // Assumptions dock, once closed, comes back from the View menu.
    void newScenarioStartsTheGrantAfresh()
    {
        auto w = makeWindow();
        w->show();
        const ScenarioGrant fresh = w->budgetView()->grantSettings();
        ScenarioGrant longer = fresh;
        longer.plan.years = 5;
        longer.plan.runsPerYear = { 1, 1, 1, 1, 1 };
        w->budgetView()->setGrantSettings(longer);
        QCOMPARE(w->budgetView()->grantSettings().plan.years, 5);
        QAction* newScenario = menuAction(*w, QStringLiteral("&New scenario"));
        QAction* dockToggle = menuAction(*w, QStringLiteral("Assumptions"));
        QVERIFY(newScenario && dockToggle);
        newScenario->trigger();
        QVERIFY(w->budgetView()->grantSettings() == fresh);
        QVERIFY(!w->isWindowModified());

        auto* dock = w->findChild<QDockWidget*>(QStringLiteral("assumptionsDock"));
        dock->close();
        QVERIFY(!dock->isVisible());
        dockToggle->trigger();
        QVERIFY(dock->isVisible());
    }

    // A recent file that has gone is shown as such and not offered.
    void recentFileGoneIsNotOffered()
    {
        auto w = makeWindow();
        const QString path = m_files.filePath(QStringLiteral("gone-later.gpuplan.yaml"));
        QString error;
        QVERIFY2(w->saveScenario(path, &error), qPrintable(error));
        QAction* recentMenu = menuAction(*w, QStringLiteral("Open &recent"));
        QVERIFY(recentMenu && recentMenu->menu());
        QMenu* recent = recentMenu->menu();
        QVERIFY(QFile::remove(path));
        QVERIFY(QMetaObject::invokeMethod(recent, "aboutToShow"));
        QAction* entry = recent->actions().value(0);
        QVERIFY(entry);
        QCOMPARE(entry->text(), QStringLiteral("gone-later.gpuplan.yaml (not found)"));
        QVERIFY(!entry->isEnabled());
    }

    // Runs per year the file cannot hold are not saved, and Save says so.
    void saveSaysWhatItLeftOut()
    {
        auto w = makeWindow();
        w->show();
        w->budgetView()
            ->findChild<QLineEdit*>(QStringLiteral("runsPerYear"))
            ->setText(QStringLiteral("2,x"));
        QVERIFY(!w->budgetView()->unsavedRunsPerYear().isEmpty());
        QString error;
        QVERIFY(w->saveScenario(m_files.filePath(QStringLiteral("left.gpuplan.yaml")), &error));
        const QString message = w->statusBar()->currentMessage();
        QVERIFY2(message.startsWith(QStringLiteral("Saved left.gpuplan.yaml, without the runs per "
                                                   "year typed in the Budget view: 2,x (")),
            qPrintable(message));
        w->budgetView()
            ->findChild<QLineEdit*>(QStringLiteral("runsPerYear"))
            ->setText(QStringLiteral("1,2"));
        QCOMPARE(w->budgetView()->unsavedRunsPerYear(),
            QStringLiteral("1,2 (2 years for a grant of 3 years)"));
        w->budgetView()
            ->findChild<QLineEdit*>(QStringLiteral("runsPerYear"))
            ->setText(QStringLiteral("1,2,1"));
        QVERIFY(w->budgetView()->unsavedRunsPerYear().isEmpty());
    }

    void closeAsksAboutUnsavedChanges()
    {
        auto w = makeWindow();
        w->show();
        w->session()->setBudget(75000.0);
        QVERIFY(w->isWindowModified());
        {
            BoxAnswerer cancel({ QMessageBox::Cancel });
            QVERIFY(!w->close());
            QVERIFY(cancel.answeredAll());
            QCOMPARE(cancel.texts,
                QStringList {
                    QStringLiteral("The scenario has changes that are not saved. Save them?") });
            QVERIFY(w->isVisible());
            QCOMPARE(*w->session()->scenario().budgetUsd, 75000.0); // nothing lost
        }
        {
            BoxAnswerer discard({ QMessageBox::Discard });
            QVERIFY(w->close());
            QVERIFY(discard.answeredAll());
            QVERIFY(!w->isVisible());
        }
    }

    void closeAsksAboutPriceEditsFirst()
    {
        auto w = makeWindow();
        w->show();
        QVERIFY(w->priceBook()
                    ->edit(PriceTable::Gpus, gpuRow(*w, "a100-80gb-sxm"), 1, QStringLiteral("9999"))
                    .isEmpty());
        BoxAnswerer cancel({ QMessageBox::Cancel });
        QVERIFY(!w->close());
        QCOMPARE(cancel.texts.size(), 1);
        QVERIFY2(cancel.texts.first().contains(QStringLiteral("price tables have edits")),
            qPrintable(cancel.texts.first()));
        QVERIFY(w->isVisible());
        QCOMPARE(a100Price(*w), 9999.0);
        QVERIFY(!QFileInfo::exists(editedPricesPath()));
    }

    // Discard answered for the price edits, then Cancel at the next question: nothing is
    // lost, the edits included.
    void discardThenCancelKeepsThePriceEdits()
    {
        auto w = makeWindow();
        w->show();
        QVERIFY(w->priceBook()
                    ->edit(PriceTable::Gpus, gpuRow(*w, "a100-80gb-sxm"), 1, QStringLiteral("9999"))
                    .isEmpty());
        w->session()->setBudget(75000.0);
        BoxAnswerer answers({ QMessageBox::Discard, QMessageBox::Cancel });
        QVERIFY(!w->close());
        QVERIFY(answers.answeredAll());
        QCOMPARE(a100Price(*w), 9999.0);
        QVERIFY(w->priceBook()->isModified());
        QCOMPARE(*w->session()->scenario().budgetUsd, 75000.0);
    }

    // Opened after Discard, a scenario takes the assumptions it leaves out from the saved
    // tables, not from the edits just let go.
    void discardedEditsDoNotReachTheOpenedScenario()
    {
        auto w = makeWindow();
        w->show();
        const QString path = m_files.filePath(QStringLiteral("bare.gpuplan.yaml"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("schema_version: 1\nkind: gpuplan-scenario\nmodel: pythia-410m\n");
        file.close();
        QString error;
        QVERIFY2(w->openScenario(path, &error), qPrintable(error)); // now in Open recent
        const double saved = w->session()->scenario().assumptions.electricityUsdPerKwh;
        QVERIFY(
            w->priceBook()->edit(PriceTable::Electricity, 0, 1, QStringLiteral("0.25")).isEmpty());
        QCOMPARE(w->session()->scenario().assumptions.electricityUsdPerKwh, 0.25);
        QAction* recentMenu = menuAction(*w, QStringLiteral("Open &recent"));
        QVERIFY(recentMenu && recentMenu->menu());
        QAction* recent = recentMenu->menu()->actions().value(0);
        QVERIFY(recent);
        BoxAnswerer discard({ QMessageBox::Discard, QMessageBox::Discard });
        recent->trigger();
        QVERIFY(discard.answeredAll());
        QVERIFY(!w->priceBook()->isModified());
        QCOMPARE(w->session()->scenario().assumptions.electricityUsdPerKwh, saved);
        QVERIFY(!w->isWindowModified());
    }

    // A scenario file without a grant opens with a new scenario's grant, not the one open
    // before.
    void aFileWithoutAGrantGetsANewOne()
    {
        auto w = makeWindow();
        const ScenarioGrant fresh = w->budgetView()->grantSettings();
        ScenarioGrant longer = fresh;
        longer.plan.years = 5;
        longer.plan.runsPerYear = { 1, 1, 1, 1, 1 };
        w->budgetView()->setGrantSettings(longer);
        const QString path = m_files.filePath(QStringLiteral("no-grant.gpuplan.yaml"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("schema_version: 1\nkind: gpuplan-scenario\nmodel: pythia-410m\n");
        file.close();
        QString error;
        QVERIFY2(w->openScenario(path, &error), qPrintable(error));
        QVERIFY(w->budgetView()->grantSettings() == fresh);
    }

    void geometryAndLastScenarioAreRestored()
    {
        const QString path = m_files.filePath(QStringLiteral("last.gpuplan.yaml"));
        // A first session: a scenario saved, the window resized, then quit.
        {
            MainWindow w(loadUserCatalog().catalog);
            w.show();
            w.resize(1333, 777);
            QTRY_COMPARE(w.size(), QSize(1333, 777));
            w.session()->setModel("pythia-410m");
            QString error;
            QVERIFY2(w.saveScenario(path, &error), qPrintable(error));
            QVERIFY(w.close());
        }
        QCOMPARE(QSettings().value(QStringLiteral("lastScenario")).toString(), path);
        // The next start.
        MainWindow w(loadUserCatalog().catalog);
        QCOMPARE(w.size(), QSize(1333, 777));
        QString error;
        QVERIFY2(w.restoreLastScenario(&error), qPrintable(error));
        QCOMPARE(w.scenarioPath(), path);
        QCOMPARE(w.session()->scenario().modelId, std::string("pythia-410m"));
        QVERIFY(!w.isWindowModified());

        // A last scenario deleted since is no error: the window starts untitled.
        QSettings().setValue(
            QStringLiteral("lastScenario"), m_files.filePath(QStringLiteral("gone.gpuplan.yaml")));
        MainWindow fresh(loadUserCatalog().catalog);
        QVERIFY(!fresh.restoreLastScenario(&error));
        QVERIFY(error.isEmpty());
        QVERIFY(fresh.scenarioPath().isEmpty());
        QSettings().remove(QStringLiteral("lastScenario"));
    }

    void csvExportWritesBothTables()
    {
        auto w = makeWindow();
        const QString path = m_files.filePath(QStringLiteral("export/options.csv"));
        QDir().mkpath(QFileInfo(path).path());
        QString error;
        QVERIFY2(w->exportCsv(path, &error), qPrintable(error));
        const QStringList lines
            = QString::fromUtf8(readAll(path)).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QVERIFY2(lines.first().startsWith(
                     QStringLiteral("GPU,GPUs,Training days,Source,Machine cost,Per experiment,"
                                    "Energy per run,Implied utilisation,Flags,Pareto,")),
            qPrintable(lines.first()));
        // Issue 15: each figure's range after the table's columns.
        QVERIFY(lines.first().contains(QStringLiteral(",training_days_low,training_days_high,")));
        QVERIFY(
            lines.first().endsWith(QStringLiteral(",break_even_runs_low,break_even_runs_high,break_"
                                                  "even_months_low,break_even_months_high")));
        QCOMPARE(lines.size(), static_cast<qsizetype>(w->session()->results().options.size()) + 1);
        const auto a100 = optionOf(w->session()->results(), "a100-80gb-sxm", 8);
        QVERIFY(a100);
        const OwnedOption& o = w->session()->results().options[*a100];
        const QString row = lines.filter(QStringLiteral("A100 SXM 80GB,8,")).value(0);
        QVERIFY2(!row.isEmpty(), qPrintable(lines.join(QLatin1Char('\n'))));
        const QStringList cells = row.split(QLatin1Char(','));
        QCOMPARE(cells.at(2).toDouble(), o.estimate.days);
        QCOMPARE(cells.at(4).toDouble(), o.machineCostUsd);
        QVERIFY(o.machineCostUsd > 8 * 10000.0); // eight A100s and a server, not a typo
        const QString cloud = QString::fromUtf8(
            readAll(m_files.filePath(QStringLiteral("export/options-cloud.csv"))));
        QVERIFY2(cloud.startsWith(QStringLiteral("Provider,")), qPrintable(cloud.left(200)));
        QCOMPARE(cloud.count(QStringLiteral("\r\n")),
            static_cast<qsizetype>(w->session()->results().cloud.size()) + 1);
        // A folder that does not exist is reported, not ignored.
        QVERIFY(!w->exportCsv(m_files.filePath(QStringLiteral("nowhere/options.csv")), &error));
        QVERIFY2(error.contains(QStringLiteral("nowhere/options.csv")), qPrintable(error));
        // Both files or neither: a folder where the cloud table goes leaves the options as they
        // were.
        const QString kept = m_files.filePath(QStringLiteral("export/kept.csv"));
        QFile old(kept);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("the user's own table\n");
        old.close();
        QVERIFY(QDir().mkpath(m_files.filePath(QStringLiteral("export/kept-cloud.csv"))));
        QVERIFY(!w->exportCsv(kept, &error));
        QVERIFY2(error.endsWith(QStringLiteral("kept-cloud.csv: it is not a regular file")),
            qPrintable(error));
        QCOMPARE(readAll(kept), QByteArray("the user's own table\n"));
        QCOMPARE(QDir(m_files.filePath(QStringLiteral("export"))).entryList(QDir::Files).size(), 3);
    }

    void copyChartPutsTheChartOnTheClipboard()
    {
        auto w = makeWindow();
        QApplication::clipboard()->clear();
        QVERIFY(QApplication::clipboard()->image().isNull());
        QAction* copy = w->chartActions()->copyAction();
        QVERIFY(copy->isEnabled());
        copy->trigger();
        const QImage image = QApplication::clipboard()->image();
        QVERIFY(!image.isNull());
        render::FigureSize size;
        size.dpi = 150;
        const QImage expected
            = render::renderChartImage(w->plannerView()->hardwareChart()->chartData(), size);
        QCOMPARE(image.size(), expected.size());
        QVERIFY(image.width() > 500 && image.height() > 300);
        QCOMPARE(w->statusBar()->currentMessage(),
            QStringLiteral("Copied the chart '%1' to the clipboard")
                .arg(w->plannerView()->hardwareChart()->chartData().title));
    }

    // Two charts side by side: Copy chart takes the one the user clicked (focused), and a tab
    // without a chart has nothing to copy (it had copied the Planner's hardware chart).
    void copyChartTakesTheFocusedChartOfTheCurrentTab()
    {
        auto w = makeWindow();
        w->show();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        ChartActions* charts = w->chartActions();
        render::ChartWidget* experiment = w->plannerView()->experimentChart();
        QTest::mouseClick(experiment, Qt::LeftButton, {}, QPoint(4, 4));
        QVERIFY(experiment->hasFocus());
        QCOMPARE(charts->currentChart(), experiment);
        charts->copyAction()->trigger();
        QCOMPARE(w->statusBar()->currentMessage(),
            QStringLiteral("Copied the chart '%1' to the clipboard")
                .arg(experiment->chartData().title));
        QVERIFY(experiment->chartData().title.contains(QStringLiteral("per-experiment cost")));

        // Another tab: its own first chart, not the Planner's focused one.
        w->tabs()->setCurrentWidget(w->buyVsRentView());
        QCOMPARE(charts->currentChart(), w->buyVsRentView()->chart());
        QVERIFY(charts->copyAction()->isEnabled());
        w->tabs()->setCurrentIndex(w->tabs()->indexOf(w->findChild<PriceTablesView*>()));
        QCOMPARE(charts->currentChart(), nullptr);
        QVERIFY(!charts->copyAction()->isEnabled());
        QCOMPARE(
            charts->copyAction()->statusTip(), QStringLiteral("This tab has no chart to copy"));
        w->tabs()->setCurrentWidget(w->plannerView());
        QCOMPARE(charts->currentChart(), experiment);
        QVERIFY(charts->copyAction()->isEnabled());
    }

    // Each chart's context menu copies and exports that chart; the export writes the format
    // its suffix names.
    void chartContextMenuCopiesAndExportsThatChart()
    {
        auto w = makeWindow();
        render::ChartWidget* experiment = w->plannerView()->experimentChart();
        QCOMPARE(experiment->contextMenuPolicy(), Qt::ActionsContextMenu);
        const QList<QAction*> actions = experiment->actions();
        QCOMPARE(actions.size(), 2);
        QCOMPARE(actions[0]->text(), QStringLiteral("Copy chart"));
        QCOMPARE(actions[1]->text(), QStringLiteral("Export chart…"));
        QApplication::clipboard()->clear();
        actions[0]->trigger();
        QVERIFY(!QApplication::clipboard()->image().isNull());
        QVERIFY(w->statusBar()->currentMessage().contains(experiment->chartData().title));

        const QString svg = m_files.filePath(QStringLiteral("context-export.svg"));
        QFile::remove(svg);
        QString error;
        QVERIFY2(w->chartActions()->exportTo(experiment, svg, 300, &error), qPrintable(error));
        QVERIFY(readAll(svg).startsWith("<?xml"));
        QVERIFY(readAll(svg).contains("per-experiment cost"));
        QCOMPARE(w->statusBar()->currentMessage(), QStringLiteral("Wrote %1").arg(svg));
        QVERIFY(!w->chartActions()->exportTo(
            experiment, m_files.filePath(QStringLiteral("chart.bmp")), 300, &error));
        QVERIFY2(error.contains(QStringLiteral(".bmp")), qPrintable(error));

        // Every chart the window shows can be exported, the sensitivity tornado included.
        QStringList names;
        for (const ChartActions::NamedChart& named : w->chartActions()->charts())
            names << named.name;
        QCOMPARE(names,
            QStringList({ QStringLiteral("Training days vs hardware cost"),
                QStringLiteral("Per-experiment cost vs training days"),
                QStringLiteral("Buy vs rent"), QStringLiteral("Buy vs rent sensitivity") }));
    }

    void twoResultsFilesOfTheSameNameAreBothKept()
    {
        auto w = makeWindow();
        const QString first = m_files.filePath(QStringLiteral("server-a/results.yaml"));
        const QString second = m_files.filePath(QStringLiteral("server-b/results.yaml"));
        QDir().mkpath(QFileInfo(first).path());
        QDir().mkpath(QFileInfo(second).path());
        QFile::remove(first);
        QFile::remove(second);
        QVERIFY(QFile::copy(kFixture, first));
        // Another server's file of the same name (its host differs).
        QByteArray other = readAll(kFixture);
        QVERIFY(other.contains("host: "));
        other.replace("host: ", "host: second-");
        QFile f(second);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(other);
        f.close();

        QString error;
        QVERIFY2(w->importMeasurements(first, &error), qPrintable(error));
        QVERIFY2(w->importMeasurements(second, &error), qPrintable(error));
        const QStringList files = views::userResultFiles();
        QCOMPARE(files.size(), qsizetype { 2 });
        QCOMPARE(QFileInfo(files.at(0)).fileName(), QStringLiteral("results-2.yaml"));
        QCOMPARE(QFileInfo(files.at(1)).fileName(), QStringLiteral("results.yaml"));
        QCOMPARE(readAll(files.at(1)), readAll(first));
        QCOMPARE(readAll(files.at(0)), other);
        QCOMPARE(w->session()->catalog().measured.size(), std::size_t { 2 });
    }

    void importingPricesAsksAboutUnsavedEdits()
    {
        auto w = makeWindow();
        w->show();
        const QString supplier = m_files.filePath(QStringLiteral("supplier-a/prices.yaml"));
        writePriceFile(supplier, 11111.0);
        const int row = gpuRow(*w, "a100-80gb-sxm");
        QVERIFY(w->priceBook()->edit(PriceTable::Gpus, row, 1, QStringLiteral("9999")).isEmpty());

        QString error;
        {
            BoxAnswerer cancel({ QMessageBox::Cancel });
            QVERIFY(!w->importPrices(supplier, &error));
            QVERIFY(error.isEmpty()); // cancelled, not failed
            QVERIFY(cancel.answeredAll());
            QCOMPARE(a100Price(*w), 9999.0);
            QVERIFY(w->priceBook()->isModified());
            QVERIFY(views::userPriceFiles(currentPriceSet()).isEmpty());
        }
        {
            BoxAnswerer discard({ QMessageBox::Discard });
            QVERIFY2(w->importPrices(supplier, &error), qPrintable(error));
            QVERIFY(discard.answeredAll());
            QCOMPARE(a100Price(*w), 11111.0);
            QVERIFY(!w->priceBook()->isModified());
        }
        // Without edits there is nothing to ask.
        const QString other = m_files.filePath(QStringLiteral("supplier-b/prices.yaml"));
        writePriceFile(other, 22222.0);
        BoxAnswerer none({});
        QVERIFY2(w->importPrices(other, &error), qPrintable(error));
        QVERIFY(none.texts.isEmpty());
        // The newest import is the one that counts, though its copy sorts first by name.
        QCOMPARE(a100Price(*w), 22222.0);
        QCOMPARE(*loadUserCatalog().catalog->findGpu("a100-80gb-sxm")->priceUsd, 22222.0);
        // Both suppliers' prices.yaml are kept.
        const QStringList files = views::userPriceFiles(currentPriceSet());
        QCOMPARE(files.size(), qsizetype { 2 });
        QCOMPARE(readAll(views::userDataDir() + QStringLiteral("/prices/prices.yaml")),
            readAll(supplier));
        QCOMPARE(readAll(views::userDataDir() + QStringLiteral("/prices/prices-2.yaml")),
            readAll(other));
    }

    // A table that prices a GPU an earlier import added is checked against that import, as the
    // planner will read them: checked against the shipped tables alone it was refused as naming
    // an unknown GPU. A file with an error of its own is still refused, naming its line.
    void aSecondImportMayUseAGpuTheFirstAdded()
    {
        auto w = makeWindow();
        w->show();
        const QString gpus = m_files.filePath(QStringLiteral("lab/new-gpu.yaml"));
        writeFile(gpus,
            "schema_version: 1\n"
            "gpus:\n"
            "  - id: lab-accelerator-96gb\n"
            "    name: Lab Accelerator 96GB\n"
            "    memory_gb: 96\n"
            "    board_power_watts: 700\n"
            "    peak_tflops: {bf16: 900, fp16: 900}\n"
            "    spec: {date: 2026-11, source: \"vendor datasheet, November 2026\"}\n");
        const QString offer = m_files.filePath(QStringLiteral("lab/offer.yaml"));
        const QByteArray offerText = "schema_version: 1\n"
                                     "cloud_offers:\n"
                                     "  - id: lab-cloud-accelerator-8x\n"
                                     "    kind: cloud\n"
                                     "    provider: Lab Cloud\n"
                                     "    instance: \"accel-8\"\n"
                                     "    gpu: lab-accelerator-96gb\n"
                                     "    gpus_per_instance: 8\n"
                                     "    on_demand_usd_per_hour: 40.0\n"
                                     "    date: 2026-11-30\n"
                                     "    source: \"Lab Cloud price page, 2026-11-30\"\n";
        writeFile(offer, offerText);
        QString error;
        QVERIFY2(w->importPrices(gpus, &error), qPrintable(error));
        QVERIFY2(w->importPrices(offer, &error), qPrintable(error));
        const auto load = loadUserCatalog();
        QVERIFY2(load.ok(), qPrintable(issueText(load.issues)));
        const auto* imported = load.catalog->findCloudOffer("lab-cloud-accelerator-8x");
        QVERIFY(imported);
        QCOMPARE(imported->gpuId, std::string("lab-accelerator-96gb"));
        QCOMPARE(views::userPriceFiles(currentPriceSet()).size(), qsizetype { 2 });

        QByteArray broken = offerText;
        broken.replace("id: lab-cloud-accelerator-8x", "id: lab-cloud-other-8x");
        broken.replace("40.0", "-40.0");
        const QString bad = m_files.filePath(QStringLiteral("lab/bad-offer.yaml"));
        writeFile(bad, broken);
        QVERIFY(!w->importPrices(bad, &error));
        QVERIFY2(error.startsWith(bad + QStringLiteral(":9:")), qPrintable(error));
        QCOMPARE(views::userPriceFiles(currentPriceSet()).size(), qsizetype { 2 });
    }

    void revertSetsImportedPricesAside()
    {
        auto w = makeWindow();
        w->show();
        const QString supplier = m_files.filePath(QStringLiteral("supplier-c/quote.yaml"));
        writePriceFile(supplier, 12345.0);
        QString error;
        QVERIFY2(w->importPrices(supplier, &error), qPrintable(error));
        QCOMPARE(a100Price(*w), 12345.0);
        const double shipped = *loadCatalog(shippedDataFiles(kPaperPriceSet))
                                    .catalog->findGpu("a100-80gb-sxm")
                                    ->priceUsd;

        {
            BoxAnswerer no({ QMessageBox::No });
            w->revertPrices();
            QVERIFY(no.answeredAll());
            QVERIFY2(no.texts.first().contains(QStringLiteral("\n  quote.yaml")),
                qPrintable(no.texts.first()));
            QCOMPARE(a100Price(*w), 12345.0);
            QCOMPARE(views::userPriceFiles(currentPriceSet()).size(), qsizetype { 1 });
        }
        BoxAnswerer yes({ QMessageBox::Yes });
        w->revertPrices();
        QVERIFY(yes.answeredAll());
        QCOMPARE(a100Price(*w), shipped);
        QVERIFY(views::userPriceFiles(currentPriceSet()).isEmpty());
        // Set aside, not lost, and not loaded at the next start either.
        QCOMPARE(readAll(revertedPricesDir() + QStringLiteral("/quote.yaml")), readAll(supplier));
        QCOMPARE(*loadUserCatalog().catalog->findGpu("a100-80gb-sxm")->priceUsd, shipped);
    }

    // A longer price kind chosen in the table widens its column instead of wrapping its row
    // onto two lines (review: "vendor quote" made the H100 SXM row taller than the rest).
    void anEditedPriceWidensItsColumnNotItsRow()
    {
        auto w = makeWindow();
        QTableView* gpus = nullptr;
        for (auto* view : w->priceTablesView()->findChildren<QTableView*>())
            if (view->accessibleName() == QStringLiteral("GPUs prices"))
                gpus = view;
        QVERIFY(gpus);
        const auto columns = gui::priceColumns(PriceTable::Gpus);
        int kind = -1;
        for (std::size_t c = 0; c < columns.size(); ++c)
            if (std::string_view(columns[c].header) == "Kind")
                kind = static_cast<int>(c);
        QVERIFY(kind >= 0);
        const int row = gpuRow(*w, "rtx-3090");
        QVERIFY(
            w->priceBook()->edit(PriceTable::Gpus, row, kind, QStringLiteral("quote")).isEmpty());
        bool shown = false; // the view sorts its rows: found by its text
        for (int r = 0; r < gpus->model()->rowCount(); ++r)
            shown |= gpus->model()->index(r, kind).data().toString() == "vendor quote";
        QVERIFY(shown);
        QVERIFY(!gpus->wordWrap());
        const int text = gpus->fontMetrics().horizontalAdvance(QStringLiteral("vendor quote"));
        QVERIFY2(gpus->columnWidth(kind) > text,
            qPrintable(QStringLiteral("%1 <= %2").arg(gpus->columnWidth(kind)).arg(text)));
        w->priceBook()->undoStack()->clear();
    }

    void priceSetIsChosenRememberedAndSavedWithTheScenario()
    {
        setCurrentPriceSet(QString()); // nothing stored: the current prices
        auto w = makeWindow();
        QCOMPARE(w->session()->catalog().priceSet, std::string(kDefaultPriceSet));
        // The current prices sell the H100 SXM only inside 8-GPU HGX systems.
        QVERIFY(!optionOf(w->session()->results(), "h100-80gb-sxm", 4));
        QVERIFY(optionOf(w->session()->results(), "h100-80gb-sxm", 8));
        QCOMPARE(w->findChild<QLabel*>(QStringLiteral("priceSetLabel"))->text(),
            QStringLiteral("Planning with current prices (2025-2026)"));

        QVERIFY(w->usePriceSet(QStringLiteral("paper")));
        QCOMPARE(w->session()->catalog().priceSet, std::string(kPaperPriceSet));
        QCOMPARE(a100Price(*w), 19000.0);
        QVERIFY(optionOf(w->session()->results(), "h100-80gb-sxm", 4));
        QCOMPARE(currentPriceSet(), QStringLiteral("paper")); // the next start too
        const QString path = m_files.filePath(QStringLiteral("paper.gpuplan.yaml"));
        QString error;
        QVERIFY2(w->saveScenario(path, &error), qPrintable(error));
        QVERIFY(readAll(path).contains("price_set: paper"));

        // Edits are asked about before the tables reload; cancelling keeps set and edits.
        QVERIFY(w->priceBook()
                    ->edit(PriceTable::Gpus, gpuRow(*w, "a100-80gb-sxm"), 1, QStringLiteral("9999"))
                    .isEmpty());
        // The status bar says the plan is on edited tables, not the set as shipped (review).
        QCOMPARE(w->findChild<QLabel*>(QStringLiteral("priceSetLabel"))->text(),
            QStringLiteral("Planning with the paper's prices (2024-09-21), edited (not saved)"));
        {
            BoxAnswerer cancel({ QMessageBox::Cancel });
            QVERIFY(!w->usePriceSet(QStringLiteral("current")));
            QCOMPARE(w->session()->catalog().priceSet, std::string(kPaperPriceSet));
            QCOMPARE(a100Price(*w), 9999.0);
        }
        {
            BoxAnswerer discard({ QMessageBox::Discard });
            QVERIFY(w->usePriceSet(QStringLiteral("current")));
        }
        QCOMPARE(w->session()->catalog().priceSet, std::string(kDefaultPriceSet));
        QCOMPARE(w->findChild<QLabel*>(QStringLiteral("priceSetLabel"))->text(),
            QStringLiteral("Planning with current prices (2025-2026)"));

        // Opening the scenario brings its price set back.
        QVERIFY2(w->openScenario(path, &error), qPrintable(error));
        QCOMPARE(w->session()->catalog().priceSet, std::string(kPaperPriceSet));
    }

    void rentalFilterChoosesWhatTheExperimentChartDraws()
    {
        setCurrentPriceSet(QString()); // the current prices: 30 offers
        auto w = makeWindow();
        const auto onDemandPoints = [&w] {
            for (const auto& s : w->plannerView()->experimentChart()->chartData().series)
                if (s.name == QLatin1String("Cloud, on-demand"))
                    return static_cast<int>(s.points.size());
            return 0;
        };
        const int cheapestOnly = onDemandPoints();
        QVERIFY(cheapestOnly > 0);
        RentalFilterButton* filter = w->plannerView()->rentalFilter();
        filter->everyOfferAction()->setChecked(true);
        const int every = onDemandPoints();
        QVERIFY2(every > cheapestOnly,
            qPrintable(QStringLiteral("%1 vs %2").arg(every).arg(cheapestOnly)));
        QAction* runpod = filter->providerAction(QStringLiteral("RunPod"));
        QVERIFY(runpod && runpod->isChecked());
        runpod->setChecked(false);
        QVERIFY(onDemandPoints() < every);
        const Results& r = w->session()->results();
        for (const auto& s : w->plannerView()->experimentChart()->chartData().series)
            for (const auto& p : s.points)
                if (p.cloudIndex >= 0)
                    QVERIFY(r.cloud[static_cast<std::size_t>(p.cloudIndex)].offer->provider
                        != "RunPod");
        // The table still lists every offer.
        QCOMPARE(
            w->plannerView()->cloudTable()->model()->rowCount(), static_cast<int>(r.cloud.size()));
        // The offers nothing times (V100s for bf16 Pythia-1B) are named at the menu's foot,
        // neither drawn nor listed.
        const auto* untimed = filter->menu()->findChild<QAction*>(QStringLiteral("untimedOffers"));
        QVERIFY(untimed && untimed->isVisible() && !untimed->isEnabled());
        QCOMPARE(untimed->text(),
            QStringLiteral("Not timed for this model: gcp-v100 and drexel-picotte-v100"));
        QCOMPARE(untimed->toolTip(), views::untimedOffersSummary(r));
    }

    void viewSettingsAreSavedWithTheScenario()
    {
        auto w = makeWindow();
        QVERIFY(w->plannerView()->logAxes()); // the default
        w->plannerView()->setLogAxes(false);
        QVERIFY(w->isWindowModified()); // a change to save
        const auto h100 = optionOf(w->session()->results(), "h100-80gb-sxm", 4);
        QVERIFY(h100);
        w->buyVsRentView()->setMachine(*h100);
        // Not the defaults: the months axis, and one H100 offer priced for 8 GPUs alone (the
        // view ticks the offers of the machine's own count).
        const Results& results = w->session()->results();
        std::optional<std::size_t> eightH100;
        for (std::size_t i = 0; i < results.cloud.size() && !eightH100; ++i)
            if (results.cloud[i].gpu->id == "h100-80gb-sxm" && results.cloud[i].gpuCount == 8)
                eightH100 = i;
        QVERIFY(eightH100);
        const std::string offerId = results.cloud[*eightH100].offer->id;
        w->buyVsRentView()->setMonthsAxis(true);
        w->buyVsRentView()->setChosenOffers({ *eightH100 });
        QCOMPARE(w->buyVsRentView()->chosenOffers(), std::vector<std::size_t> { *eightH100 });
        const QString path = m_files.filePath(QStringLiteral("view.gpuplan.yaml"));
        QString error;
        QVERIFY2(w->saveScenario(path, &error), qPrintable(error));
        const QByteArray saved = readAll(path);
        QVERIFY2(saved.contains("buy_vs_rent: {gpu: h100-80gb-sxm, gpu_count: 4, axis: months, "
                                "offers: [{offer: "
                     + QByteArray::fromStdString(offerId) + ", gpu_count: 8}]}"),
            saved.constData());

        auto other = makeWindow();
        QVERIFY(other->plannerView()->logAxes());
        QVERIFY(other->buyVsRentView()->machine() != h100);
        QVERIFY2(other->openScenario(path, &error), qPrintable(error));
        QVERIFY(!other->plannerView()->logAxes());
        QVERIFY(!other->plannerView()->chartOptions().logX);
        QVERIFY(other->buyVsRentView()->machine() == h100);
        QVERIFY(other->buyVsRentView()->monthsAxis());
        QCOMPARE(other->buyVsRentView()->chosenOffers(), std::vector<std::size_t> { *eightH100 });
        QVERIFY(!other->isWindowModified());
    }

    // A replot keeps what the user chose in Buy vs rent: an assumption change keeps the ticked
    // offers, an edited price (which relabels the machine) keeps the machine; both are found
    // again by GPU, count and offer. Another machine starts from its own defaults.
    // Buy vs rent, the Budget view and the report start from the same machine (without a
    // recommendation: the cheapest per experiment that its GPUs can reach and an offer rents,
    // not the first option, 1x RTX 3090).
    void viewsStartFromTheSameMachine()
    {
        auto w = makeWindow();
        const Results& r = w->session()->results();
        QVERIFY(!r.recommended);
        const auto expected = defaultMachineToCompare(r);
        QVERIFY(expected);
        QVERIFY(*expected != 0);
        QCOMPARE(w->buyVsRentView()->machine(), expected);
        QCOMPARE(w->budgetView()->target()->index, *expected);
        render::ReportInput report;
        report.results = &r;
        QCOMPARE(render::reportBuyOption(report), expected);
    }

    // The machine to buy is one choice for Buy vs rent and the budget, so the report, which
    // shows both, compares the machine it budgets: choosing 8xA100 in Buy vs rent had left the
    // budget on the recommendation, and the report compared one machine and budgeted another.
    void aMachineChosenInOneTabIsBudgetedAndCompared()
    {
        auto w = makeWindow();
        const Results& r = w->session()->results();
        const auto a100 = optionOf(r, "a100-80gb-sxm", 8);
        QVERIFY(a100);
        QVERIFY(w->budgetView()->target()->index != *a100); // else this would test nothing
        // The user's choice in Buy vs rent (activated, as a click or a key makes it).
        auto* machines = w->buyVsRentView()->findChild<QComboBox*>(QStringLiteral("machine"));
        QVERIFY(machines);
        machines->setCurrentIndex(static_cast<int>(*a100));
        emit machines->activated(static_cast<int>(*a100));
        QVERIFY(w->budgetView()->target());
        QVERIFY(w->budgetView()->target()->kind == BudgetTarget::Kind::Owned);
        QCOMPARE(w->budgetView()->target()->index, *a100);
        render::ReportInput report;
        report.results = &r;
        report.buyOption = w->buyVsRentView()->machine();
        report.budgetTarget = w->budgetView()->target();
        QCOMPARE(render::reportBuyOption(report), std::optional<std::size_t>(*a100));

        // Another machine to buy chosen in the budget reaches Buy vs rent the same way.
        auto* targets = w->budgetView()->findChild<QComboBox*>(QStringLiteral("budgetTarget"));
        QVERIFY(targets);
        const auto h100 = optionOf(r, "h100-80gb-sxm", 8);
        QVERIFY(h100);
        targets->setCurrentIndex(static_cast<int>(*h100)); // owned targets come first, in order
        emit targets->activated(static_cast<int>(*h100));
        QCOMPARE(w->buyVsRentView()->machine(), h100);

        // A rental chosen in the budget stays when another machine is compared.
        const int rental = targets->count() - 1;
        QVERIFY(targets->itemText(rental).startsWith(QStringLiteral("Rent ")));
        targets->setCurrentIndex(rental);
        emit targets->activated(rental);
        machines->setCurrentIndex(static_cast<int>(*a100));
        emit machines->activated(static_cast<int>(*a100));
        QVERIFY(w->budgetView()->target()->kind == BudgetTarget::Kind::Rented);
    }

    // A month typed over the whole start month is the month typed: Qt sent the digits to the
    // month section, so "2027-01" over "2026-12" gave 2026-01 without a word (helper 63).
    void aGrantStartTypedOverTheWholeTextIsTaken()
    {
        auto w = makeWindow();
        auto* start = w->budgetView()->findChild<QDateEdit*>(QStringLiteral("grantStart"));
        QVERIFY(start);
        start->setFocus();
        start->selectAll();
        QTest::keyClicks(start, QStringLiteral("2027-01"));
        QCOMPARE(start->date(), QDate(2027, 1, 1));
        QTest::keyClick(start, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(start, QStringLiteral("2028-03"));
        QCOMPARE(start->date(), QDate(2028, 3, 1));
        QVERIFY(w->budgetView()->plan());
        QCOMPARE(w->budgetView()->plan()->startYear, 2028);
        QCOMPARE(w->budgetView()->plan()->startMonth, 3);
    }

    // A reservation can be budgeted here as in the CLI: the paper's AWS p4de 5-year term is
    // listed beside the cheaper on-demand rental of the same GPUs, which had hidden it.
    void aReservationCanBeBudgeted()
    {
        auto w = makeWindow();
        auto* targets = w->budgetView()->findChild<QComboBox*>(QStringLiteral("budgetTarget"));
        QVERIFY(targets);
        int reservation = -1;
        for (int i = 0; i < targets->count(); ++i)
            if (targets->itemText(i).contains(QStringLiteral("5-year reservation")))
                reservation = i;
        QVERIFY2(reservation >= 0, qPrintable(targets->itemText(targets->count() - 1)));
        QVERIFY(targets->itemText(reservation).startsWith(QStringLiteral("Rent AWS")));
        targets->setCurrentIndex(reservation);
        QVERIFY(w->budgetView()->target()->kind == BudgetTarget::Kind::Rented);
        QVERIFY(w->budgetView()->justificationText().contains(
            QStringLiteral("The offer is a reservation only")));

        // An offer renting by the hour is listed by its reserved terms too, and a scenario
        // keeps that choice.
        int terms = -1;
        for (int i = 0; i < targets->count(); ++i)
            if (targets->itemText(i).endsWith(QStringLiteral(", reserved terms")))
                terms = i;
        QVERIFY(terms >= 0);
        targets->setCurrentIndex(terms);
        emit targets->activated(terms);
        QVERIFY(w->budgetView()->target()->reservedTerms);
        QVERIFY(w->budgetView()->justificationText().contains(
            QStringLiteral("It is budgeted by the offer's reserved terms")));
        const QString path = m_files.filePath(QStringLiteral("terms.gpuplan.yaml"));
        QString error;
        QVERIFY2(w->saveScenario(path, &error), qPrintable(error));
        QVERIFY(readAll(path).contains("terms: reserved"));
        auto reopened = makeWindow();
        QVERIFY2(reopened->openScenario(path, &error), qPrintable(error));
        QVERIFY(reopened->budgetView()->target());
        QVERIFY(reopened->budgetView()->target()->reservedTerms);

        // A price edit that takes the offer's terms away keeps the offer, by the hour, rather
        // than pinning the default machine as the user's choice.
        const std::string offerId
            = w->session()->results().cloud[w->budgetView()->target()->index].offer->id;
        auto edited = std::make_shared<Catalog>(w->session()->catalog());
        for (auto& offer : edited->cloudOffers)
            if (offer.id == offerId)
                offer.reserved.clear();
        w->session()->setCatalog(edited);
        QVERIFY(w->budgetView()->target());
        QVERIFY(w->budgetView()->target()->kind == BudgetTarget::Kind::Rented);
        QVERIFY(!w->budgetView()->target()->reservedTerms);
        QCOMPARE(
            w->session()->results().cloud[w->budgetView()->target()->index].offer->id, offerId);
    }

    // A rental not among the few listed (a scenario's, or one chosen before a cheaper offer
    // appeared) is listed and budgeted rather than ignored.
    void aRentalNotListedIsListedWhenChosen()
    {
        setCurrentPriceSet(QString::fromStdString(std::string(kDefaultPriceSet)));
        auto w = makeWindow();
        auto* targets = w->budgetView()->findChild<QComboBox*>(QStringLiteral("budgetTarget"));
        QVERIFY(targets);
        const Results& r = w->session()->results();
        std::optional<std::size_t> unlisted;
        for (std::size_t i = 0; i < r.cloud.size() && !unlisted; ++i) {
            const QString label = views::budgetTargetLabel(r, { BudgetTarget::Kind::Rented, i });
            if (targets->findText(QStringLiteral("Rent ") + label) < 0)
                unlisted = i;
        }
        QVERIFY(unlisted); // else this would test nothing
        const int before = targets->count();
        w->budgetView()->setTarget({ BudgetTarget::Kind::Rented, *unlisted });
        QCOMPARE(targets->count(), before + 1);
        QVERIFY(w->budgetView()->targetChosen());
        QCOMPARE(w->budgetView()->target()->index, *unlisted);
        // It stays chosen through a re-plot.
        Assumptions a = w->session()->scenario().assumptions;
        a.amortizationYears = 4.0;
        w->session()->setAssumptions(a);
        QVERIFY(w->budgetView()->target()->kind == BudgetTarget::Kind::Rented);
        QCOMPARE(w->session()->results().cloud[w->budgetView()->target()->index].offer->id,
            r.cloud[*unlisted].offer->id);
    }

    // With the current prices, the reserved terms the justification can name cheapest for a
    // plan are listed even where another offer rents the same GPUs cheaper by the hour: AWS's
    // L40S 3-year term beside RunPod's L40S.
    void theCheapestReservedTermsAreListed()
    {
        setCurrentPriceSet(QString::fromStdString(std::string(kDefaultPriceSet)));
        auto w = makeWindow();
        auto* targets = w->budgetView()->findChild<QComboBox*>(QStringLiteral("budgetTarget"));
        QVERIFY(targets);
        bool awsTerms = false;
        for (int i = 0; i < targets->count(); ++i)
            awsTerms = awsTerms
                || (targets->itemText(i).contains(QStringLiteral("g6e.xlarge"))
                    && targets->itemText(i).endsWith(QStringLiteral("reserved terms")));
        QVERIFY(awsTerms);
    }

    void buyVsRentKeepsTheUsersChoicesAcrossReplots()
    {
        auto w = makeWindow();
        BuyVsRentView* view = w->buyVsRentView();
        const auto firstOffer = [&w](const std::string& gpu, int count) {
            const Results& r = w->session()->results();
            for (std::size_t i = 0; i < r.cloud.size(); ++i)
                if (r.cloud[i].gpu->id == gpu && r.cloud[i].gpuCount == count)
                    return std::optional<std::size_t>(i);
            return std::optional<std::size_t>();
        };
        view->setMachine(*optionOf(w->session()->results(), "h100-80gb-sxm", 4));
        const auto eight = firstOffer("h100-80gb-sxm", 8);
        QVERIFY(eight);
        const std::string offerId = w->session()->results().cloud[*eight].offer->id;
        view->setChosenOffers({ *eight }); // not the default: the machine has 4 GPUs

        Assumptions a = w->session()->scenario().assumptions;
        a.amortizationYears = 3.0;
        w->session()->setAssumptions(a);
        const Results& after = w->session()->results();
        QCOMPARE(view->machine(), optionOf(after, "h100-80gb-sxm", 4));
        const auto chosen = view->chosenOffers();
        QCOMPARE(chosen.size(), std::size_t(1));
        QCOMPARE(after.cloud[chosen[0]].offer->id, offerId);
        QCOMPARE(after.cloud[chosen[0]].gpuCount, 8);

        // A new H100 price (card or system): the machine's label changes, the machine stays.
        auto* machines = view->findChild<QComboBox*>(QStringLiteral("machine"));
        const QString label = machines->currentText();
        auto edited = std::make_shared<Catalog>(w->session()->catalog());
        for (auto& gpu : edited->gpus)
            if (gpu.id == "h100-80gb-sxm" && gpu.priceUsd)
                *gpu.priceUsd *= 0.8;
        for (auto& system : edited->systems)
            if (system.gpuId == "h100-80gb-sxm")
                system.priceUsd *= 0.8;
        w->session()->setCatalog(edited);
        QVERIFY(machines->currentText() != label);
        QCOMPARE(view->machine(), optionOf(w->session()->results(), "h100-80gb-sxm", 4));

        // Another machine: the offers of its own GPU count, ticked by default.
        const Results& now = w->session()->results();
        view->setMachine(*optionOf(now, "a100-80gb-sxm", 8));
        QVERIFY(!view->chosenOffers().empty());
        for (const std::size_t i : view->chosenOffers()) {
            QCOMPARE(now.cloud[i].gpu->id, std::string("a100-80gb-sxm"));
            QCOMPARE(now.cloud[i].gpuCount, 8);
        }
    }

    void quittingMidRunKeepsTheMeasurements()
    {
        const QString fake = m_files.filePath(QStringLiteral("gpuplan-bench"));
        QFile::remove(fake);
        QVERIFY(
            QFile::copy(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/benchview/fake_bench.sh"), fake));
        QVERIFY(
            QFile::setPermissions(fake, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        qputenv("GPUPLAN_BENCH", fake.toUtf8());
        qputenv("FAKE_DATA", QByteArray(GPUPLAN_SOURCE_DIR "/tests/benchview/data"));
        qputenv("FAKE_DEVICES", "cpu");
        qputenv("FAKE_RUN", "stubborn"); // ignores SIGTERM: only the kill ends it

        auto w = makeWindow();
        w->show();
        auto* bench = w->findChild<benchview::BenchmarkView*>();
        QVERIFY(bench);
        w->tabs()->setCurrentWidget(bench);
        QTRY_VERIFY_WITH_TIMEOUT(
            bench->findChild<QComboBox*>(QStringLiteral("deviceBox"))->count() > 0, 5000);
        bench->findChild<QPushButton*>(QStringLiteral("runButton"))->click();
        auto* runner
            = bench->findChild<benchrun::BenchmarkRunner*>(QStringLiteral("benchmarkRunner"));
        QTRY_VERIFY_WITH_TIMEOUT(runner->hasResults(), 5000);
        const qint64 pid = runner->processId();
        QVERIFY(pid > 0);
        QVERIFY(views::userResultFiles().isEmpty());

        { // "No" keeps the run going.
            BoxAnswerer no({ QMessageBox::No });
            QVERIFY(!w->close());
            QVERIFY(no.answeredAll());
            QVERIFY(bench->isRunning());
        }
        BoxAnswerer yes({ QMessageBox::Yes });
        QVERIFY(w->close());
        QVERIFY(yes.answeredAll());
        QVERIFY2(yes.texts.first().contains(QStringLiteral("Stop it and quit?")),
            qPrintable(yes.texts.first()));
        QVERIFY(!bench->isRunning());
        // What was measured is in the user data dir, and the planner has read it.
        const QStringList saved = views::userResultFiles();
        QCOMPARE(saved.size(), qsizetype { 1 });
        QCOMPARE(readAll(saved.first()),
            readAll(
                QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/benchview/data/results-partial.yaml")));
        QVERIFY(QFileInfo(saved.first()).fileName().startsWith(QStringLiteral("pythia-160m-cpu-")));
        QVERIFY(!w->session()->catalog().measured.empty());
        QVERIFY(processGone(pid)); // reaped: no zombie
        w.reset();
        QCOMPARE(views::userResultFiles().size(), qsizetype { 1 });
        qunsetenv("GPUPLAN_BENCH");
    }

    void buyVsRentStatesTheBreakEven()
    {
        setCurrentPriceSet(QString()); // the current prices rent RTX 3090s (RunPod, Vast)
        auto w = makeWindow();
        const auto rtx = optionOf(w->session()->results(), "rtx-3090", 2);
        QVERIFY(rtx);
        w->buyVsRentView()->setMachine(*rtx);
        const QString words = w->buyVsRentView()->conclusion();
        QVERIFY2(words.contains(QStringLiteral("Buying 2×RTX 3090 pays off from run")),
            qPrintable(words));
        // Under it, which way the planned runs (one by default) cost less.
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        w->tabs()->setCurrentWidget(w->buyVsRentView());
        auto* verdict = w->buyVsRentView()->findChild<QLabel*>(QStringLiteral("planVerdict"));
        QVERIFY(verdict);
        QCOMPARE(verdict->text(), w->buyVsRentView()->planVerdict());
        QVERIFY2(verdict->text().startsWith(
                     QStringLiteral("For the 1 run planned: buying 2×RTX 3090 costs $")),
            qPrintable(verdict->text()));
        // With one offer ticked, the chart's footnote is its break-even sentence: not repeated
        // under the view's headline, kept in an exported chart, where it stands alone.
        {
            auto* ticks = w->buyVsRentView()->findChild<QListWidget*>(QStringLiteral("offers"));
            const auto ticked = w->buyVsRentView()->chosenOffers();
            bool kept = false;
            for (int row = 0; row < ticks->count(); ++row)
                if (ticks->item(row)->checkState() == Qt::Checked) {
                    if (kept)
                        ticks->item(row)->setCheckState(Qt::Unchecked);
                    kept = true;
                }
            QVERIFY(kept);
            const QString one = w->buyVsRentView()->conclusion();
            QVERIFY2(w->buyVsRentView()->chartData().footnote.startsWith(one), qPrintable(one));
            QVERIFY2(!w->buyVsRentView()->chart()->chartData().footnote.contains(one),
                qPrintable(w->buyVsRentView()->chart()->chartData().footnote));
            w->buyVsRentView()->setChosenOffers(ticked); // as the rest of this test expects
        }
        QVERIFY(!w->buyVsRentView()->chartData().series.empty());
        // The offers beside the chart: provider, GPU count and cost per run first, within the
        // narrowest the pane gets (a check box and margins aside), the instance after them and
        // whole in the tooltip.
        auto* offers = w->buyVsRentView()->findChild<QListWidget*>(QStringLiteral("offers"));
        QVERIFY(offers->count() >= 2);
        // The rest wraps within the list, not cut mid-word under a scroll bar (review).
        QVERIFY(offers->wordWrap());
        QCOMPARE(offers->horizontalScrollBarPolicy(), Qt::ScrollBarAlwaysOff);
        const QFontMetrics metrics(offers->font());
        const QRegularExpression head(QStringLiteral("^(.+?) \u00D7(\\d+): \\$[0-9,.]+/run"));
        for (int i = 0; i < offers->count(); ++i) {
            const QString text = offers->item(i)->text();
            const QRegularExpressionMatch m = head.match(text);
            QVERIFY2(m.hasMatch(), qPrintable(text));
            QVERIFY2(metrics.horizontalAdvance(m.captured(0)) + 60 < offers->minimumWidth(),
                qPrintable(text));
            const QString instance = text.section(QStringLiteral(" \u00B7 "), 1);
            QVERIFY(!instance.isEmpty());
            QVERIFY2(offers->item(i)->toolTip().startsWith(m.captured(1) + QLatin1Char(' ')
                         + instance + QStringLiteral(" \u00D7") + m.captured(2) + QLatin1Char(':')),
                qPrintable(offers->item(i)->toolTip()));
        }
        // How firm: the break-even as a range, and the tornado below the chart.
        QVERIFY2(words.contains(QStringLiteral("with every input at either end of its range")),
            qPrintable(words));
        QString why;
        const auto tornado = w->buyVsRentView()->sensitivityData(&why);
        QVERIFY2(tornado, qPrintable(why));
        // Against the offer by name, as the chart's legend says it (not its catalog id): a
        // RunPod pod of 2, one machine (Vast.ai's two hosts exchange over the internet).
        QCOMPARE(tornado->title,
            QStringLiteral("What moves the break-even of 2×RTX 3090 against RunPod 2×RTX 3090"));
        QVERIFY(tornado->series.size() >= 3); // one bar per input that moves it
        auto* metric
            = w->buyVsRentView()->findChild<QComboBox*>(QStringLiteral("sensitivityMetric"));
        metric->setCurrentIndex(1);
        const auto cost = w->buyVsRentView()->sensitivityData(&why);
        QVERIFY(cost);
        QCOMPARE(cost->title, QStringLiteral("What moves the per-experiment cost of 2×RTX 3090"));
        // Drawn once the tab is shown.
        w->show();
        w->findChild<QTabWidget*>()->setCurrentWidget(w->buyVsRentView());
        QCOMPARE(w->buyVsRentView()->sensitivityChart()->chartData().title, cost->title);
        // Each input keeps a line for its label however short the window: the chart's minimum
        // height holds them all, and the area around it scrolls.
        render::ChartWidget* tornadoChart = w->buyVsRentView()->sensitivityChart();
        const auto rows = tornadoChart->chartData().y.rows.size();
        QVERIFY(rows >= 4);
        QCOMPARE(tornadoChart->minimumHeight(), tornadoChart->rowsMinimumHeight(rows));
        QVERIFY(tornadoChart->minimumHeight()
            >= 170 + static_cast<int>(rows) * QFontMetrics(QApplication::font()).height());
        QVERIFY(w->buyVsRentView()->findChild<QScrollArea*>(QStringLiteral("sensitivityScroll")));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"

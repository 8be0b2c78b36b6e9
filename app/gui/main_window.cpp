#include "app/gui/main_window.h"

#include "app/common/format.h"
#include "app/common/results_csv.h"
#include "app/common/saved_file.h"
#include "app/common/wording.h"
#include "app/document/scenario_document.h"
#include "app/gui/assumptions_panel.h"
#include "app/gui/budget_view.h"
#include "app/gui/buy_vs_rent_view.h"
#include "app/gui/catalog_import_dialog.h"
#include "app/gui/chart_actions.h"
#include "app/gui/planner_session.h"
#include "app/gui/planner_view.h"
#include "app/gui/price_book.h"
#include "app/gui/price_tables_view.h"
#include "app/gui/user_files.h"
#include "app/render/chart_widget.h"
#include "app/render/proposal_report.h"
#include "core/training_estimate.h"
#include "pricing/catalog_import/catalog_file.h"
#include "pricing/scenario/scenario_file.h"

#include "app/benchview/benchmark_view.h"

#include <QAbstractButton>
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScopeGuard>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>

namespace gpuplan::gui {

namespace {

const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
// The runner kills a cancelled worker after 0.6 s; this only bounds a system that is stuck.
constexpr std::chrono::seconds kQuitBenchmarkWait { 10 };
const QString kScenarioFilter = QStringLiteral("gpuplan scenarios (*.gpuplan.yaml)");

// Export tables as CSV writes the cloud offers beside the options: "options.csv" ->
// "options-cloud.csv".
QString cloudCsvPath(const QString& optionsPath)
{
    const QFileInfo info(optionsPath);
    return info.dir().filePath(info.completeBaseName() + QStringLiteral("-cloud.csv"));
}

} // namespace

MainWindow::MainWindow(std::shared_ptr<const Catalog> catalog, QWidget* parent)
    : QMainWindow(parent)
{
    m_book = new PriceBook(catalog, this);
    m_document = new document::ScenarioDocument(this);
    connect(m_document, &document::ScenarioDocument::pathChanged, this, &MainWindow::updateTitle);
    connect(m_document, &document::ScenarioDocument::recentFilesChanged, this,
        &MainWindow::fillRecentMenu);
    m_session = new PlannerSession(m_book->snapshot(), this);

    m_tabs = new QTabWidget;
    m_planner = new PlannerView(m_session);
    m_buyVsRent = new BuyVsRentView(m_session);
    m_budget = new BudgetView(m_session);
    m_prices = new PriceTablesView(m_book);
    m_tabs->addTab(m_planner, tr("Planner"));
    m_tabs->addTab(m_buyVsRent, tr("Buy vs rent"));
    m_tabs->addTab(m_budget, tr("Budget"));
    m_tabs->addTab(m_prices, tr("Price tables"));
    auto* bench = new benchview::BenchmarkView(m_book->snapshot());
    m_benchmark = bench;
    m_tabs->addTab(bench, tr("Benchmark"));
    connect(
        bench, &benchview::BenchmarkView::measurementsSaved, this, &MainWindow::reloadMeasurements);
    setCentralWidget(m_tabs);

    m_assumptions = new AssumptionsPanel;
    m_assumptions->setTableValues(m_book->catalog().defaults);
    m_assumptions->setAssumptions(m_session->scenario().assumptions);
    auto* dock = new QDockWidget(tr("Assumptions"), this);
    dock->setObjectName(QStringLiteral("assumptionsDock"));
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_assumptions);
    scroll->setWidgetResizable(true);
    // Narrower, the labels and input boxes disappear behind a scroll bar: the central views
    // give way instead.
    scroll->setMinimumWidth(280);
    dock->setWidget(scroll);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    connect(m_assumptions, &AssumptionsPanel::assumptionsChanged, this,
        [this] { m_session->setAssumptions(m_assumptions->assumptions()); });

    connect(m_session, &PlannerSession::modifiedChanged, this, &MainWindow::updateTitle);
    // Price ages in the Price tables view count to the plan's day, against its stale limit.
    auto showPriceAges = [this] {
        const Results& r = m_session->results();
        m_prices->setAgeReference(r.today, r.assumptions.staleMonths);
    };
    connect(m_session, &PlannerSession::resultsChanged, this, showPriceAges);
    showPriceAges();
    // Log axes are saved with the scenario: toggling them is a change to save.
    connect(
        m_planner, &PlannerView::logAxesToggled, this, [this] { m_session->setModified(true); });
    connect(m_budget, &BudgetView::settingsChanged, this, [this] { m_session->setModified(true); });
    // The machine, offers and axis of Buy vs rent are saved with the scenario too.
    connect(m_buyVsRent, &BuyVsRentView::settingsChanged, this,
        [this] { m_session->setModified(true); });
    // The dock shows the planned runs the Budget view's typed runs per year add up to.
    connect(m_budget, &BudgetView::plannedRunsTyped, this, [this](int total) {
        Assumptions a = m_session->scenario().assumptions;
        chooseAssumptionValue(a, AssumptionId::PlannedRuns, total, &m_session->catalog().defaults);
        // And their pace over the grant, as the report plans them: Buy vs rent's break-even
        // months had counted 1 run a month against the report's 0.56 (helper 63).
        if (const auto plan = m_budget->plan()) {
            const auto target = m_budget->target();
            chooseAssumptionValue(a, AssumptionId::RunsPerMonth,
                grantPaceRunsPerMonth(
                    *plan, target ? target->kind : BudgetTarget::Kind::Owned, total),
                &m_session->catalog().defaults);
        }
        m_assumptions->setAssumptions(a);
        m_session->setAssumptions(a);
    });
    connect(m_book, &PriceBook::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_book, &PriceBook::modifiedChanged, this, &MainWindow::showPriceSet);
    // Connected before catalogChanged, which a reset emits after tablesReset: a reload leaves
    // no edit to undo.
    connect(m_book, &PriceBook::tablesReset, this, [this] { m_carriedDefaults.tablesReloaded(); });
    connect(m_book, &PriceBook::catalogChanged, this, &MainWindow::catalogEdited);
    connect(m_prices, &PriceTablesView::saveRequested, this, &MainWindow::savePrices);
    connect(m_prices, &PriceTablesView::revertRequested, this, &MainWindow::revertPrices);
    connect(m_prices, &PriceTablesView::importRequested, this, &MainWindow::importPricesDialog);
    connect(
        m_prices, &PriceTablesView::catalogImportRequested, this, &MainWindow::importCatalogDialog);
    // Choosing a machine in the planner carries over to the buy-vs-rent comparison and the
    // budget when it is chosen, not on every visit: a tab's own later choice (renting, say)
    // stays until the next machine chosen in the planner.
    connect(m_planner, &PlannerView::optionChosen, this, [this](std::size_t index) {
        m_buyVsRent->setMachine(index);
        m_budget->setMachine(index);
    });
    // The machine to buy is one choice for the comparison and the budget, so that the report,
    // which shows both, compares the machine it budgets (choosing 8xA100 in Buy vs rent had
    // left the budget on the recommended 2xH100, and the report contradicted itself). A
    // rental chosen in the budget stays: buying is then weighed against it there.
    connect(m_buyVsRent, &BuyVsRentView::machineChosenHere, m_budget,
        &BudgetView::followMachineChosenElsewhere);
    connect(m_budget, &BudgetView::machineChosenHere, m_buyVsRent, &BuyVsRentView::setMachine);

    m_chartActions = new ChartActions(this, m_tabs,
        { { tr("Training days vs hardware cost"), m_planner->hardwareChart() },
            { tr("Per-experiment cost vs training days"), m_planner->experimentChart() },
            { tr("Buy vs rent"), m_buyVsRent->chart() },
            { tr("Buy vs rent sensitivity"), m_buyVsRent->sensitivityChart() } });
    buildMenus();
    m_freshGrant = m_budget->grantSettings();
    m_freshView = currentView();
    // The first start's size, within the screen (a 1366x768 laptop included); later starts
    // restore the user's.
    QSize first(1500, 950);
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        first = first.boundedTo(screen->availableGeometry().size() * 0.95);
    resize(first);
    // The dock at its narrowest readable width on a first start: given its preferred width, it
    // took the room the charts and the Planner's one control line need on a 1280-px screen.
    resizeDocks(
        { findChild<QDockWidget*>(QStringLiteral("assumptionsDock")) }, { 300 }, Qt::Horizontal);
    QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoreState(settings.value(kStateKey).toByteArray());
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New scenario"), QKeySequence::New, this, &MainWindow::newScenario);
    file->addAction(
        tr("&Open scenario…"), QKeySequence::Open, this, &MainWindow::openScenarioDialog);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    fillRecentMenu();
    // Each time it opens: a file may have gone since.
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    file->addAction(
        tr("&Save scenario"), QKeySequence::Save, this, [this] { saveScenarioAction(); });
    // Ctrl+Shift+S where the platform has no Save As key (generic X11, Windows).
    const QKeySequence saveAs = QKeySequence(QKeySequence::SaveAs).isEmpty()
        ? QKeySequence(tr("Ctrl+Shift+S"))
        : QKeySequence(QKeySequence::SaveAs);
    file->addAction(tr("Save scenario &as…"), saveAs, this, [this] { saveScenarioAsDialog(); });
    file->addSeparator();
    file->addAction(tr("Import &measurements…"), this, &MainWindow::importMeasurementsDialog);
    file->addAction(tr("Import &price table…"), this, &MainWindow::importPricesDialog);
    file->addAction(tr("Import &cloud catalog…"), this, &MainWindow::importCatalogDialog);
    file->addSeparator();
    // Ctrl+Shift+E: a text field takes Ctrl+E (end of line) on Linux, so the export would
    // silently not start from the dock or the Budget tab.
    file->addAction(tr("&Export chart…"), QKeySequence(tr("Ctrl+Shift+E")), m_chartActions,
        qOverload<>(&ChartActions::exportDialog));
    file->addAction(tr("Export proposal report (P&DF)…"), QKeySequence(tr("Ctrl+R")), this,
        &MainWindow::exportReportDialog);
    file->addAction(tr("Export &tables as CSV…"), this, &MainWindow::exportCsvDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_book->undoStack()->createUndoAction(this, tr("&Undo price edit"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_book->undoStack()->createRedoAction(this, tr("&Redo price edit"));
    redo->setShortcuts({ QKeySequence(tr("Ctrl+Shift+Z")), QKeySequence::Redo });
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(m_chartActions->copyAction());

    QMenu* prices = menuBar()->addMenu(tr("&Prices"));
    m_priceSets = new QActionGroup(this);
    for (const std::string& set : priceSetNames()) {
        QAction* action = prices->addAction(tr("Plan with %1").arg(views::priceSetLabel(set)));
        action->setCheckable(true);
        action->setData(QString::fromStdString(set));
        m_priceSets->addAction(action);
    }
    connect(m_priceSets, &QActionGroup::triggered, this, [this](QAction* action) {
        const std::string before = m_book->catalog().priceSet;
        if (!usePriceSet(action->data().toString()))
            showPriceSet(); // cancelled: the tick goes back
        else if (m_book->catalog().priceSet != before)
            m_session->setModified(true); // the scenario file keeps its price set
    });
    m_priceSetLabel = new QLabel(this);
    m_priceSetLabel->setObjectName(QStringLiteral("priceSetLabel"));
    statusBar()->addPermanentWidget(m_priceSetLabel);
    showPriceSet();

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < m_tabs->count(); ++i)
        view->addAction(m_tabs->tabText(i), QKeySequence(QStringLiteral("Alt+%1").arg(i + 1)), this,
            [this, i] { m_tabs->setCurrentIndex(i); });
    // A closed Assumptions dock comes back from here (it stays closed across restarts).
    view->addSeparator();
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("assumptionsDock")))
        view->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(
        tr("&How gpuplan computes costs"), QKeySequence::HelpContents, this, &MainWindow::showHelp);
    help->addAction(tr("&About gpuplan"), this, &MainWindow::showAbout);
}

void MainWindow::updateTitle()
{
    setWindowTitle(QStringLiteral("%1[*] — GPU Budget Planner").arg(m_document->displayName()));
    setWindowModified(m_session->isModified() || m_book->isModified());
}

void MainWindow::catalogEdited()
{
    const Catalog& before = m_session->catalog();
    const Catalog& after = m_book->catalog();
    // The electricity table sets the defaults; an edit is carried into the scenario's
    // assumptions, and its undo gives back what it replaced (app/gui/carried_defaults.h).
    const bool edited = before.defaults.electricityUsdPerKwh != after.defaults.electricityUsdPerKwh
        || before.defaults.pue != after.defaults.pue;
    const Assumptions a = m_carriedDefaults.carry(
        m_session->scenario().assumptions, before.defaults, after.defaults);
    m_session->setCatalog(m_book->snapshot());
    m_assumptions->setTableValues(after.defaults);
    if (edited) {
        m_assumptions->setAssumptions(a);
        m_session->setAssumptions(a);
    }
}

bool MainWindow::confirmDiscardPriceEdits()
{
    if (!m_book->isModified() || m_priceEditsLetGo)
        return true;
    const auto answer = QMessageBox::question(this, tr("Unsaved price edits"),
        tr("The price tables have edits that are not saved. Save them?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save) {
        savePrices();
        return !m_book->isModified();
    }
    // Let go, not yet gone: they go when the action goes ahead (settlePriceEdits), and stay if a
    // later step of it is cancelled; meanwhile the action does not ask again.
    m_priceEditsLetGo = true;
    return true;
}

void MainWindow::settlePriceEdits(bool actionGoesAhead)
{
    if (m_priceEditsLetGo && actionGoesAhead && m_book->isModified())
        m_book->reset(loadUserCatalog().catalog);
    m_priceEditsLetGo = false;
}

void MainWindow::commitTypedValue()
{
    // A spin box or line edit takes in its text when it loses focus (valueChanged,
    // editingFinished), which a keyboard shortcut does not cause.
    // In this window or in a dock floating beside it (a window of its own).
    QWidget* focused = QApplication::focusWidget();
    if (focused && (focused->window() == this || focused->window()->parentWidget() == this)) {
        focused->clearFocus();
        focused->setFocus();
    }
}

bool MainWindow::confirmReplacing(const QStringList& others)
{
    const QStringList existing = views::existingFiles(others);
    if (existing.isEmpty())
        return true;
    QString question = tr("Beside it, these files are written too and already exist:");
    for (const QString& file : existing)
        question += QStringLiteral("\n  ") + QDir::toNativeSeparators(file);
    question += QStringLiteral("\n\n") + tr("Replace them?");
    return QMessageBox::question(this, tr("Replace files"), question) == QMessageBox::Yes;
}

bool MainWindow::confirmDiscard()
{
    commitTypedValue();
    if (!confirmDiscardPriceEdits())
        return false;
    if (m_session->isModified()) {
        const auto answer = QMessageBox::question(this, tr("Unsaved scenario"),
            tr("The scenario has changes that are not saved. Save them?"),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
        if (answer == QMessageBox::Cancel)
            return false;
        if (answer == QMessageBox::Save)
            return saveScenarioAction();
    }
    return true;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    auto* bench = static_cast<benchview::BenchmarkView*>(m_benchmark);
    if (bench->isRunning()
        && QMessageBox::question(this, tr("Benchmark running"),
               tr("A benchmark is running. Stop it and quit? What it has measured so far is "
                  "saved."))
            != QMessageBox::Yes) {
        event->ignore();
        return;
    }
    if (!confirmDiscard()) {
        settlePriceEdits(false);
        event->ignore();
        return;
    }
    // Stopped only now, when nothing can cancel the quit any more. Without this the worker would
    // be killed by the view's destructor, its temporary results folder deleted unsaved.
    if (bench->isRunning()) {
        statusBar()->showMessage(tr("Stopping the benchmark and saving what it measured..."));
        bench->stopAndKeepResults(kQuitBenchmarkWait);
    }
    m_priceEditsLetGo = false; // the window goes, and the edits with it
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
    m_document->rememberAsLast();
    event->accept();
}

void MainWindow::fillRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = m_document->recentFiles();
    for (const QString& path : recent) {
        QAction* action = m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] {
            QString error;
            if (!confirmDiscard()) {
                settlePriceEdits(false);
                return;
            }
            // An empty error: the user cancelled (unsaved price edits of another price set).
            if (!openScenario(path, &error) && !error.isEmpty())
                QMessageBox::warning(this, tr("Cannot open scenario"), error);
        });
        action->setToolTip(path);
        // Kept in the list (the file may be on a drive not mounted now), but not offered.
        if (!QFileInfo::exists(path)) {
            action->setText(tr("%1 (not found)").arg(QFileInfo(path).fileName()));
            action->setEnabled(false);
        }
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::newScenario()
{
    if (!confirmDiscard()) {
        settlePriceEdits(false);
        return;
    }
    settlePriceEdits(true); // first: the new scenario starts from the saved tables' defaults
    Scenario fresh;
    fresh.modelId = m_session->scenario().modelId;
    fresh.assumptions = m_session->catalog().defaults;
    m_session->setScenario(fresh);
    m_carriedDefaults.scenarioReplaced(); // an undo gives the last one's figures to none
    m_assumptions->setAssumptions(fresh.assumptions);
    // The grant and the views' settings start afresh too: they are saved with the scenario.
    m_budget->setGrantSettings(m_freshGrant);
    m_buyVsRent->followRecommendation();
    m_budget->followRecommendation();
    applyView(m_freshView);
    m_session->setModified(false);
    m_document->clear();
    updateTitle();
}

void MainWindow::showPriceSet()
{
    const QString set = QString::fromStdString(m_book->catalog().priceSet);
    for (QAction* action : m_priceSets->actions())
        action->setChecked(action->data().toString() == set);
    // Every view plans with the edited tables at once: said here too, where the edit was
    // shown only on the Price tables tab and the Planner read as the shipped prices (review).
    const QString label = views::priceSetLabel(set.toStdString());
    m_priceSetLabel->setText(m_book->isModified()
            ? tr("Planning with %1, edited (not saved)").arg(label)
            : tr("Planning with %1").arg(label));
}

bool MainWindow::usePriceSet(const QString& priceSet)
{
    if (QString::fromStdString(m_book->catalog().priceSet) == priceSet)
        return true;
    // The tables reload from the files: edits not saved would be lost.
    if (!confirmDiscardPriceEdits())
        return false;
    setCurrentPriceSet(priceSet);
    m_book->reset(loadUserCatalog().catalog);
    m_priceEditsLetGo = false; // gone with the reload
    showPriceSet();
    return true;
}

bool MainWindow::openScenario(const QString& path, QString* error)
{
    auto opened = m_document->read(path, m_session->catalog(), error);
    if (!opened) {
        settlePriceEdits(false);
        return false;
    }
    // The scenario was planned with a price set: reopen it with the same prices. Declined
    // (unsaved price edits), nothing has changed: not the plan, not the file's name.
    if (opened->priceSet && !usePriceSet(QString::fromStdString(*opened->priceSet))) {
        settlePriceEdits(false);
        error->clear();
        return false;
    }
    // Before the scenario is applied: resetting the tables later would carry their defaults
    // into it. Tables that changed (edits let go, another price set) give the assumptions the
    // file leaves out: read it again against them.
    const Catalog* readWith = &m_session->catalog();
    settlePriceEdits(true);
    if (&m_session->catalog() != readWith) {
        opened = m_document->read(path, m_session->catalog(), error);
        if (!opened)
            return false;
    }
    m_document->adopt(path, opened->digest);
    m_session->setScenario(opened->scenario);
    m_carriedDefaults.scenarioReplaced(); // an undo gives the last one's figures to none
    m_assumptions->setAssumptions(opened->scenario.assumptions);
    m_buyVsRent->followRecommendation(); // the file's choices, if it has any, are applied next
    m_budget->followRecommendation();
    applyView(opened->view);
    QString warnings = opened->warnings;
    // A file without a grant (older, hand-written, from the CLI) gets a new scenario's, not the
    // one open before.
    if (const QString w = m_budget->setGrantSettings(opened->grant.value_or(m_freshGrant));
        !w.isEmpty())
        warnings += (warnings.isEmpty() ? QString() : QStringLiteral("\n")) + w;
    m_session->setModified(false);
    updateTitle();
    if (!warnings.isEmpty())
        statusBar()->showMessage(warnings, 10000);
    return true;
}

bool MainWindow::restoreLastScenario(QString* error)
{
    error->clear();
    const QString path = m_document->lastScenario();
    return !path.isEmpty() && openScenario(path, error);
}

bool MainWindow::saveScenario(const QString& path, QString* error)
{
    commitTypedValue();
    if (!m_document->save(
            path, m_session->scenario(), currentView(), m_budget->grantSettings(), error))
        return false;
    m_session->setModified(false);
    updateTitle();
    // Saved without what the file cannot hold: say so rather than let it go unnoticed.
    if (const QString left = m_budget->unsavedRunsPerYear(); !left.isEmpty())
        statusBar()->showMessage(tr("Saved %1, without the runs per year typed in the Budget "
                                    "view: %2")
                                     .arg(QFileInfo(path).fileName(), left),
            15000);
    return true;
}

QString MainWindow::scenarioPath() const
{
    return m_document->path();
}

ScenarioView MainWindow::currentView() const
{
    document::ViewSelection selection;
    selection.logAxes = m_planner->logAxes();
    selection.monthsAxis = m_buyVsRent->monthsAxis();
    // Only what was chosen: a machine shown because it is recommended is not the file's, or
    // reopening would pin the views to it (they follow the recommendation until a choice).
    if (m_buyVsRent->machineChosen()) {
        selection.machine = m_buyVsRent->machine();
        selection.offers = m_buyVsRent->chosenOffers();
    }
    if (m_budget->targetChosen())
        selection.budget = m_budget->target();
    return document::captureView(m_session->results(), selection);
}

void MainWindow::applyView(const ScenarioView& view)
{
    const document::ViewSelection s = document::resolveView(view, m_session->results());
    if (s.logAxes)
        m_planner->setLogAxes(*s.logAxes);
    if (s.monthsAxis)
        m_buyVsRent->setMonthsAxis(*s.monthsAxis);
    if (s.budget)
        m_budget->setTarget(*s.budget);
    // The machine to buy is one choice for both tabs: a file naming it for one (written before
    // they were linked, or by hand) gives it to the other, where the file names nothing there.
    if (s.machine && !s.budget)
        m_budget->setMachine(*s.machine);
    const std::optional<std::size_t> machine = s.machine ? s.machine
        : s.budget && s.budget->kind == BudgetTarget::Kind::Owned
        ? std::optional<std::size_t>(s.budget->index)
        : std::nullopt;
    if (!machine)
        return;
    m_buyVsRent->setMachine(*machine); // lists that machine's offers with their defaults ticked
    if (s.offers)
        m_buyVsRent->setChosenOffers(*s.offers);
}

void MainWindow::openScenarioDialog()
{
    if (!confirmDiscard()) {
        settlePriceEdits(false);
        return;
    }
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Open scenario"), QString(), kScenarioFilter);
    if (path.isEmpty()) {
        settlePriceEdits(false);
        return;
    }
    QString error;
    if (!path.isEmpty() && !openScenario(path, &error) && !error.isEmpty())
        QMessageBox::warning(this, tr("Cannot open scenario"), error);
}

bool MainWindow::saveScenarioAction()
{
    if (m_document->path().isEmpty())
        return saveScenarioAsDialog();
    // Another program or window wrote the file since it was opened or saved here: Save had
    // replaced that work without a word (review).
    if (m_document->changedOnDisk()) {
        QMessageBox box(QMessageBox::Warning, tr("Save scenario"),
            tr("%1 changed on disk since it was opened or saved here (another program or "
               "window wrote it). Overwrite it with this scenario, or save this one under "
               "another name?")
                .arg(m_document->displayName()),
            QMessageBox::Save | QMessageBox::SaveAll | QMessageBox::Cancel, this);
        box.button(QMessageBox::Save)->setText(tr("Overwrite"));
        box.button(QMessageBox::SaveAll)->setText(tr("Save as…"));
        box.setDefaultButton(QMessageBox::Cancel);
        const int answer = box.exec();
        if (answer == QMessageBox::SaveAll)
            return saveScenarioAsDialog();
        if (answer != QMessageBox::Save)
            return false;
    }
    QString error;
    if (!saveScenario(m_document->path(), &error)) {
        QMessageBox::warning(this, tr("Cannot save scenario"), error);
        return false;
    }
    return true;
}

bool MainWindow::saveScenarioAsDialog()
{
    QString path = QFileDialog::getSaveFileName(
        this, tr("Save scenario"), QStringLiteral("plan.gpuplan.yaml"), kScenarioFilter);
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(kScenarioSuffix.data()))) {
        path += QLatin1String(kScenarioSuffix.data());
        // The dialog asked about the name as typed, not this one.
        if (QFileInfo::exists(path)
            && QMessageBox::question(this, tr("Save scenario"),
                   tr("%1 already exists. Replace it?").arg(QFileInfo(path).fileName()))
                != QMessageBox::Yes)
            return false;
    }
    QString error;
    if (!saveScenario(path, &error)) {
        QMessageBox::warning(this, tr("Cannot save scenario"), error);
        return false;
    }
    return true;
}

void MainWindow::reloadMeasurements()
{
    const CatalogLoad load = loadUserCatalog();
    m_book->takeMeasurements(*load.catalog);
    QString message = tr("Measurements reloaded: %1 measured configuration(s).")
                          .arg(load.catalog->measured.size());
    // The problems stay in view with the count, not replaced by it.
    if (!load.issues.empty())
        message += QLatin1Char(' ') + issueText(load.issues);
    statusBar()->showMessage(message, load.issues.empty() ? 8000 : 30000);
}

bool MainWindow::importMeasurements(const QString& path, QString* error)
{
    if (!importResultsFile(path, m_session->catalog(), error))
        return false;
    reloadMeasurements();
    return true;
}

void MainWindow::importMeasurementsDialog()
{
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Import measurements (gpuplan-bench results)"),
            QString(), tr("gpuplan-bench results (*.yaml *.yml)"));
    QString error;
    if (!path.isEmpty() && !importMeasurements(path, &error))
        QMessageBox::warning(this, tr("Cannot import measurements"), error);
}

void MainWindow::importPricesDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import price table"), QString(), tr("Price tables (*.yaml *.yml)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!importPrices(path, &error) && !error.isEmpty())
        QMessageBox::warning(this, tr("Cannot import price table"), error);
}

bool MainWindow::importPrices(const QString& path, QString* error)
{
    error->clear();
    // The import reloads every table from the files: edits not saved would be lost.
    if (!confirmDiscardPriceEdits())
        return false;
    // On success the reload drops the edits; a failed import keeps them.
    const auto settle = qScopeGuard([this] { m_priceEditsLetGo = false; });
    if (!importPriceFile(path, error))
        return false;
    m_book->reset(loadUserCatalog().catalog);
    statusBar()->showMessage(tr("Imported %1").arg(path), 8000);
    return true;
}

void MainWindow::importCatalogDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import cloud catalog"), QString(),
        tr("Cloud catalogs: SkyPilot vms.csv, dstack gpuhunt (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!importCatalog(path, &error) && !error.isEmpty())
        QMessageBox::warning(this, tr("Cannot import the cloud catalog"), error);
}

bool MainWindow::importCatalog(const QString& path, QString* error)
{
    error->clear();
    // The import reloads every table from the files: edits not saved would be lost.
    if (!confirmDiscardPriceEdits())
        return false;
    // On success the reload drops the edits; a failed or cancelled import keeps them.
    const auto settle = qScopeGuard([this] { m_priceEditsLetGo = false; });
    std::vector<LoadIssue> issues;
    auto text = catalog_import::readCatalogFile(path.toStdString(), issues);
    if (!text) {
        *error = issueText(issues);
        return false;
    }
    std::set<std::string> gpuIds;
    for (const auto& gpu : m_book->catalog().gpus)
        gpuIds.insert(gpu.id);
    CatalogImportDialog dialog(
        path, std::make_shared<const std::string>(std::move(*text)), std::move(gpuIds), this);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    const QString written = saveImportedCatalog(dialog.yamlText(), dialog.fileName(), error);
    if (written.isEmpty())
        return false;
    m_book->reset(loadUserCatalog().catalog);
    statusBar()->showMessage(tr("Imported %n cloud offer(s) into %1", nullptr,
                                 static_cast<int>(dialog.preview()->offers.size()))
                                 .arg(written),
        8000);
    return true;
}

void MainWindow::savePrices()
{
    QString error;
    if (!saveEditedPrices(m_book->catalog(), &error)) {
        QMessageBox::warning(this, tr("Cannot save price tables"), error);
        return;
    }
    m_book->markSaved();
    // Every edit undone: the save removed the file rather than writing one.
    statusBar()->showMessage(QFileInfo::exists(editedPricesPath())
            ? tr("Saved to %1").arg(editedPricesPath())
            : tr("No edits left: %1 removed").arg(editedPricesPath()),
        8000);
}

void MainWindow::revertPrices()
{
    const bool saved = QFileInfo::exists(editedPricesPath());
    const QStringList imported = importedPriceFiles();
    QString question = saved ? tr("Discard your edits and delete %1?").arg(editedPricesPath())
                             : tr("Discard your edits?");
    // Imported tables are loaded at every start: left in place, they would come back.
    if (!imported.isEmpty()) {
        question += QStringLiteral("\n\n")
            + tr("These imported price tables will no longer be used; they are moved to %1, "
                 "from where you can move one back:")
                  .arg(revertedPricesDir());
        for (const QString& file : imported)
            question += QStringLiteral("\n  ") + QFileInfo(file).fileName();
    }
    if (QMessageBox::question(this, tr("Revert to shipped defaults"), question) != QMessageBox::Yes)
        return;
    if (saved)
        QFile::remove(editedPricesPath());
    QString error;
    if (!setAsidePriceFiles(imported, &error))
        QMessageBox::warning(this, tr("Cannot set the imported price tables aside"), error);
    // What is still in the prices folder (a file that could not be moved) is shown as it is.
    m_book->reset(loadUserCatalog().catalog);
}

void MainWindow::exportReportDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export proposal report"),
        QStringLiteral("proposal-compute.pdf"), tr("PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    commitTypedValue();
    const QStringList files = render::proposalReportFiles(path);
    if (!confirmReplacing(files.mid(1)))
        return;
    render::ReportInput input;
    input.results = &m_session->results();
    input.scenario = &m_session->scenario();
    input.catalog = &m_session->catalog();
    input.chartOptions = m_planner->chartOptions();
    input.chartOptions.highlightOption.reset();
    input.buyOption = m_buyVsRent->machine();
    input.buyCloudOffers = m_buyVsRent->chosenOffers();
    input.buyMonths = m_buyVsRent->monthsAxis();
    // The grant budget as the Budget view shows it (the report's defaults where it cannot).
    input.budgetTarget = m_budget->target();
    input.grantPlan = m_budget->plan();
    input.sponsor = m_budget->sponsor();
    QString error;
    if (!render::writeProposalReport(input, path, &error))
        QMessageBox::warning(this, tr("Cannot export report"), error);
    else
        statusBar()->showMessage(
            tr("Wrote %1, %2 and %3")
                .arg(files[0], QFileInfo(files[1]).fileName(), QFileInfo(files[2]).fileName()),
            8000);
}

void MainWindow::exportCsvDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export tables as CSV"), QStringLiteral("options.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty() || !confirmReplacing({ cloudCsvPath(path) }))
        return;
    QString error;
    if (!exportCsv(path, &error))
        QMessageBox::warning(this, tr("Cannot export CSV"), error);
}

bool MainWindow::exportCsv(const QString& path, QString* error)
{
    // Two files, both or neither: the machines, and beside them the cloud offers.
    const QString cloudPath = cloudCsvPath(path);
    if (!views::saveWholeFiles({ { path, views::optionsCsv(m_session->results()).toUtf8() },
                                   { cloudPath, views::cloudCsv(m_session->results()).toUtf8() } },
            error))
        return false;
    statusBar()->showMessage(tr("Wrote %1 and %2").arg(path, cloudPath), 8000);
    return true;
}

void MainWindow::showHelp()
{
    QMessageBox::information(this, tr("How gpuplan computes costs"),
        tr("<p><b>Machine cost</b> = a system's price (HGX/DGX servers for SXM GPUs), else the "
           "chassis for n GPUs + n × GPU price.</p>"
           "<p><b>Per-experiment cost</b> = lifetime cost × training days / (amortisation years "
           "× 365 × share of time in use), where the lifetime cost is the machine's price − its "
           "resale value + the owning costs (hosting, support, staff) of every month of its "
           "life: the paper's formula at 5 years, 100% and no owning costs.</p>"
           "<p><b>Energy per run</b> = (n × GPU board power + chassis base power) × PUE × hours "
           "× electricity price.</p>"
           "<p><b>Cloud per run</b> = hourly rate × hours × the rates billed (the run's GPUs "
           "over the GPUs one rate buys: 8 for a pod of 8 GPUs at a per-GPU rate, which is one "
           "instance); spot runs take longer by the restart overhead. A run on several "
           "instances exchanges gradients over the network the offer lists, at half its rate "
           "(what NCCL reaches over TCP); where none is listed it is timed as one machine and "
           "flagged.</p>"
           "<p><b>Indirect (F&amp;A) rate</b>: added to each cost the sponsor's rules (Budget "
           "view) put in the base, in every view alike. US federal rules: cloud, a machine "
           "below the equipment threshold (supplies), electricity, hosting, support and staff; "
           "not equipment.</p>"
           "<p><b>Break-even</b> = (price − resale) / (cloud per run − the machine's cost per "
           "run), where a run costs its electricity and the owning costs of the months it "
           "takes at the planned run rate, each with F&amp;A where the rules put it.</p>"
           "<p>Estimates come from your own gpuplan-bench measurements, those scaled to more GPUs "
           "of the same type, the paper's tables (flagged: its timer never synchronised the "
           "GPU), or an analytic FLOPs model. Points ringed in red imply %1 of peak or more; a "
           "time above 100% of peak is physically impossible and recommended only with the "
           "paper as the source. Hover a point for its figures and sources.</p>"
           "<p>Every view is described in the guide, docs/gui.md, installed in "
           "/usr/share/doc/gpuplan.</p>")
            .arg(views::formatPercent(kSuspectUtilization)));
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About gpuplan"),
        tr("<h3>GPU Budget Planner %1</h3><p>Plans the compute budget of a training project: "
           "which GPUs to buy, or what renting the same work costs, with every price dated and "
           "sourced.</p><p>Cost model after Khandelwal et al. (2024), “$100K or 100 Days: "
           "Trade-offs "
           "when Pre-Training with Academic Resources”.</p>")
            .arg(QApplication::applicationVersion()));
}

} // namespace gpuplan::gui

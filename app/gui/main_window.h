#pragma once

// The planner's main window: Planner, Buy vs rent, Price tables (and Benchmark, where that view
// is built) as tabs, the Assumptions panel beside them, menus, scenario files, export.

#include "app/gui/carried_defaults.h"
#include "pricing/scenario/scenario_file.h"

#include <QMainWindow>

#include <memory>

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QTabWidget;

namespace gpuplan {
struct Catalog;
}
namespace gpuplan::document {
class ScenarioDocument;
}

namespace gpuplan::gui {

class AssumptionsPanel;
class BudgetView;
class BuyVsRentView;
class ChartActions;
class PlannerSession;
class PlannerView;
class PriceBook;
class PriceTablesView;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // `catalog`: what the planner starts with (shipped + user tables + user results).
    explicit MainWindow(std::shared_ptr<const Catalog> catalog, QWidget* parent = nullptr);
    ~MainWindow() override;

    PlannerSession* session() const { return m_session; }
    PriceBook* priceBook() const { return m_book; }
    PlannerView* plannerView() const { return m_planner; }
    BuyVsRentView* buyVsRentView() const { return m_buyVsRent; }
    BudgetView* budgetView() const { return m_budget; }
    PriceTablesView* priceTablesView() const { return m_prices; }
    AssumptionsPanel* assumptionsPanel() const { return m_assumptions; }
    QTabWidget* tabs() const { return m_tabs; }

    bool openScenario(const QString& path, QString* error);
    bool saveScenario(const QString& path, QString* error);
    QString scenarioPath() const;
    // Opens the scenario open at the last quit (QSettings "lastScenario"). False with an empty
    // *error when there is none or it no longer exists, with the reason when it cannot be read.
    bool restoreLastScenario(QString* error);
    // Imports a gpuplan-bench results file into the user results dir and reloads.
    bool importMeasurements(const QString& path, QString* error);
    // Imports a price table into the user prices dir and reloads the tables. Unsaved price edits
    // are asked about first; false with an empty *error when the user cancels.
    bool importPrices(const QString& path, QString* error);
    // Imports a public cloud catalog (CSV): unsaved price edits are asked about first, then the
    // import dialog previews it; on Import the offers are written to a new user price file and
    // the tables reload. False with an empty *error when the user cancels; with the reason when
    // the file cannot be read or written.
    bool importCatalog(const QString& path, QString* error);
    // "Revert to shipped defaults": after the user confirms (the question lists the files),
    // deletes the saved edits and sets imported price tables aside (revertedPricesDir()).
    void revertPrices();
    // Plans with the shipped price set `priceSet` (with the user's files over it) from now on,
    // and remembers it. Unsaved price edits are asked about first; false when the user cancels.
    bool usePriceSet(const QString& priceSet);
    // Writes the options table to `path` and the cloud offers beside it (<name>-cloud.csv).
    bool exportCsv(const QString& path, QString* error);
    ChartActions* chartActions() const { return m_chartActions; } // Copy and Export chart

public slots:
    // Re-reads the user results dir (new gpuplan-bench measurements) and re-plots; price edits
    // in progress are kept.
    void reloadMeasurements();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    ScenarioView currentView() const; // what the scenario file keeps of the views
    void applyView(const ScenarioView& view);
    void updateTitle();
    bool confirmDiscard();
    bool confirmDiscardPriceEdits();
    // Ends an action that asked about unsaved price edits: edits the user let go are dropped
    // when it goes ahead, and kept when it was cancelled.
    void settlePriceEdits(bool actionGoesAhead);
    void fillRecentMenu();
    void showPriceSet(); // the Prices menu's tick and the status bar's note
    void catalogEdited();
    // A number or text being typed (a dock field before Enter) taken in, as leaving the field
    // would: saving, quitting and opening act on what the user sees.
    void commitTypedValue();
    // Asks before replacing `others`, the files written beside the one the user named (the
    // file dialog asked about that one only); true when none exists or the user agrees.
    bool confirmReplacing(const QStringList& others);

    void newScenario();
    void openScenarioDialog();
    bool saveScenarioAction();
    bool saveScenarioAsDialog();
    void importMeasurementsDialog();
    void importPricesDialog();
    void importCatalogDialog();
    void savePrices();
    void exportReportDialog();
    void exportCsvDialog();
    void showHelp();
    void showAbout();

    PlannerSession* m_session = nullptr;
    PriceBook* m_book = nullptr;
    QTabWidget* m_tabs = nullptr;
    PlannerView* m_planner = nullptr;
    BuyVsRentView* m_buyVsRent = nullptr;
    ChartActions* m_chartActions = nullptr;
    BudgetView* m_budget = nullptr;
    PriceTablesView* m_prices = nullptr;
    AssumptionsPanel* m_assumptions = nullptr;
    QWidget* m_benchmark = nullptr;
    QMenu* m_recentMenu = nullptr;
    QActionGroup* m_priceSets = nullptr;
    QLabel* m_priceSetLabel = nullptr;
    document::ScenarioDocument* m_document = nullptr;
    ScenarioGrant m_freshGrant; // the Budget view's settings of a new scenario
    ScenarioView m_freshView; // the views' settings of a new scenario
    bool m_priceEditsLetGo = false; // the user answered Discard; the action is not over yet
    CarriedDefaults m_carriedDefaults; // what Electricity table edits did to the scenario
};

} // namespace gpuplan::gui

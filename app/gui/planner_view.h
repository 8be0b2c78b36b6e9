#pragma once

// The Planner view: the paper's Fig. 7 for the chosen model and source (both charts, cloud
// offers on the bottom one), budget and deadline, the options and cloud tables. Selecting a row
// highlights its point; clicking a point selects its row.

#include "app/render/chart_data.h"
#include "app/render/planner_charts.h"

#include <QStringList>
#include <QWidget>

#include <optional>
#include <string>
#include <utility>

class QCheckBox;
class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QTabWidget;

namespace gpuplan::render {
class ChartWidget;
}

namespace gpuplan::gui {

class CloudTableModel;
class NumberBox;
class RentalFilterButton;
class OptionTableModel;
class PlannerSession;

class PlannerView : public QWidget {
    Q_OBJECT

public:
    explicit PlannerView(PlannerSession* session, QWidget* parent = nullptr);

    render::ChartWidget* hardwareChart() const { return m_hardwareChart; }
    render::ChartWidget* experimentChart() const { return m_experimentChart; }
    QTableView* optionsTable() const { return m_optionsTable; }
    QTableView* cloudTable() const { return m_cloudTable; }
    RentalFilterButton* rentalFilter() const { return m_rentalFilter; }
    OptionTableModel* optionModel() const { return m_optionModel; }
    // What the charts are drawn with now (axes, budget, deadline, selection).
    render::PlannerChartOptions chartOptions() const;
    // The selected machine (index into Results::options), if any.
    std::optional<std::size_t> selectedOption() const { return m_selected; }
    void selectOption(std::optional<std::size_t> index);
    // Log axes on both charts (a view setting the scenario file keeps).
    bool logAxes() const;
    void setLogAxes(bool on);

signals:
    void logAxesToggled(bool on);
    // The user chose a machine (in the table or on a chart; selectOption too): the other views
    // compare and budget it from now on.
    void optionChosen(std::size_t index);

private:
    void buildLayout();
    void syncControls(); // session -> controls, without feedback
    void resultsChanged();
    void replotCharts();
    void applyBudget();
    void applyDeadline();
    // m_selected, and the machine it is (GPU id and count) to find it again by.
    void keepSelection(std::optional<std::size_t> index);
    void selectRowOf(std::optional<std::size_t> index); // in the table, without feedback

    PlannerSession* m_session;
    QComboBox* m_model = nullptr;
    QComboBox* m_source = nullptr;
    QCheckBox* m_logAxes = nullptr;
    RentalFilterButton* m_rentalFilter = nullptr;
    QCheckBox* m_budgetOn = nullptr;
    NumberBox* m_budget = nullptr;
    QCheckBox* m_deadlineOn = nullptr;
    NumberBox* m_deadline = nullptr;
    QLabel* m_recommendation = nullptr;
    render::ChartWidget* m_hardwareChart = nullptr;
    render::ChartWidget* m_experimentChart = nullptr;
    OptionTableModel* m_optionModel = nullptr;
    CloudTableModel* m_cloudModel = nullptr;
    QSortFilterProxyModel* m_optionProxy = nullptr;
    QSortFilterProxyModel* m_cloudProxy = nullptr;
    QTableView* m_optionsTable = nullptr;
    QTableView* m_cloudTable = nullptr;
    std::optional<std::size_t> m_selected;
    // A re-plot can renumber the options (an edited price adds machines), so the selection is
    // found again by machine, not kept as a number that now names another one.
    std::optional<std::pair<std::string, int>> m_selectedMachine;
    bool m_syncing = false;
    bool m_columnsSized = false;
    QStringList m_optionHeaders; // as last shown: a column whose header changes is sized anew
    QStringList m_cloudHeaders;
};

} // namespace gpuplan::gui

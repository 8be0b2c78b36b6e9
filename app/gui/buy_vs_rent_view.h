#pragma once

// Buy vs rent: cumulative cost of one machine against chosen cloud offers of the same GPU type,
// the break-even marked on the chart and stated in words, each line in a band of its range;
// below it the tornado: which input moves the break-even (or the per-experiment cost) most.

#include "app/render/chart_data.h"

#include <QWidget>

#include <optional>
#include <string>
#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QListWidget;

namespace gpuplan::render {
class ChartWidget;
}

namespace gpuplan::gui {

class PlannerSession;

class BuyVsRentView : public QWidget {
    Q_OBJECT

public:
    explicit BuyVsRentView(PlannerSession* session, QWidget* parent = nullptr);

    render::ChartWidget* chart() const { return m_chart; }
    render::ChartWidget* sensitivityChart() const { return m_tornado; }
    // What the chart shows for the current machine and offers (up to date even while the view
    // is hidden and has not redrawn), and the break-even in words.
    render::ChartData chartData() const;
    QString conclusion() const;
    // Which way the planned runs (Assumptions: Planned runs) cost less for the chosen machine:
    // buying it or renting the same GPUs the cheapest way; empty when nothing rents them.
    QString planVerdict() const;
    // The tornado for the machine against the cheapest ticked offer of its GPU count (none
    // ticked: the cheapest way to rent the same GPUs); nullopt with the reason in *why.
    std::optional<render::ChartData> sensitivityData(QString* why) const;
    // Chooses the machine (index into Results::options), e.g. the planner's selection.
    void setMachine(std::size_t optionIndex);
    std::optional<std::size_t> machine() const;
    // Whether a machine was chosen (here, in the Planner, by a scenario, or by ticking its
    // offers); until then the view shows the recommendation (defaultMachineToCompare), and a
    // scenario file does not keep it. followRecommendation forgets the choice (File > New, and
    // before a scenario's own is applied).
    bool machineChosen() const { return m_machineChosen; }
    void followRecommendation();
    // The ticked cloud offers (indices into Results::cloud) and whether the x axis is in months:
    // what the proposal report's buy-vs-rent section should show too.
    std::vector<std::size_t> chosenOffers() const;
    bool monthsAxis() const;
    // Restores both (e.g. from a scenario file): offers not listed for the machine are ignored.
    void setChosenOffers(const std::vector<std::size_t>& cloudIndices);
    void setMonthsAxis(bool months);

signals:
    // The user chose another machine, offer or axis: settings saved with the scenario.
    void settingsChanged();
    // The user chose this machine here (not a choice carried over from another tab): the
    // window carries it to the budget, so that the report compares the machine it budgets.
    void machineChosenHere(std::size_t optionIndex);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void resultsChanged();
    void fillOffers();
    void replot(bool tornado = true); // the chart, and the tornado unless told not to

    PlannerSession* m_session;
    QComboBox* m_machine = nullptr;
    QComboBox* m_axis = nullptr; // runs or months
    QListWidget* m_offers = nullptr;
    QLabel* m_conclusion = nullptr;
    QLabel* m_planVerdict = nullptr;
    render::ChartWidget* m_chart = nullptr;
    QComboBox* m_metric = nullptr; // what the tornado measures
    render::ChartWidget* m_tornado = nullptr;
    QLabel* m_tornadoNote = nullptr; // why there is no tornado
    bool m_syncing = false;
    // The machine or axis index moved since the user last chose one: their choice changed it.
    bool m_machineMoved = false;
    // Until a machine is chosen (here, in the Planner or by a scenario), the comparison follows
    // the recommendation as the budget and deadline move it.
    bool m_machineChosen = false;
    bool m_axisMoved = false;
    bool m_stale = false; // results changed while hidden
    // A machine by GPU id and count: what stays the same when a replot renumbers the options
    // or an edited price relabels them.
    using MachineKey = std::pair<std::string, int>;
    std::vector<MachineKey> m_machineKeys; // one per item of m_machine
    std::optional<MachineKey> m_offersFor; // whose offers m_offers lists
};

} // namespace gpuplan::gui

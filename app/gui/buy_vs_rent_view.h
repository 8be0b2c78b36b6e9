#pragma once

// Buy vs rent: cumulative cost of one machine against chosen cloud offers of the same GPU type,
// the break-even marked on the chart and stated in words.

#include <QWidget>

#include <optional>

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
    QString conclusion() const;
    // Chooses the machine (index into Results::options), e.g. the planner's selection.
    void setMachine(std::size_t optionIndex);
    std::optional<std::size_t> machine() const;

private:
    void resultsChanged();
    void fillOffers();
    void replot();

    PlannerSession* m_session;
    QComboBox* m_machine = nullptr;
    QListWidget* m_offers = nullptr;
    QLabel* m_conclusion = nullptr;
    render::ChartWidget* m_chart = nullptr;
    bool m_syncing = false;
};

} // namespace gpuplan::gui

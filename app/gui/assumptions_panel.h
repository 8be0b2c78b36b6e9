#pragma once

// The cost model's knobs, with units. Every change is reported at once (the planner re-plots).

#include "core/assumptions.h"

#include <QWidget>

class QDoubleSpinBox;
class QSpinBox;

namespace gpuplan::gui {

class AssumptionsPanel : public QWidget {
    Q_OBJECT

public:
    explicit AssumptionsPanel(QWidget* parent = nullptr);

    // Shows `a` without emitting assumptionsChanged (the provenance is kept for assumptions()).
    void setAssumptions(const Assumptions& a);
    Assumptions assumptions() const;

signals:
    void assumptionsChanged();

private:
    QDoubleSpinBox* addSpin(const QString& objectName, const QString& label, double min, double max,
        double step, int decimals, const QString& suffix, const QString& tip);

    void updateRunSuffixes();

    Assumptions m_base; // carries the provenance of the values shown
    QDoubleSpinBox* m_years = nullptr;
    QDoubleSpinBox* m_machineUse = nullptr;
    QDoubleSpinBox* m_electricity = nullptr;
    QDoubleSpinBox* m_pue = nullptr;
    QDoubleSpinBox* m_spotOverhead = nullptr;
    QDoubleSpinBox* m_indirect = nullptr;
    QDoubleSpinBox* m_analytic = nullptr;
    QSpinBox* m_runs = nullptr;
    QDoubleSpinBox* m_runsPerMonth = nullptr;
};

} // namespace gpuplan::gui

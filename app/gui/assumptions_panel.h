#pragma once

// The cost model's knobs, one spin box per row of the assumption table (its label, unit and
// bounds), so that the panel can show every value a file may hold. Every change is reported at
// once (the planner re-plots).

#include "core/assumptions.h"

#include <QWidget>

#include <vector>

class QAbstractSpinBox;
class QDoubleSpinBox;
class QSpinBox;

namespace gpuplan::gui {

class AssumptionsPanel : public QWidget {
    Q_OBJECT

public:
    explicit AssumptionsPanel(QWidget* parent = nullptr);

    // Shows `a` without emitting assumptionsChanged.
    void setAssumptions(const Assumptions& a);
    // What setAssumptions() was given, with the fields the user changed since: a value the
    // panel shows rounded (more decimals than it displays) comes back exactly as it was given
    // unless the user edits that very field, so a scenario is never changed behind their back.
    Assumptions assumptions() const { return m_current; }
    // The price tables' own values (the catalog's defaults): a value typed back to one of them
    // is cited with the tables' source again, not as the user's.
    void setTableValues(const Assumptions& tables) { m_tables = tables; }
    // The spin box that edits `id` (a QSpinBox for whole numbers, else a QDoubleSpinBox).
    QAbstractSpinBox* editor(AssumptionId id) const;

signals:
    void assumptionsChanged();

private:
    struct Field {
        AssumptionId id;
        QDoubleSpinBox* number = nullptr; // every assumption but whole numbers
        QSpinBox* whole = nullptr; // whole numbers (planned runs)
        double scale = 1.0; // shown = value * scale (fractions as percentages)
    };

    void addField(const AssumptionSpec& spec);
    void showValue(const Field& field);
    void showSource(const Field& field); // the tooltip: what the value is and where it is from
    void fieldEdited(const Field& field);
    void updateSuffixes();

    Assumptions m_current;
    Assumptions m_tables;
    std::vector<Field> m_fields;
};

} // namespace gpuplan::gui

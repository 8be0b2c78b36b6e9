#pragma once

// What the user is planning: the catalog, the scenario they set, and its evaluated Results
// (plus the same model's estimates from other sources, for side-by-side comparison). Every view
// reads from here and writes its settings here; nothing else calls evaluate().

#include "core/evaluate.h"

#include <QObject>

#include <memory>
#include <vector>

namespace gpuplan::gui {

class PlannerSession : public QObject {
    Q_OBJECT

public:
    explicit PlannerSession(std::shared_ptr<const Catalog> catalog, QObject* parent = nullptr);

    const Catalog& catalog() const { return *m_scenario.catalog; }
    std::shared_ptr<const Catalog> catalogPointer() const { return m_scenario.catalog; }
    const Scenario& scenario() const { return m_scenario; }
    const Results& results() const { return m_results; }
    // Estimates from the other sources (measured, paper, analytic) for the GPUs gpuplan-bench
    // measured this model on, shown beside the main ones; empty when nothing was measured.
    const std::vector<Results>& comparisons() const { return m_comparisons; }

    // A new catalog (edited prices, new measurements); the user's settings are kept, the model
    // falls back to the first one if it is gone.
    void setCatalog(std::shared_ptr<const Catalog> catalog);
    void setScenario(const Scenario& scenario); // the catalog pointer in `scenario` is ignored
    void setModel(const std::string& modelId);
    void setSource(SourcePolicy source);
    void setAssumptions(const Assumptions& assumptions);
    void setBudget(std::optional<double> usd);
    void setDeadline(std::optional<double> days);
    // The sponsor whose rules put each cost in or out of the F&A base (Scenario::sponsorId).
    void setSponsor(const std::string& sponsorId);

    // True after a setting changed since the scenario was last loaded or saved.
    bool isModified() const { return m_modified; }
    void setModified(bool modified);

signals:
    void resultsChanged();
    void modifiedChanged(bool modified);

private:
    void recompute();
    void changed();

    Scenario m_scenario;
    Results m_results;
    std::vector<Results> m_comparisons;
    bool m_modified = false;
};

// Whether `catalog` holds a measurement of `modelId`.
bool hasMeasurements(const Catalog& catalog, const std::string& modelId);

} // namespace gpuplan::gui

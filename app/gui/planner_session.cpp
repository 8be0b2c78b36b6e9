#include "app/gui/planner_session.h"

#include <QDate>

#include <algorithm>
#include <set>

namespace gpuplan::gui {

bool hasMeasurements(const Catalog& catalog, const std::string& modelId)
{
    return std::any_of(catalog.measured.begin(), catalog.measured.end(),
        [&](const MeasuredResult& m) { return m.modelId == modelId; });
}

PlannerSession::PlannerSession(std::shared_ptr<const Catalog> catalog, QObject* parent)
    : QObject(parent)
{
    m_scenario.catalog = std::move(catalog);
    m_scenario.assumptions = m_scenario.catalog->defaults;
    m_scenario.sponsorId = m_scenario.catalog->defaultSponsorId();
    const bool pythia1b = m_scenario.catalog->findWorkload("pythia-1b") != nullptr;
    if (pythia1b)
        m_scenario.modelId = "pythia-1b"; // the paper's worked example
    else if (!m_scenario.catalog->workloads.empty())
        m_scenario.modelId = m_scenario.catalog->workloads.front().id;
    recompute();
}

void PlannerSession::setCatalog(std::shared_ptr<const Catalog> catalog)
{
    m_scenario.catalog = std::move(catalog);
    if (!m_scenario.catalog->findWorkload(m_scenario.modelId)
        && !m_scenario.catalog->workloads.empty())
        m_scenario.modelId = m_scenario.catalog->workloads.front().id;
    if (!m_scenario.catalog->findSponsor(m_scenario.sponsorId))
        m_scenario.sponsorId = m_scenario.catalog->defaultSponsorId();
    recompute();
}

// A scenario without a sponsor (a new one, a file's: the grant names it) keeps the current.
void PlannerSession::setScenario(const Scenario& scenario)
{
    auto catalog = m_scenario.catalog;
    const std::string sponsorId = m_scenario.sponsorId;
    m_scenario = scenario;
    m_scenario.catalog = std::move(catalog);
    if (m_scenario.sponsorId.empty())
        m_scenario.sponsorId = sponsorId;
    recompute();
}

void PlannerSession::setModel(const std::string& modelId)
{
    if (modelId == m_scenario.modelId)
        return;
    m_scenario.modelId = modelId;
    changed();
}

void PlannerSession::setSource(SourcePolicy source)
{
    if (source == m_scenario.source)
        return;
    m_scenario.source = source;
    changed();
}

void PlannerSession::setAssumptions(const Assumptions& assumptions)
{
    m_scenario.assumptions = assumptions;
    changed();
}

void PlannerSession::setBudget(std::optional<double> usd)
{
    m_scenario.budgetUsd = usd;
    changed();
}

void PlannerSession::setDeadline(std::optional<double> days)
{
    m_scenario.deadlineDays = days;
    changed();
}

void PlannerSession::setSponsor(const std::string& sponsorId)
{
    if (sponsorId == m_scenario.sponsorId)
        return;
    m_scenario.sponsorId = sponsorId;
    changed();
}

void PlannerSession::setModified(bool modified)
{
    if (modified == m_modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

void PlannerSession::changed()
{
    recompute();
    setModified(true);
}

void PlannerSession::recompute()
{
    // Price ages count to the day the plan is looked at.
    m_scenario.today = QDate::currentDate().toString(Qt::ISODate).toStdString();
    m_results = evaluate(m_scenario);
    m_comparisons.clear();
    // Where gpuplan-bench measured this model, show that GPU's estimates from every source side
    // by side (measured, the paper's, analytic), whichever source the user plans with.
    std::set<std::string> measuredGpus;
    for (const auto& m : m_scenario.catalog->measured)
        if (m.modelId == m_scenario.modelId)
            measuredGpus.insert(m.gpuId);
    if (!measuredGpus.empty()) {
        for (SourcePolicy other : { SourcePolicy::Measured, SourcePolicy::Extrapolated,
                 SourcePolicy::Paper, SourcePolicy::Analytic }) {
            if (other == m_scenario.source)
                continue;
            Scenario s = m_scenario;
            s.source = other;
            Results r = evaluate(s);
            std::erase_if(r.options,
                [&](const OwnedOption& o) { return measuredGpus.count(o.gpu->id) == 0; });
            r.recommended.reset(); // indices into the trimmed list would be wrong
            if (!r.options.empty())
                m_comparisons.push_back(std::move(r));
        }
    }
    emit resultsChanged();
}

} // namespace gpuplan::gui

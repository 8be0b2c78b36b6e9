#pragma once

// Budget: a grant budget by year for one machine or one way to rent, under a sponsor's rules,
// with the budget justification beside it to copy or save (.odt, .md, .txt). Thin: core's
// grantBudget computes, app/common/budget_table and app/render/budget_justification word it.

#include "core/costing/grant_budget.h"
#include "pricing/scenario/scenario_file.h"

#include <QWidget>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

class QComboBox;
class QDateEdit;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;
class QTextBrowser;

namespace gpuplan::gui {

class PlannerSession;

class BudgetView : public QWidget {
    Q_OBJECT

public:
    explicit BudgetView(PlannerSession* session, QWidget* parent = nullptr);

    // What the view budgets now; nullopt while the plan cannot be budgeted (the reason is shown).
    std::optional<BudgetTarget> target() const;
    std::optional<GrantPlan> plan() const;
    const SponsorRules* sponsor() const;
    // The justification as plain text (what "Copy justification" puts on the clipboard).
    QString justificationText() const;

    // Chooses a machine (index into Results::options), e.g. the planner's selection.
    void setMachine(std::size_t optionIndex);
    // The machine chosen in Buy vs rent: budgeted where this tab buys a machine (chosen or
    // followed); a rental chosen here stays.
    void followMachineChosenElsewhere(std::size_t optionIndex);
    // Chooses what to budget; a target the list does not offer (a rental that is not the
    // cheapest of its kind) is ignored.
    void setTarget(BudgetTarget target);
    // Whether what to budget was chosen (here, in the Planner, or by a scenario); until then
    // the view follows the recommendation, and a scenario file does not keep it.
    // followRecommendation forgets the choice (File > New, and before a scenario's own).
    bool targetChosen() const { return m_targetChosen; }
    void followRecommendation();

    // The grant settings as a scenario file keeps them, always readable back: runs per year
    // only where they give one whole number per year, the purchase within the grant.
    ScenarioGrant grantSettings() const;
    // Shows a scenario file's grant; returns a warning when its sponsor is not loaded (the
    // current sponsor stays).
    QString setGrantSettings(const ScenarioGrant& grant);
    // Why the runs per year typed are not in grantSettings() ("2, -3, abc: ..."); empty when
    // they are, or none are typed.
    QString unsavedRunsPerYear() const;

signals:
    // The user changed a setting that is saved with the scenario.
    void settingsChanged();
    // The user typed runs per year adding up to `total`, other than the planned runs: the
    // window makes them the planned runs (one count of runs in every view).
    void plannedRunsTyped(int total);
    // The user chose here to budget buying this machine: the window carries it to Buy vs rent.
    void machineChosenHere(std::size_t optionIndex);

public slots:
    void copyJustification();
    void saveJustificationDialog();
    void saveCsvDialog();

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override; // a narrower table may need a scroll bar

private:
    void resultsChanged();
    void plannedRunsFromRunsPerYear();
    void fillTargets();
    // The index of `target` in the list, added at its end if it is not listed (a rental chosen
    // before, or a scenario's, that is not among the cheapest of its kind).
    int listTarget(BudgetTarget target);
    void refresh();
    void fillBudget();
    void fitTableHeight();
    GrantPlan shownPlan() const;
    // The one rule for the runs per year a scenario file keeps: one whole number per grant year,
    // put in plan.runsPerYear (cleared otherwise); *leftOut says what was typed and why it is
    // not kept (empty when it is, or nothing is typed).
    bool savableRunsPerYear(GrantPlan& plan, QString* leftOut) const;

    PlannerSession* m_session;
    QComboBox* m_target = nullptr;
    QSpinBox* m_years = nullptr;
    QDateEdit* m_start = nullptr;
    QLineEdit* m_runs = nullptr;
    QSpinBox* m_equipmentYear = nullptr;
    QComboBox* m_sponsor = nullptr;
    QLabel* m_problem = nullptr;
    QLabel* m_sponsorNote = nullptr; // the rules' own caveats (what counts, what to ask)
    QTableWidget* m_table = nullptr;
    QTextBrowser* m_justification = nullptr;
    std::vector<BudgetTarget> m_targets; // by m_target's index
    // Until the user chooses what to budget (here, or a machine in the Planner), the tab
    // follows the recommendation as the budget and deadline move it; once chosen, the choice is
    // found again by machine or offer, as re-plots renumber both.
    bool m_targetChosen = false;
    using TargetKey = std::tuple<BudgetTarget::Kind, std::string, int, bool>;
    std::vector<TargetKey> m_targetKeys; // by m_target's index
    std::optional<TargetKey> currentTargetKey() const;
    bool m_syncing = false;
    bool m_filled = false; // the table and justification were filled once
    bool m_stale = false; // results or settings changed while hidden
    bool m_runsTyped = false; // the user typed into runs per year since it was last finished
};

} // namespace gpuplan::gui

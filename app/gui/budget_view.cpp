#include "app/gui/budget_view.h"

#include "app/common/budget_table.h"
#include "app/common/cloud_columns.h"
#include "app/common/format.h"
#include "app/common/saved_file.h"
#include "app/common/wording.h"
#include "app/gui/flow_row.h"
#include "app/gui/planner_session.h"
#include "app/render/budget_justification.h"
#include "app/render/buy_vs_rent_chart.h"
#include "core/costing/plan.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDateEdit>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <numeric>

namespace gpuplan::gui {

namespace {

// Typing a month over the whole of a QDateEdit's text: Qt sends the digits to the section the
// cursor ends in (the month), so "2027-01" typed over "2026-12" gave 2026-01 without a word. A
// digit typed over the whole text starts at the first section, as typing over a selection
// does in a line edit.
class TypeFromTheFirstSection : public QObject {
public:
    explicit TypeFromTheFirstSection(QDateEdit* edit)
        : QObject(edit)
        , m_edit(edit)
    {
        edit->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == m_edit && event->type() == QEvent::KeyPress) {
            const auto* key = static_cast<QKeyEvent*>(event);
            const auto* line = m_edit->findChild<QLineEdit*>();
            if (line && !key->text().isEmpty() && key->text().front().isDigit()
                && line->hasSelectedText() && line->selectedText() == line->text())
                m_edit->setSelectedSection(m_edit->sectionAt(0));
        }
        return false;
    }

private:
    QDateEdit* m_edit;
};

// The ways to rent offered for budgeting, per GPU, count and kind of offer (a catalog import
// can bring a thousand offers; a budget is written for the few that matter): the cheapest paid
// as you go; the cheapest offer of reserved terms only (the paper's AWS p4de 5-year
// reservation, which a cheaper on-demand offer of the same GPUs had hidden while the CLI
// budgeted it); and, by its reserved terms, the offer renting by the hour whose terms cost the
// planned runs least (AWS's L40S 3-year term, which the justification can name as the
// cheapest rental for a plan, beside RunPod's cheaper hourly rate).
std::vector<BudgetTarget> rentalsToBudget(const Results& r)
{
    using Group = std::tuple<const GpuSpec*, int, OfferKind>;
    std::map<std::pair<Group, bool>, std::size_t> cheapest; // by whether terms only
    std::map<Group, std::pair<std::size_t, double>> cheapestTerms; // offer, its terms' cost
    for (std::size_t i = 0; i < r.cloud.size(); ++i) {
        const auto& c = r.cloud[i];
        const Group group { c.gpu, c.gpuCount, c.offer->kind };
        const auto key = std::make_pair(group, c.cheapestIsCommitment);
        const auto it = cheapest.find(key);
        if (it == cheapest.end()
            || views::rankingCostPerRunUsd(c, r.assumptions.plannedRuns)
                < views::rankingCostPerRunUsd(r.cloud[it->second], r.assumptions.plannedRuns))
            cheapest[key] = i;
        // By what its terms cost the planned runs (whole terms, instances and F&A counted), as
        // the justification weighs rentals: a 3-year rate per hour can be the lowest and still
        // cost a 1-year plan more.
        if (!offersReservedTermsToChoose(r, i) || !c.reservedTermsPlanUsd)
            continue;
        const auto terms = cheapestTerms.find(group);
        if (terms == cheapestTerms.end() || *c.reservedTermsPlanUsd < terms->second.second)
            cheapestTerms[group] = { i, *c.reservedTermsPlanUsd };
    }
    std::vector<BudgetTarget> targets;
    for (const auto& [key, index] : cheapest) {
        targets.push_back({ BudgetTarget::Kind::Rented, index });
        if (key.second)
            continue;
        if (const auto terms = cheapestTerms.find(key.first); terms != cheapestTerms.end())
            targets.push_back({ BudgetTarget::Kind::Rented, terms->second.first, true });
    }
    return targets;
}

} // namespace

BudgetView::BudgetView(PlannerSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    m_target = new QComboBox;
    m_target->setObjectName(QStringLiteral("budgetTarget"));
    m_target->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_years = new QSpinBox;
    m_years->setObjectName(QStringLiteral("grantYears"));
    m_years->setRange(static_cast<int>(limits::kGrantYears.bounds.min),
        static_cast<int>(limits::kGrantYears.bounds.max));
    m_years->setValue(GrantPlan {}.years);
    m_years->setSuffix(tr(" years"));
    m_start = new QDateEdit;
    m_start->setObjectName(QStringLiteral("grantStart"));
    m_start->setDisplayFormat(QStringLiteral("yyyy-MM"));
    new TypeFromTheFirstSection(m_start);
    GrantPlan defaults;
    views::defaultGrantStart(QString(), defaults);
    m_start->setDate(QDate(defaults.startYear, defaults.startMonth, 1));
    m_runs = new QLineEdit;
    m_runs->setObjectName(QStringLiteral("runsPerYear"));
    m_runs->setToolTip(tr("Runs in each grant year, e.g. 3,4,3. Empty: the plan's runs spread "
                          "evenly, the remainder in the first years."));
    m_equipmentYear = new QSpinBox;
    m_equipmentYear->setObjectName(QStringLiteral("equipmentYear"));
    m_equipmentYear->setRange(1, static_cast<int>(limits::kGrantYears.bounds.max));
    m_equipmentYear->setPrefix(tr("year "));
    m_sponsor = new QComboBox;
    m_sponsor->setObjectName(QStringLiteral("sponsor"));
    // Shrinkable (the whole text in the open list): a machine's or sponsor's full name set the
    // window's minimum width.
    for (QComboBox* combo : { m_target, m_sponsor }) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(30);
    }
    // The sponsor's rules come with caveats a PI must act on (utilities often recovered through
    // the F&A rate, not charged directly): shown under them, not only in the data file.
    m_sponsorNote = new QLabel;
    m_sponsorNote->setObjectName(QStringLiteral("sponsorNote"));
    m_sponsorNote->setWordWrap(true);
    m_sponsorNote->setTextFormat(Qt::RichText); // a warning in bold, on a line of its own
    m_sponsorNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("budgetProblem"));
    m_problem->setStyleSheet(QStringLiteral("color: #b00020"));
    m_problem->setWordWrap(true);
    m_table = new QTableWidget;
    m_table->setObjectName(QStringLiteral("budgetTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setTabKeyNavigation(false); // Tab leaves the table, as in every view
    m_table->setAccessibleName(tr("Grant budget"));
    m_table->verticalHeader()->hide();
    // Rows as high as their text: the style's default (30 px) left the Total row under the
    // justification at 1280x800.
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_justification = new QTextBrowser;
    m_justification->setObjectName(QStringLiteral("justification"));

    auto* form = new QFormLayout;
    form->addRow(tr("Budget for:"), m_target);
    // One line where the window is wide enough (flow_row.h).
    auto* grant = new FlowRow;
    grant->setSpacing(12);
    grant->addGroup({ m_years, new QLabel(tr("from")), m_start });
    grant->addGroup({ new QLabel(tr("Runs per year:")), m_runs });
    grant->addGroup({ new QLabel(tr("Machine bought in:")), m_equipmentYear });
    form->addRow(tr("Grant:"), grant);
    form->addRow(tr("Sponsor's rules:"), m_sponsor);
    m_sponsor->setToolTip(tr("Which costs carry the indirect (F&A) rate, here and in every "
                             "other view's costs per run, break-evens and project totals."));
    auto* copy = new QPushButton(tr("&Copy justification"));
    copy->setObjectName(QStringLiteral("copyJustification"));
    auto* save = new QPushButton(tr("&Save justification…"));
    auto* csv = new QPushButton(tr("Save &budget as CSV…"));
    auto* buttons = new FlowRow;
    buttons->setSpacing(12);
    buttons->addWidget(new QLabel(tr("Budget justification (plain, factual; edit it after "
                                     "pasting):")));
    buttons->addGroup({ copy, save, csv });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    // Under the form, not a row of it: a form row gave the wrapped note 60 px of space above and
    // below, taken from the budget table.
    layout->addWidget(m_sponsorNote);
    layout->addWidget(m_problem);
    // The table as high as its rows (fitTableHeight), the justification the rest: with shares
    // of the height the Total row scrolled out of sight on a laptop screen.
    layout->addWidget(m_table);
    layout->addLayout(buttons);
    layout->addWidget(m_justification, 1);

    connect(copy, &QPushButton::clicked, this, &BudgetView::copyJustification);
    connect(save, &QPushButton::clicked, this, &BudgetView::saveJustificationDialog);
    connect(csv, &QPushButton::clicked, this, &BudgetView::saveCsvDialog);
    auto changed = [this] {
        if (m_syncing)
            return;
        refresh();
        emit settingsChanged();
    };
    connect(m_target, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_syncing)
            m_targetChosen = true;
    });
    // The user's choice of a machine to buy (activated: not the view's own changes).
    connect(m_target, &QComboBox::activated, this, [this] {
        // The item already shown, chosen again, is chosen too: saved from now on.
        if (!std::exchange(m_targetChosen, true))
            emit settingsChanged();
        if (const auto t = target(); t && t->kind == BudgetTarget::Kind::Owned)
            emit machineChosenHere(t->index);
    });
    connect(m_target, &QComboBox::currentIndexChanged, this, changed);
    connect(m_years, &QSpinBox::valueChanged, this, changed);
    connect(m_start, &QDateEdit::dateChanged, this, changed);
    connect(m_runs, &QLineEdit::textChanged, this, changed);
    // On a finished entry, as the Assumptions dock re-plots on a finished number, not on
    // every keystroke; and only after the user typed (tabbing through changes nothing).
    connect(m_runs, &QLineEdit::textEdited, this, [this] { m_runsTyped = true; });
    connect(m_runs, &QLineEdit::editingFinished, this, &BudgetView::plannedRunsFromRunsPerYear);
    connect(m_equipmentYear, &QSpinBox::valueChanged, this, changed);
    // A purchase after the grant's last year is not a choice to offer.
    connect(m_years, &QSpinBox::valueChanged, m_equipmentYear, &QSpinBox::setMaximum);
    connect(m_years, &QSpinBox::valueChanged, m_years,
        [box = m_years](int years) { box->setSuffix(years == 1 ? tr(" year") : tr(" years")); });
    // The sponsor's rules weigh F&A in every view's costs, not only here: the session's.
    connect(m_sponsor, &QComboBox::currentIndexChanged, this, [this] {
        if (m_syncing)
            return;
        m_session->setSponsor(m_sponsor->currentData().toString().toStdString());
        emit settingsChanged();
    });
    connect(m_session, &PlannerSession::resultsChanged, this, &BudgetView::resultsChanged);
    resultsChanged();
}

void BudgetView::resultsChanged()
{
    m_syncing = true;
    m_sponsor->clear();
    for (const auto& s : m_session->catalog().sponsors)
        m_sponsor->addItem(QString::fromStdString(s.name), QString::fromStdString(s.id));
    m_sponsor->setCurrentIndex(
        m_sponsor->findData(QString::fromStdString(m_session->scenario().sponsorId)));
    fillTargets();
    m_syncing = false;
    refresh();
}

// One count of runs: runs the user types per year are to be the plan's planned runs, so that
// Buy vs rent, the Planner's project totals and the report count the runs budgeted. Typed
// only: a scenario file's runs are loaded as they were saved.
void BudgetView::plannedRunsFromRunsPerYear()
{
    if (!m_runsTyped)
        return;
    m_runsTyped = false;
    // Only a plan the tab can budget (it parses, one entry per year, no runs before the
    // purchase), within the planned runs' own bounds.
    const auto typed = plan();
    if (!typed || typed->runsPerYear.empty())
        return;
    const int total = std::accumulate(typed->runsPerYear.begin(), typed->runsPerYear.end(), 0);
    if (assumptionSpec(AssumptionId::PlannedRuns).bounds.contains(total)
        && total != m_session->scenario().assumptions.plannedRuns)
        emit plannedRunsTyped(total);
}

namespace {

// What a budget target is, whatever its index: a machine by GPU and count, an offer by id, GPU
// count and whether by its reserved terms.
std::tuple<BudgetTarget::Kind, std::string, int, bool> targetKey(const Results& r, BudgetTarget t)
{
    if (t.kind == BudgetTarget::Kind::Owned)
        return { t.kind, r.options[t.index].gpu->id, r.options[t.index].gpuCount, false };
    return { t.kind, r.cloud[t.index].offer->id, r.cloud[t.index].gpuCount, t.reservedTerms };
}

} // namespace

void BudgetView::fillTargets()
{
    const Results& r = m_session->results();
    // The previous results are gone: the key was taken when the target was listed.
    const std::optional<TargetKey> previous = m_targetChosen ? currentTargetKey() : std::nullopt;
    m_target->clear();
    m_targets.clear();
    m_targetKeys.clear();
    for (std::size_t i = 0; i < r.options.size(); ++i)
        listTarget({ BudgetTarget::Kind::Owned, i });
    for (const BudgetTarget& rental : rentalsToBudget(r))
        listTarget(rental);
    int index = -1;
    int byDefault = -1;
    const auto machine = defaultMachineToCompare(r);
    for (std::size_t t = 0; t < m_targets.size(); ++t) {
        if (previous && m_targetKeys[t] == *previous)
            index = static_cast<int>(t);
        if (m_targets[t].kind == BudgetTarget::Kind::Owned && machine == m_targets[t].index)
            byDefault = static_cast<int>(t);
    }
    // A rental chosen before and no longer among the few listed (another offer became cheaper,
    // its terms are no longer the cheapest, they are gone) stays the user's choice: listed too,
    // by its terms only where that is still a choice. Gone altogether: the tab follows the
    // recommendation again rather than pinning the default as the user's choice.
    if (previous && index < 0 && std::get<0>(*previous) == BudgetTarget::Kind::Rented) {
        const auto& [kind, id, count, byTerms] = *previous;
        for (std::size_t i = 0; i < r.cloud.size() && index < 0; ++i)
            if (r.cloud[i].offer->id == id && r.cloud[i].gpuCount == count)
                index = listTarget({ BudgetTarget::Kind::Rented, i,
                    byTerms && offersReservedTermsToChoose(r, i) });
    }
    if (index < 0) {
        index = byDefault;
        m_targetChosen = false;
    }
    m_target->setCurrentIndex(index >= 0 ? index : 0);
}

std::optional<BudgetView::TargetKey> BudgetView::currentTargetKey() const
{
    const int i = m_target->currentIndex();
    if (i < 0 || static_cast<std::size_t>(i) >= m_targetKeys.size())
        return std::nullopt;
    return m_targetKeys[static_cast<std::size_t>(i)];
}

void BudgetView::followRecommendation()
{
    m_targetChosen = false;
    resultsChanged();
}

void BudgetView::setMachine(std::size_t optionIndex)
{
    setTarget({ BudgetTarget::Kind::Owned, optionIndex });
}

void BudgetView::followMachineChosenElsewhere(std::size_t optionIndex)
{
    const auto current = target();
    if (m_targetChosen && current && current->kind == BudgetTarget::Kind::Rented)
        return;
    setMachine(optionIndex);
}

int BudgetView::listTarget(BudgetTarget target)
{
    if (const auto it = std::find(m_targets.begin(), m_targets.end(), target);
        it != m_targets.end())
        return static_cast<int>(it - m_targets.begin());
    const Results& r = m_session->results();
    m_targets.push_back(target);
    m_targetKeys.push_back(targetKey(r, target));
    m_target->addItem((target.kind == BudgetTarget::Kind::Owned ? tr("Buy %1") : tr("Rent %1"))
                          .arg(views::budgetTargetLabel(r, target)));
    return static_cast<int>(m_targets.size()) - 1;
}

// Programmatic: refreshes, but is not a change of the user's to save. Chosen all the same (in
// the Planner, or by a scenario): kept from now on, not replaced by the recommendation.
void BudgetView::setTarget(BudgetTarget target)
{
    const Results& r = m_session->results();
    // A rental not among the few listed (a scenario's, the justification's) is listed too; one
    // the results do not hold is no choice, and must not pin what happens to be shown.
    const bool exists = target.kind == BudgetTarget::Kind::Owned ? target.index < r.options.size()
                                                                 : target.index < r.cloud.size()
            && (!target.reservedTerms || offersReservedTermsToChoose(r, target.index));
    if (!exists)
        return;
    const bool wasSyncing = std::exchange(m_syncing, true);
    const int index = listTarget(target);
    const bool moves = m_target->currentIndex() != index;
    if (moves)
        m_target->setCurrentIndex(index);
    m_syncing = wasSyncing;
    m_targetChosen = true;
    if (moves)
        refresh();
}

ScenarioGrant BudgetView::grantSettings() const
{
    ScenarioGrant grant;
    grant.plan = shownPlan();
    // A file must reopen: runs per year it cannot hold, and a purchase after the grant, are
    // what the tab reports as a problem, not settings.
    QString leftOut;
    savableRunsPerYear(grant.plan, &leftOut);
    grant.plan.equipmentYear = std::min(grant.plan.equipmentYear, grant.plan.years);
    if (const QString id = m_sponsor->currentData().toString(); !id.isEmpty())
        grant.sponsorId = id.toStdString();
    return grant;
}

bool BudgetView::savableRunsPerYear(GrantPlan& plan, QString* leftOut) const
{
    const QString typed = m_runs->text().trimmed();
    leftOut->clear();
    QString error;
    if (typed.isEmpty())
        plan.runsPerYear.clear();
    else if (!views::parseRunsPerYear(typed, plan, &error))
        *leftOut = QStringLiteral("%1 (%2)").arg(typed, error);
    else if (plan.runsPerYear.size() != static_cast<std::size_t>(plan.years))
        *leftOut
            = tr("%1 (%2 for a grant of %3)")
                  .arg(typed,
                      render::countOf(double(plan.runsPerYear.size()), 0, tr("year"), tr("years")),
                      render::countOf(plan.years, 0, tr("year"), tr("years")));
    const bool savable = !typed.isEmpty() && leftOut->isEmpty();
    if (!savable)
        plan.runsPerYear.clear();
    return savable;
}

QString BudgetView::unsavedRunsPerYear() const
{
    GrantPlan plan = shownPlan();
    QString leftOut;
    savableRunsPerYear(plan, &leftOut);
    return leftOut;
}

QString BudgetView::setGrantSettings(const ScenarioGrant& grant)
{
    m_syncing = true;
    m_years->setValue(grant.plan.years);
    m_start->setDate(QDate(grant.plan.startYear, grant.plan.startMonth, 1));
    QStringList runs;
    for (const int n : grant.plan.runsPerYear)
        runs << QString::number(n);
    m_runs->setText(runs.join(QStringLiteral(",")));
    m_equipmentYear->setValue(grant.plan.equipmentYear);
    m_syncing = false;
    QString warning;
    // A grant that names no sponsor (a file written by hand), or one not loaded, plans by the
    // default rules, not by whichever scenario was open before: the rules move every cost.
    const std::string fallback = m_session->catalog().defaultSponsorId();
    std::string sponsorId = grant.sponsorId.value_or(fallback);
    if (!m_session->catalog().findSponsor(sponsorId)) {
        sponsorId = fallback;
        if (grant.sponsorId) {
            const SponsorRules* used = m_session->catalog().findSponsor(fallback);
            warning = tr("The scenario's sponsor '%1' is not among the loaded sponsors' rules; "
                         "the plan and budget use %2.")
                          .arg(QString::fromStdString(*grant.sponsorId),
                              used ? QString::fromStdString(used->name)
                                   : tr("F&A on cloud spend only"));
        }
    }
    m_session->setSponsor(sponsorId); // re-plans, and refreshes this view
    refresh();
    return warning;
}

std::optional<BudgetTarget> BudgetView::target() const
{
    const int i = m_target->currentIndex();
    if (i < 0 || static_cast<std::size_t>(i) >= m_targets.size())
        return std::nullopt;
    return m_targets[static_cast<std::size_t>(i)];
}

const SponsorRules* BudgetView::sponsor() const
{
    return m_session->catalog().findSponsor(m_session->scenario().sponsorId);
}

// The grant as the widgets show it, runs per year aside (they are typed, and may not parse).
GrantPlan BudgetView::shownPlan() const
{
    GrantPlan plan;
    plan.years = m_years->value();
    plan.startYear = m_start->date().year();
    plan.startMonth = m_start->date().month();
    plan.equipmentYear = m_equipmentYear->value();
    return plan;
}

std::optional<GrantPlan> BudgetView::plan() const
{
    GrantPlan plan = shownPlan();
    QString error;
    if (!m_runs->text().trimmed().isEmpty()
        && !views::parseRunsPerYear(m_runs->text(), plan, &error))
        return std::nullopt;
    const auto t = target();
    if (!t || checkGrantPlan(plan, m_session->results(), *t) != GrantPlanProblem::None)
        return std::nullopt;
    return plan;
}

void BudgetView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        refresh();
}

// Hidden behind another tab: the budget is filled when shown, so that an assumption change
// re-plots the planner without also budgeting a grant nobody sees (as Buy vs rent does). The
// copy, save and report paths compute their budget themselves, never from the shown table.
void BudgetView::refresh()
{
    if (!isVisible() && m_filled) {
        m_stale = true;
        return;
    }
    m_stale = false;
    m_filled = true;
    fillBudget();
}

void BudgetView::fillBudget()
{
    const Results& r = m_session->results();
    m_table->clear();
    m_table->setRowCount(0);
    m_justification->clear();
    const auto t = target();
    const SponsorRules* rules = sponsor();
    // Under the rules: what the reader must be told, in bold, then the rules' own caveats, each
    // on a line of its own (a warning run into the note's paragraph read as more of the note).
    const auto showNotes = [this, rules](const QStringList& warnings, bool budgetShown = false) {
        QStringList lines;
        for (const QString& warning : warnings)
            lines << QStringLiteral("<b>%1</b>").arg(warning.toHtmlEscaped());
        if (rules && !rules->source.note.empty())
            lines << tr("Sponsor's note: %1.")
                         .arg(QString::fromStdString(rules->source.note))
                         .toHtmlEscaped();
        // As the report says above its budget: Buy vs rent adds unrounded figures.
        if (budgetShown)
            lines << tr("Each amount is in whole dollars by line and year, and each total the sum "
                        "of the amounts above it, so a total may differ by a few dollars from the "
                        "same figure unrounded in Buy vs rent.");
        m_sponsorNote->setText(lines.join(QStringLiteral("<br>")));
        m_sponsorNote->setVisible(!lines.isEmpty());
    };
    // Until a budget is made, the one note that needs none: an unset rate the rules charge.
    const QString unsetRate
        = rules ? views::unsetIndirectRateNote(*rules, r.assumptions.indirectRate) : QString();
    showNotes(unsetRate.isEmpty() ? QStringList() : QStringList { unsetRate });
    GrantPlan plan = shownPlan();
    m_runs->setPlaceholderText(
        tr("even: %1").arg(render::countOf(r.assumptions.plannedRuns, 0, tr("run"), tr("runs"))));
    QString problem;
    if (!t || !r.workload)
        problem = tr("Nothing to budget: this model has no machine or offer.");
    else if (!rules)
        problem = tr("No sponsor's rules are loaded (pricing/data/sponsors.yaml).");
    else if (!m_runs->text().trimmed().isEmpty()
        && !views::parseRunsPerYear(m_runs->text(), plan, &problem)) {
    } else if (const auto p = checkGrantPlan(plan, r, *t); p != GrantPlanProblem::None)
        problem = views::grantPlanProblemText(p, plan);
    m_problem->setText(problem.isEmpty() ? QString() : tr("Cannot budget: %1.").arg(problem));
    m_problem->setVisible(!problem.isEmpty());
    if (!problem.isEmpty())
        return;

    const GrantBudget budget = grantBudget(r, *t, plan, *rules);
    // The budget's notes, as `gpuplan-cli budget` and the report print them under the table
    // (the unset rate among them; a rate the rules put on nothing; years that do not fit; a
    // term owed after the grant).
    QStringList notes = views::budgetNotes(r.assumptions.indirectRate, *rules, budget);
    // Typed runs become the planned runs, but the planned runs can change afterwards (the
    // dock, a scenario): the other views then count other runs than this budget. Said.
    const int budgeted = std::accumulate(plan.runsPerYear.begin(), plan.runsPerYear.end(), 0);
    if (!plan.runsPerYear.empty() && budgeted != r.assumptions.plannedRuns) {
        notes.prepend(tr("Note: the runs per year add up to %1, the Planned runs assumption is "
                         "%2: the Planner and Buy vs rent count %2, the report this budget's %1. "
                         "Type the runs per year again, or clear them to spread %2 evenly.")
                          .arg(budgeted)
                          .arg(r.assumptions.plannedRuns));
    } else {
        // The report plans buy vs rent at the grant's pace (render::planAtGrantRuns), so that
        // its verdict counts the owning costs this table books; Buy vs rent counts the Run
        // rate. Said where they differ, as the report says it (helper 66: the same scenario
        // read "buy" on screen and "rent" in the PDF).
        const int runs = plan.runsPerYear.empty() ? r.assumptions.plannedRuns : budgeted;
        const double pace = grantPaceRunsPerMonth(plan, t->kind, runs);
        // At the Run rate box's two decimals: 0.28 typed for 0.2778 can be no closer.
        const auto shown = [](double rate) { return std::round(rate * 100.0); };
        // What the pace moves here (views::figuresAtThePace): of the machine budgeted, or the
        // one a rental is weighed against, and a rental's reserved terms. With nothing moved
        // (no owning costs, nothing to compare), nothing to say; the note had named owning
        // costs that were not counted.
        const auto machine = t->kind == BudgetTarget::Kind::Owned
            ? std::optional(t->index)
            : matchingOwnedOption(r, t->index);
        const bool terms = t->kind == BudgetTarget::Kind::Rented && t->index < r.cloud.size()
            && (t->reservedTerms || r.cloud[t->index].cheapestIsCommitment);
        const QStringList moved = views::figuresAtThePace(r, machine, terms);
        // Each side at the rate its figures count: a machine runs no more than fit back to
        // back (cappedRunsPerMonth), so a Run rate of 1 a month is 0.56 for 54-day runs, which
        // Buy vs rent says; the note had quoted the 1 (review).
        const double typed = r.assumptions.runsPerMonth;
        double counted = typed;
        double reported = pace;
        if (machine && *machine < r.options.size()) {
            const OwnedOption& o = r.options[*machine];
            counted = o.runsPerMonth;
            Assumptions atPace = r.assumptions;
            atPace.runsPerMonth = pace;
            reported = cappedRunsPerMonth(o.estimate.days, atPace);
        }
        const QString countedText = shown(counted) == shown(typed)
            ? tr("the Run rate, %1").arg(render::runRateText(typed))
            : tr("%1 (of the Run rate's %2, as many as fit back to back)")
                  .arg(render::runRateText(counted), render::runRateText(typed));
        if (shown(reported) != shown(counted) && !moved.isEmpty())
            notes.prepend(
                tr("Note: the report plans buy vs rent at this grant's pace, %1 over "
                   "the months it has the compute; Buy vs rent counts %2, so %4 can differ "
                   "from the report's. Set the Run rate to %3 to see the report's figures "
                   "there.")
                    .arg(render::runRateText(reported), countedText, QString::number(pace, 'f', 2),
                        views::listedWithAnd(moved)));
    }
    showNotes(notes, /*budgetShown=*/true);
    const views::BudgetTable table = views::budgetTable(r, *t, plan, budget);
    m_table->setColumnCount(static_cast<int>(table.header.size()));
    m_table->setHorizontalHeaderLabels(table.header);
    m_table->setRowCount(static_cast<int>(table.rows.size()));
    for (int row = 0; row < table.rows.size(); ++row)
        for (int col = 0; col < table.rows[row].size(); ++col) {
            auto* item = new QTableWidgetItem(table.rows[row][col]);
            if (col > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (row == table.rows.size() - 1) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            m_table->setItem(row, col, item);
        }
    m_table->resizeColumnsToContents();
    fitTableHeight();
    QTextDocument* document = m_justification->document();
    render::fillDocument(render::budgetJustification(r, *t, plan, *rules, budget), *document);
}

// Every row in sight, the Total row too, up to a height that leaves the justification room on
// the smallest screens; a wider table than the view adds its scroll bar's height.
void BudgetView::fitTableHeight()
{
    constexpr int kMostRowsInSight = 16;
    const int rows = std::min(m_table->rowCount(), kMostRowsInSight);
    const int frame = 2 * m_table->frameWidth();
    int height = m_table->horizontalHeader()->sizeHint().height() + frame;
    for (int row = 0; row < rows; ++row)
        height += m_table->rowHeight(row);
    if (m_table->horizontalHeader()->length() > m_table->width() - frame)
        height += m_table->horizontalScrollBar()->sizeHint().height();
    if (m_table->rowCount() > rows) // the rest scroll: a few pixels show that there are more
        height += m_table->rowHeight(rows) / 2;
    m_table->setFixedHeight(height);
}

void BudgetView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitTableHeight();
}

QString BudgetView::justificationText() const
{
    const auto t = target();
    const auto p = plan();
    const SponsorRules* rules = sponsor();
    if (!t || !p || !rules)
        return {};
    const Results& r = m_session->results();
    return render::toPlainText(
        render::budgetJustification(r, *t, *p, *rules, grantBudget(r, *t, *p, *rules)));
}

void BudgetView::copyJustification()
{
    const auto t = target();
    const auto p = plan();
    const SponsorRules* rules = sponsor();
    if (!t || !p || !rules)
        return;
    const Results& r = m_session->results();
    const auto text
        = render::budgetJustification(r, *t, *p, *rules, grantBudget(r, *t, *p, *rules));
    // Rich text for word processors, plain text for everything else.
    auto* mime = new QMimeData;
    mime->setText(render::toPlainText(text));
    mime->setHtml(m_justification->document()->toHtml());
    QApplication::clipboard()->setMimeData(mime);
}

void BudgetView::saveJustificationDialog()
{
    const auto t = target();
    const auto p = plan();
    const SponsorRules* rules = sponsor();
    if (!t || !p || !rules)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Save budget justification"),
        QStringLiteral("budget-justification.odt"),
        tr("ODF text (*.odt);;Markdown (*.md);;Plain text (*.txt)"));
    if (path.isEmpty())
        return;
    const Results& r = m_session->results();
    QString error;
    if (!render::writeJustification(
            render::budgetJustification(r, *t, *p, *rules, grantBudget(r, *t, *p, *rules)), path,
            &error))
        QMessageBox::warning(this, tr("Cannot save the justification"), error);
}

void BudgetView::saveCsvDialog()
{
    const auto t = target();
    const auto p = plan();
    const SponsorRules* rules = sponsor();
    if (!t || !p || !rules)
        return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save budget as CSV"), QStringLiteral("grant-budget.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    const QByteArray csv
        = views::budgetCsv(*p, grantBudget(m_session->results(), *t, *p, *rules)).toUtf8();
    QString error;
    if (!views::saveWholeFile(path, csv, &error))
        QMessageBox::warning(this, tr("Cannot save the budget"), error);
}

} // namespace gpuplan::gui

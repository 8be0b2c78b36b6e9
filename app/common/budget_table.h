#pragma once

// A grant budget as a table, for every view: the CLI's table, CSV and JSON, the GUI's Budget
// view, the report and the justification all take their labels and cells from here, so that the
// same budget reads the same everywhere.

#include "core/costing/grant_budget.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gpuplan::views {

// "Equipment", "Materials and supplies", "Computing services (cloud)", ...
QString budgetCategoryLabel(BudgetCategory category, const Results& results, BudgetTarget target);

// "8×A100 80GB SXM (HGX A100 system)" or "AWS p4d.24xlarge, 8×A100 40GB, on-demand". With
// `budget`, a reservation names the term that budget takes (grantBudget's choice over its runs
// by year), else the planner's.
QString budgetTargetLabel(
    const Results& results, BudgetTarget target, const GrantBudget* budget = nullptr);

// "Year 1 (2027-01 to 2027-12)"; "Year 1" without a start.
QString grantYearLabel(const GrantPlan& plan, int year);

// Why a plan cannot be budgeted, in words.
QString grantPlanProblemText(GrantPlanProblem problem, const GrantPlan& plan);

// Said where the indirect rate is 0 but the sponsor's rules charge it on some category: the
// budget then understates those costs (renting most of all). Empty otherwise.
QString unsetIndirectRateNote(const SponsorRules& sponsor, double indirectRate);

// The budget's pricing in words: "on-demand", "reserved 3-yr", "reserved (3-yr and 1-yr
// terms)" where its reservations buy terms of more than one length.
QString budgetPricingLabel(const GrantBudget& budget);

// What reservations owe after the grant, as a sentence without its capital ("the 3-year
// reservation runs past ..."; "reservations run past ..." where several are held); empty where
// nothing is owed.
QString reservedAfterGrantText(const GrantBudget& budget);

// Where a year pays for several reservations side by side, why, and what each year pays, as one
// or two sentences without the first capital ("the runs of year 1 (13 runs) take longer than a
// year back to back, so reservations are held side by side; paid: 2 in year 1 and 1 in year
// 2."), with the terms where they differ; empty where one at a time suffices.
QString reservationsHeldText(const GrantBudget& budget);

// The years whose runs one machine cannot run back to back, as a sentence without its capital
// or full stop ("the runs of years 1 and 3 do not fit on one machine back to back"); empty where
// every year's runs fit.
QString overfullYearsText(const GrantBudget& budget);

// Runs that end after the grant's last day, as a sentence without its capital or full stop
// ("back to back on one machine, the runs end 674 days after the grant's last day; each is
// budgeted in the year it starts"); empty where they end within it.
QString runsPastGrantText(const GrantBudget& budget);

// What a reader of the budget's table must also be told, each a sentence that starts "Warning:"
// or "Note:": years whose runs do not fit on the machine, runs ending after the grant, an unset
// rate the rules charge, staff time without fringe benefits, a rate the rules put on nothing,
// reservations held side by side, a reservation owed after the grant. The CLI prints them under the
// table and the report under its budget, so that neither shows the table without them.
QStringList budgetNotes(
    double indirectRate, const SponsorRules& sponsor, const GrantBudget& budget);

// The costs the sponsor's rules put in the indirect base, in words: "cloud and recharge
// computing, a machine below $5,000 (supplies), electricity, hosting, support and staff time";
// "no cost" under rules that charge none.
QString indirectBaseText(const SponsorRules& sponsor);
// Whether the rules put any cost in the indirect base (supplies only where a machine can be
// below the threshold): the same test indirectBaseText's "no cost" makes.
bool chargesIndirect(const SponsorRules& sponsor);
// "Costs include F&A at 50% on <indirectBaseText> (<the rules' name>)", or that no cost does
// under rules that charge none: what every cost a view shows counts; empty at a rate of 0.
QString indirectScopeText(const SponsorRules& sponsor, double indirectRate);

// "YYYY-MM" into plan.startYear/startMonth; false when it is not such a month.
bool parseGrantStart(const QString& text, GrantPlan& plan);
// "2027-01"; empty without a start.
QString grantStartText(const GrantPlan& plan);
// "3,4,3" into plan.runsPerYear; false with *error set when it is not whole runs within limits.
bool parseRunsPerYear(const QString& text, GrantPlan& plan, QString* error);

// Rows of the budget: the runs, one row per category, direct costs, indirect costs (with the
// rate), total. Cells are formatted; the first column names the row, the last is the total.
struct BudgetTable {
    QStringList header;
    QList<QStringList> rows;
};
BudgetTable budgetTable(
    const Results& results, BudgetTarget target, const GrantPlan& plan, const GrantBudget& budget);

// The same rows as CSV (plain numbers, a header line).
QString budgetCsv(const GrantPlan& plan, const GrantBudget& budget);

// `gpuplan-cli budget --format json` (not versioned: the caller wraps it).
QJsonObject budgetJson(const Results& results, BudgetTarget target, const GrantPlan& plan,
    const SponsorRules& sponsor, const GrantBudget& budget);

// The first month after `today` ("YYYY-MM-DD"): a grant's default start.
void defaultGrantStart(const QString& today, GrantPlan& plan);

} // namespace gpuplan::views

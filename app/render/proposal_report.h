#pragma once

// The one-click proposal report: a PDF a PI can attach to a grant budget justification.

#include "app/render/planner_charts.h"
#include "core/catalog.h"
#include "core/costing/grant_budget.h"
#include "core/evaluate.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace gpuplan::render {

struct ReportInput {
    const Results* results = nullptr;
    // What `results` were evaluated from: the sensitivity (tornado) chart re-evaluates it with
    // each input at its ends. nullptr: no tornado.
    const Scenario* scenario = nullptr;
    const Catalog* catalog = nullptr;
    PlannerChartOptions chartOptions;
    // The machine the buy-vs-rent section compares; default: the recommended one, else the
    // cheapest per experiment.
    std::optional<std::size_t> buyOption;
    // The cloud offers it is compared with (indices into Results::cloud; empty = every offer of
    // the same GPUs) and whether its x axis is months at the run rate: as in the Buy vs rent view.
    std::vector<std::size_t> buyCloudOffers;
    bool buyMonths = false;
    QString date; // "2026-11-22"; default today
    // The grant budget section: what is budgeted (default: the buy-vs-rent machine), the grant
    // (default: 3 years from the month after the plan's day, runs spread evenly) and the
    // sponsor's rules (default: the results' own, Results::indirectRules, else the catalog's
    // us-federal, else its first sponsor; none: no budget section). Give the rules the results
    // were evaluated by, or the budget weighs F&A otherwise than the plan.
    std::optional<BudgetTarget> budgetTarget;
    std::optional<GrantPlan> grantPlan;
    const SponsorRules* sponsor = nullptr;
    // Names of the CSV files with the full tables, written beside the PDF (set by
    // writeProposalReport; named in the report's appendix).
    QString optionsCsvName;
    QString offersCsvName;
    // The planner's runs and run rate where the report replaced them with the grant's
    // (planAtGrantRuns; set by writeProposalReport): the report says so beside its own.
    struct PlannerPace {
        int runs = 0;
        double runsPerMonth = 0.0;
    };
    std::optional<PlannerPace> plannerPace;
};

// One plan in the whole report, the grant budget's: the input's scenario evaluated again at
// the runs the budget budgets (its runs by year, or the plan's spread) and at the grant's pace,
// those runs over the months it has the compute (from the purchase to the grant's end where it
// buys). Buy vs rent ("for the 10 runs planned"), its break-even months and the owning costs
// each run carries then count what the budget table counts. Options and offers keep their
// indices (the catalog and the scenario's GPUs decide them). nullopt: the plan is the budget's
// already, there is no grant section, or no scenario to evaluate.
struct PlanAtGrantRuns {
    Scenario scenario;
    Results results;
};
std::optional<PlanAtGrantRuns> planAtGrantRuns(const ReportInput& input);

// The sponsor, grant and target the report's budget section uses (defaults filled in); no
// sponsor when the catalog has none or the plan cannot be budgeted.
struct ReportGrant {
    const SponsorRules* sponsor = nullptr;
    BudgetTarget target;
    GrantPlan plan;
};
std::optional<ReportGrant> reportGrant(const ReportInput& input);

// Indices into Results::options the report's appendix lists: the frontier (either chart), the
// recommended machine and the buy-vs-rent one, in the options' order.
std::vector<std::size_t> reportOptions(const ReportInput& input);
// Indices into Results::cloud: the cheapest offer per GPU type and kind of offer (cloud,
// campus, allocation) and the ones the buy-vs-rent section compares with, cheapest first.
std::vector<std::size_t> reportOffers(const ReportInput& input);

// The machine the report's buy-vs-rent section is about: the one chosen, else the same GPUs a
// renting budget rents, else defaultMachineToCompare (nullopt when there are no options).
std::optional<std::size_t> reportBuyOption(const ReportInput& input);
// The offers the buy-vs-rent section weighs buying against: those chosen, else the offer a
// renting budget is built on where it rents the same GPUs, else none (the cheapest rental).
std::vector<std::size_t> reportCloudOffers(const ReportInput& input);

// Title, date, model and recipe, assumptions, recommendation, both Fig. 7 charts, buy vs rent
// (chart and conclusion in words), the options and cloud tables, and every price's date and
// source. Charts are images named "chart:hardware", "chart:experiment", "chart:buy-vs-rent" and,
// with a scenario, "chart:sensitivity".
QString proposalReportHtml(const ReportInput& input);

// "1.01 billion", "162 million", "12,000": a large count for people, not "1.012e+09".
QString humanCount(double value);

// Writes the report as an A4 PDF and beside it the full option and offer tables as CSV
// (proposalReportFiles), all three or none: each is written whole before any replaces a file,
// so a failure leaves any earlier report and tables intact. False with *error set on failure.
bool writeProposalReport(const ReportInput& input, const QString& path, QString* error);

// The files writeProposalReport writes for `path`: the PDF, "<name>-options.csv" and
// "<name>-offers.csv" beside it, so that the caller can name them all and ask before replacing
// one the user did not name.
QStringList proposalReportFiles(const QString& path);

} // namespace gpuplan::render

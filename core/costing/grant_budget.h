#pragma once

// A grant budget by year: what buying a machine or renting the same work costs in each year of
// a grant, in the categories a sponsor's budget form asks for, with the indirect (F&A) rate on
// the categories that carry it under the sponsor's rules.

#include "core/costing/indirect.h"
#include "core/costing/whole_dollars.h"
#include "core/evaluate.h"
#include "core/sponsor.h"

#include <optional>
#include <vector>

namespace gpuplan {

// The grant the budget is for. Runs are spread over its years; a machine is bought at the start
// of `equipmentYear` and owned to the end of the grant.
struct GrantPlan {
    int years = 3;
    int startYear = 0; // the first month of year 1 (labels only)
    int startMonth = 1;
    std::vector<int> runsPerYear; // empty: the plan's runs spread evenly (spreadRuns)
    int equipmentYear = 1; // 1-based

    bool operator==(const GrantPlan&) const = default;
};

// What a budget is for: a machine (index into Results::options) or a way to rent (into
// Results::cloud).
struct BudgetTarget {
    enum class Kind { Owned, Rented };
    Kind kind = Kind::Owned;
    std::size_t index = 0;
    // Rented: budget the offer's reserved terms although it also rents pay-as-you-go, which
    // the planner prices it at per run (a grant's runs can make a term cheaper: AWS's 3-year
    // L40S term against its spot rate). Ignored for an offer without reserved terms.
    bool reservedTerms = false;
    bool operator==(const BudgetTarget&) const = default;
};

// Whether `target` can be budgeted by reserved terms as a choice of its own: a rental whose
// offer lists reserved terms and rents pay-as-you-go too (an offer of terms only is budgeted
// by them anyway).
bool offersReservedTermsToChoose(const Results& results, std::size_t cloudIndex);

// `runs` over `years` as evenly as whole runs allow, the remainder in the earliest years
// (10 over 3: 4, 3, 3).
std::vector<int> spreadRuns(int runs, int years);

// Why a plan cannot be budgeted; each view words it.
enum class GrantPlanProblem {
    None,
    Years, // outside limits::kGrantYears
    RunsPerYearCount, // runsPerYear has not one entry per year
    RunsPerYearValue, // an entry outside limits::kRunsPerYear
    EquipmentYear, // not a year of the grant
    RunsBeforePurchase, // runs planned on a machine before the year it is bought
    NoRuns, // runsPerYear is 0 in every year: nothing to budget
    Target, // the target's index is not in the results
};
GrantPlanProblem checkGrantPlan(const GrantPlan& plan, const Results& results, BudgetTarget target);

struct BudgetLine {
    BudgetCategory category = BudgetCategory::Equipment;
    std::vector<double> usdByYear;
    double totalUsd = 0.0;
    bool carriesIndirect = false;
};

// Every amount of the lines, of the direct, F&A base, indirect and total rows and of
// reservedAfterGrantUsd is in whole dollars, each sum made of the rounded amounts it adds (a budget
// form's rule); the per-run and per-hour figures below are not rounded.
struct GrantBudget {
    std::vector<int> runsPerYear;
    // Only the categories that cost something, in BudgetCategory order; a rented allocation
    // keeps its computing-services line at $0, so that it is listed (at no cash).
    std::vector<BudgetLine> lines;
    std::vector<double> directByYear;
    // The base the indirect rate falls on: the lines that carry it under the sponsor's rules
    // (US federal: the modified total direct costs), so a grants office can check the F&A row.
    std::vector<double> indirectBaseByYear;
    std::vector<double> indirectByYear;
    std::vector<double> totalByYear;
    double directUsd = 0.0;
    double indirectBaseUsd = 0.0;
    double indirectUsd = 0.0;
    double totalUsd = 0.0;
    double indirectRate = 0.0;
    // Renting: the pricing the runs are budgeted at (the offer's cheapest), and the spend of one
    // run before indirect costs, at the rate of the reservation term most of the money goes to
    // (reservedTermYears). Reservations are bought where the runs need them
    // (core/costing/reserved_years.h) and paid whether used or not, so a reservation budget is
    // not runs x this spend.
    Pricing pricing = Pricing::OnDemand;
    double spendPerRunUsd = 0.0;
    // That spend as a reviewer checks it: the rate per GPU-hour times the GPU-hours of one run
    // (every GPU of every instance, for the run's hours, spot restarts included).
    double usdPerGpuHour = 0.0;
    double gpuHoursPerRun = 0.0;
    // A reservation: the term most of the money goes to, and what the terms cost after the
    // grant's last year (owed, before indirect costs, but outside this budget's years).
    double reservedTermYears = 0.0;
    double reservedAfterGrantUsd = 0.0;
    // The term lengths bought, longest first (each reservation of the offer's instances buys
    // the cheapest sequence for its own runs); by year, how many reservations the year's runs
    // need side by side (more than 1 where they take longer than a year back to back) and how
    // many are paid for (terms run on past the runs that needed them).
    std::vector<double> reservationTermYears;
    std::vector<int> reservationsNeededPerYear;
    std::vector<int> reservationsPaidPerYear;

    // Reservations bought in terms of more than one length.
    bool mixesReservationTerms() const { return reservationTermYears.size() > 1; }
    // A year pays for more than one reservation at once.
    bool holdsReservationsSideBySide() const
    {
        for (const int paid : reservationsPaidPerYear)
            if (paid > 1)
                return true;
        return false;
    }
    // Owning: years (1-based) whose runs do not fit on one machine back to back.
    std::vector<int> overfullYears;
    // How many days after the grant's last day its last run ends (0: within the grant). Owning:
    // every run on the one machine back to back from the purchase, each year's from the year's
    // start or when the runs before end; renting: each year's runs side by side from the year's
    // start (reservations as the runs need them), so only a run longer than the years left
    // ends after. The budget books such a run in its year all the same.
    double daysPastGrant = 0.0;
    bool runsBackToBack = false; // how daysPastGrant was counted: one machine (owning)
    double daysPerRun = 0.0; // one run on this machine or rental (spot restarts included)
    // Owning: the last run ends after the machine's life (assumptions.amortizationYears from
    // its purchase), which the per-experiment costs spread its price over.
    bool runsOutlastMachineLife = false;
    // Owning, where that life runs on past the grant: the years it does. Sold when the grant
    // ends, the machine is that much younger than the life its resale value is assumed at, so
    // it fetches at least that value, and no owning costs after the grant are owed for it.
    double yearsOwnedAfterGrant = 0.0;
    // Owning, where that life ends before the grant does: the years the budget keeps the
    // machine past it (it books the owning costs of every year from the purchase to the
    // grant's end, runs in them or not). Its resale value is assumed at the end of its life,
    // so a budget that keeps it longer cannot net it.
    double yearsOwnedPastLife = 0.0;
    // Owning, with a resale value at the end of a life that does not end before the grant:
    // what buying costs net of it, the budget's total less the resale, the machine sold when
    // the grant ends (as the planner's buy total nets it when the plan's runs end). Until
    // 2026-12-03 this added the owning costs of the years from the grant's end to the end of
    // the life, as if the machine had to be kept until then to fetch its end-of-life value.
    // Not rounded (the resale is not a budget line). nullopt without a resale, or where the
    // budget keeps the machine past its life (yearsOwnedPastLife).
    std::optional<double> netOfResaleUsd;
    // Renting by reserved terms: what the terms come to per run of the plan, before indirect
    // costs (the computing-services lines and reservedAfterGrantUsd over the runs). Terms are
    // paid used or not, so this, not spendPerRunUsd at the term's rate, is what a run costs
    // (AWS p4de's 5-year term, 10 runs of Pythia-1B: $64,999 against $3,205 at the rate).
    std::optional<double> reservedTermsPerRunUsd;
};

// The budget of one machine or one way to rent, under a sponsor's rules, with the plan's
// assumptions (Results::assumptions). Requires checkGrantPlan(...) == None.
GrantBudget grantBudget(const Results& results, BudgetTarget target, const GrantPlan& plan,
    const SponsorRules& sponsor);

// Whether the indirect rate falls on any of the budget's lines: under a sponsor that pays no
// indirect costs (or one whose categories this budget lacks) it falls on none.
bool carriesIndirect(const GrantBudget& budget);

// The runs the budget plans per year: plan.runsPerYear, or the plan's runs spread evenly.
std::vector<int> plannedRunsPerYear(const GrantPlan& plan, const Assumptions& a);

// The pace of `runs` over the months the grant has the compute: from the purchase to the end of
// the grant where it buys (the budget's owning costs run that long), all of it where it rents;
// within the run rate's limits. The run rate the report plans at, and the desktop planner's
// when runs per year are typed, so that their break-even months agree.
double grantPaceRunsPerMonth(const GrantPlan& plan, BudgetTarget::Kind kind, int runs);

// What renting commits the grant to: the budget's total and what its reservation terms owe
// after the grant, with the F&A the spend carries. The one figure a rental is weighed by against
// buying (a 5-year term for a 3-year grant is not 3 years' price).
double rentalCommitmentUsd(
    const GrantBudget& rented, const SponsorRules& sponsor, const Assumptions& a);

// Of the offers renting the same GPUs as Results::options[ownedIndex] (same GPU and count; not
// an allocation, which is granted, not bought), the one whose budget for this plan commits least
// (rentalCommitmentUsd), ties to the planner's cheapest per run (OwnedOption::cheapestCloudIndex).
// The planner picks per run at its own run rate and leaves reservation-only offers out; a
// grant's runs can make one far cheaper (100 runs of 8xA100 over 3 years: on-demand budgeted
// $1.06M, a 5-year reservation $975k with what it owes after the grant). Each offer is budgeted
// at its own cheapest pricing (CloudOption::cheapestPricing) and, where it also lists reserved
// terms, by those (BudgetTarget::reservedTerms). nullopt when nothing rents those GPUs.
std::optional<BudgetTarget> cheapestRentalBudget(const Results& results, std::size_t ownedIndex,
    const GrantPlan& plan, const SponsorRules& sponsor);

// The first run of the plan from which buying the machine (Results::options[ownedIndex]) costs
// no more than renting (`rental`, a Rented target: rentalCommitmentUsd), both budgeted under
// the sponsor's rules for the plan's runs up to that one, in the years they fall in. nullopt
// when renting stays cheaper through the plan's last run. Indirect costs fall where the
// sponsor puts them, on both sides. Found by bisection, exact where renting costs the same each
// run; a reservation's cost rises in steps as terms are bought, so buying may cost no more at
// the run found and more again a few runs later, until the next term.
std::optional<int> budgetBreakEvenRun(const Results& results, std::size_t ownedIndex,
    BudgetTarget rental, const GrantPlan& plan, const SponsorRules& sponsor);

// The same against the cheapest way to rent as many runs (cheapestRentalBudget of the plan's
// first k runs), not one way fixed for the whole plan: a 3-year reservation, cheapest for 64
// runs, costs its whole term for the first one too, and against it buying had "paid off from
// run 1" while renting that run on demand cost a fifteenth of the machine (review). What the
// planner's break-even and the report say for the per-run cheapest, where that is cheapest
// for the runs up to the break-even.
std::optional<int> budgetBreakEvenRunAgainstCheapest(const Results& results, std::size_t ownedIndex,
    const GrantPlan& plan, const SponsorRules& sponsor);

// The plan with only its first k runs, in the years they fall in.
GrantPlan firstRunsOf(const GrantPlan& plan, int k, const Assumptions& a);

} // namespace gpuplan

#include "core/costing/grant_budget.h"

#include "core/assumption_table.h"
#include "core/costing/calendar.h"
#include "core/costing/plan.h"
#include "core/costing/renting.h"
#include "core/costing/reserved_years.h"
#include "core/limits.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <utility>

namespace gpuplan {

namespace {

// The budget's lines by category, filled year by year, then summed.
class LineBook {
public:
    LineBook(int years, const SponsorRules& sponsor)
        : m_years(static_cast<std::size_t>(years))
        , m_sponsor(sponsor)
    {
        for (auto& line : m_lines)
            line.usdByYear.assign(m_years, 0.0);
    }

    void add(BudgetCategory c, std::size_t year, double usd)
    {
        m_lines[static_cast<std::size_t>(c)].usdByYear[year] += usd;
        m_used[static_cast<std::size_t>(c)] = true;
    }

    // Each cell rounded to whole dollars, and every sum made of rounded cells: a budget form
    // is in whole dollars, and a grants office checks that its rows and columns add up as
    // printed. Indirect costs are the rate on each year's rounded base, rounded.
    void fill(GrantBudget& b, double indirectRate) const
    {
        b.indirectRate = indirectRate;
        b.directByYear.assign(m_years, 0.0);
        b.indirectByYear.assign(m_years, 0.0);
        b.totalByYear.assign(m_years, 0.0);
        std::vector<double>& indirectBase = b.indirectBaseByYear;
        indirectBase.assign(m_years, 0.0);
        for (std::size_t c = 0; c < kBudgetCategoryCount; ++c) {
            if (!m_used[c])
                continue;
            BudgetLine line = m_lines[c];
            line.category = static_cast<BudgetCategory>(c);
            line.carriesIndirect = m_sponsor.carries(line.category);
            for (double& usd : line.usdByYear)
                usd = wholeDollars(usd);
            line.totalUsd = std::accumulate(line.usdByYear.begin(), line.usdByYear.end(), 0.0);
            for (std::size_t y = 0; y < m_years; ++y) {
                b.directByYear[y] += line.usdByYear[y];
                if (line.carriesIndirect)
                    indirectBase[y] += line.usdByYear[y];
            }
            b.lines.push_back(std::move(line));
        }
        for (std::size_t y = 0; y < m_years; ++y) {
            b.indirectByYear[y] = wholeDollars(indirectRate * indirectBase[y]);
            b.totalByYear[y] = b.directByYear[y] + b.indirectByYear[y];
            b.directUsd += b.directByYear[y];
            b.indirectBaseUsd += indirectBase[y];
            b.indirectUsd += b.indirectByYear[y];
        }
        b.totalUsd = b.directUsd + b.indirectUsd;
    }

private:
    std::size_t m_years;
    const SponsorRules& m_sponsor;
    std::array<BudgetLine, kBudgetCategoryCount> m_lines;
    std::array<bool, kBudgetCategoryCount> m_used {};
};

void budgetOwned(const OwnedOption& o, const GrantPlan& plan, const Assumptions& a,
    const SponsorRules& sponsor, GrantBudget& b, LineBook& book)
{
    const auto purchase = static_cast<std::size_t>(plan.equipmentYear - 1);
    book.add(machineCategory(o.machineCostUsd, sponsor), purchase, o.machineCostUsd);
    // The line is direct: the option's energy per run carries F&A already where the planner's
    // sponsor puts it, and the budget adds F&A itself.
    const double energyPerRunUsd = energyCostUsd(o.powerKw, o.estimate.days, a);
    b.daysPerRun = o.estimate.days;
    const Machine machine { o.gpu, o.gpuCount, o.chassis, o.system };
    const MonthlyOwningCosts monthly
        = monthlyOwningCosts(o.machineCostUsd, machineItPowerKw(machine), a);
    b.runsBackToBack = true;
    double machineFreeOn = static_cast<double>(purchase) * calendar::kDaysPerYear;
    for (std::size_t y = 0; y < b.runsPerYear.size(); ++y) {
        const int runs = b.runsPerYear[y];
        if (runs > 0)
            book.add(BudgetCategory::Energy, y, runs * energyPerRunUsd);
        if (runs * o.estimate.days > calendar::kDaysPerYear)
            b.overfullYears.push_back(static_cast<int>(y) + 1);
        if (runs > 0)
            machineFreeOn = std::max(machineFreeOn, static_cast<double>(y) * calendar::kDaysPerYear)
                + runs * o.estimate.days;
        if (y < purchase)
            continue;
        const double months = calendar::kMonthsPerYear;
        if (monthly.hostingUsd > 0.0)
            book.add(BudgetCategory::Hosting, y, months * monthly.hostingUsd);
        if (monthly.supportUsd > 0.0)
            book.add(BudgetCategory::Support, y, months * monthly.supportUsd);
        if (monthly.staffUsd > 0.0)
            book.add(BudgetCategory::Staff, y, months * monthly.staffUsd);
        if (monthly.fringeUsd > 0.0)
            book.add(BudgetCategory::Fringe, y, months * monthly.fringeUsd);
    }
    // The machine's life past the grant, or the grant past its life (owned to the grant's end
    // all the same).
    const auto yearsHeldInGrant = static_cast<double>(plan.years - plan.equipmentYear + 1);
    b.yearsOwnedAfterGrant = std::max(0.0, a.amortizationYears - yearsHeldInGrant);
    b.yearsOwnedPastLife = std::max(0.0, yearsHeldInGrant - a.amortizationYears);
    b.daysPastGrant = std::max(
        0.0, machineFreeOn - static_cast<double>(b.runsPerYear.size()) * calendar::kDaysPerYear);
    b.runsOutlastMachineLife
        = machineFreeOn - static_cast<double>(purchase) * calendar::kDaysPerYear > lifeDays(a);
}

// The hourly rate of the pricing a cloud option's cheapest cost is at.
double hourlyRate(const CloudOption& c)
{
    const CloudOffer& offer = *c.offer;
    switch (c.cheapestPricing) {
    case Pricing::OnDemand:
        return offer.onDemandUsdPerHour.value_or(0.0);
    case Pricing::Spot:
        return offer.spotUsdPerHour.value_or(0.0);
    case Pricing::Reserved:
        for (const auto& r : offer.reserved)
            if (c.cheapestReservedYears && r.years == *c.cheapestReservedYears)
                return r.usdPerHour;
        return 0.0;
    case Pricing::Allocation:
        return 0.0;
    }
    return 0.0;
}

// `byTerms`: by the offer's reserved terms, whatever its cheapest pricing per run.
void budgetRented(
    const CloudOption& c, bool byTerms, const Assumptions& a, GrantBudget& b, LineBook& book)
{
    const Pricing pricing
        = byTerms && !c.offer->reserved.empty() ? Pricing::Reserved : c.cheapestPricing;
    b.pricing = pricing;
    double rate = hourlyRate(c);
    std::optional<ReservedYears> reserved;
    if (pricing == Pricing::Reserved && !c.offer->reserved.empty()) {
        // Each reservation buys the sequence of terms that costs this budget least over its own
        // runs: the planner's choice is made at its run rate, and a grant's pace differs (it had
        // budgeted three 1-year terms where one 3-year term cost half).
        std::vector<ReservationTerm> terms;
        for (const auto& term : c.offer->reserved)
            terms.push_back({ term.years, term.usdPerHour,
                term.usdPerHour * calendar::kDaysPerYear * calendar::kHoursPerDay
                    * c.ratesBilled });
        reserved
            = reservedYears(b.runsPerYear, runDays(c.estimate.days, Pricing::Reserved, a), terms);
        rate = reserved->mainUsdPerHour;
        b.reservedTermYears = reserved->mainTermYears;
        b.reservationTermYears = reserved->termYears;
        b.reservationsNeededPerYear = reserved->neededPerYear;
        b.reservationsPaidPerYear = reserved->paidPerYear;
    }
    b.spendPerRunUsd = cloudSpendUsd(rate, c.ratesBilled, c.estimate.days, pricing, a);
    const int gpusPaidFor = c.ratesBilled * std::max(1, c.offer->gpusPerInstance);
    b.usdPerGpuHour = rate / std::max(1, c.offer->gpusPerInstance);
    const double daysPerRun = runDays(c.estimate.days, pricing, a);
    b.daysPerRun = daysPerRun;
    b.gpuHoursPerRun = daysPerRun * calendar::kHoursPerDay * gpusPaidFor;
    for (std::size_t y = 0; y < b.runsPerYear.size(); ++y)
        if (b.runsPerYear[y] > 0)
            b.daysPastGrant = std::max(b.daysPastGrant,
                (static_cast<double>(y) - static_cast<double>(b.runsPerYear.size()))
                        * calendar::kDaysPerYear
                    + daysPerRun);
    if (!reserved) {
        for (std::size_t y = 0; y < b.runsPerYear.size(); ++y)
            book.add(BudgetCategory::ComputingServices, y, b.runsPerYear[y] * b.spendPerRunUsd);
        return;
    }
    for (std::size_t y = 0; y < reserved->usdByYear.size(); ++y)
        if (reserved->usdByYear[y] > 0.0)
            book.add(BudgetCategory::ComputingServices, y, reserved->usdByYear[y]);
    b.reservedAfterGrantUsd = wholeDollars(reserved->afterGrantUsd);
}

bool within(const FieldSpec& spec, double value)
{
    return spec.bounds.contains(value);
}

} // namespace

std::vector<int> spreadRuns(int runs, int years)
{
    if (years <= 0)
        return {};
    std::vector<int> spread(static_cast<std::size_t>(years), std::max(runs, 0) / years);
    for (int y = 0; y < std::max(runs, 0) % years; ++y)
        ++spread[static_cast<std::size_t>(y)];
    return spread;
}

std::vector<int> plannedRunsPerYear(const GrantPlan& plan, const Assumptions& a)
{
    return plan.runsPerYear.empty() ? spreadRuns(a.plannedRuns, plan.years) : plan.runsPerYear;
}

GrantPlanProblem checkGrantPlan(const GrantPlan& plan, const Results& results, BudgetTarget target)
{
    if (!within(limits::kGrantYears, plan.years))
        return GrantPlanProblem::Years;
    if (!plan.runsPerYear.empty()
        && plan.runsPerYear.size() != static_cast<std::size_t>(plan.years))
        return GrantPlanProblem::RunsPerYearCount;
    for (int runs : plan.runsPerYear)
        if (!within(limits::kRunsPerYear, runs))
            return GrantPlanProblem::RunsPerYearValue;
    const bool owned = target.kind == BudgetTarget::Kind::Owned;
    if (target.index >= (owned ? results.options.size() : results.cloud.size()))
        return GrantPlanProblem::Target;
    const auto runs = plannedRunsPerYear(plan, results.assumptions);
    if (std::all_of(runs.begin(), runs.end(), [](int n) { return n == 0; }))
        return GrantPlanProblem::NoRuns;
    // Renting buys no machine: its justification checks buying on its own.
    if (!owned)
        return GrantPlanProblem::None;
    if (plan.equipmentYear < 1 || plan.equipmentYear > plan.years)
        return GrantPlanProblem::EquipmentYear;
    for (int y = 0; y + 1 < plan.equipmentYear; ++y)
        if (runs[static_cast<std::size_t>(y)] > 0)
            return GrantPlanProblem::RunsBeforePurchase;
    return GrantPlanProblem::None;
}

bool carriesIndirect(const GrantBudget& b)
{
    return std::any_of(
        b.lines.begin(), b.lines.end(), [](const BudgetLine& l) { return l.carriesIndirect; });
}

GrantPlan firstRunsOf(const GrantPlan& plan, int k, const Assumptions& a)
{
    const std::vector<int> runs = plannedRunsPerYear(plan, a);
    GrantPlan upTo = plan;
    upTo.runsPerYear.assign(runs.size(), 0);
    for (std::size_t y = 0; y < runs.size() && k > 0; ++y) {
        upTo.runsPerYear[y] = std::min(runs[y], k);
        k -= upTo.runsPerYear[y];
    }
    return upTo;
}

namespace {

// The first k of the plan's runs for which buying costs no more than `rentingUsd(first k runs)`.
template <typename Renting>
std::optional<int> firstRunBuyingPays(const Results& results, std::size_t ownedIndex,
    const GrantPlan& plan, const SponsorRules& sponsor, Renting rentingUsd)
{
    const std::vector<int> runs = plannedRunsPerYear(plan, results.assumptions);
    // Buying minus renting for the plan's first k runs: each run adds its electricity to one
    // side and its rental to the other, so the difference falls run by run where renting a run
    // costs more than running it, and the first k where it is <= 0 is found by bisection.
    const auto buyingMinusRenting = [&](int k) {
        const GrantPlan upTo = firstRunsOf(plan, k, results.assumptions);
        return grantBudget(results, { BudgetTarget::Kind::Owned, ownedIndex }, upTo, sponsor)
                   .totalUsd
            - rentingUsd(upTo);
    };
    int low = 1;
    int high = 0;
    for (int n : runs)
        high += n;
    if (high < 1 || buyingMinusRenting(high) > 0.0)
        return std::nullopt;
    while (low < high) {
        const int middle = low + (high - low) / 2;
        if (buyingMinusRenting(middle) <= 0.0)
            high = middle;
        else
            low = middle + 1;
    }
    return low;
}

} // namespace

std::optional<int> budgetBreakEvenRun(const Results& results, std::size_t ownedIndex,
    BudgetTarget rental, const GrantPlan& plan, const SponsorRules& sponsor)
{
    return firstRunBuyingPays(results, ownedIndex, plan, sponsor, [&](const GrantPlan& upTo) {
        return rentalCommitmentUsd(
            grantBudget(results, rental, upTo, sponsor), sponsor, results.assumptions);
    });
}

std::optional<int> budgetBreakEvenRunAgainstCheapest(const Results& results, std::size_t ownedIndex,
    const GrantPlan& plan, const SponsorRules& sponsor)
{
    if (!cheapestRentalBudget(results, ownedIndex, plan, sponsor))
        return std::nullopt;
    return firstRunBuyingPays(results, ownedIndex, plan, sponsor, [&](const GrantPlan& upTo) {
        const auto cheapest = cheapestRentalBudget(results, ownedIndex, upTo, sponsor);
        return cheapest ? rentalCommitmentUsd(
                   grantBudget(results, *cheapest, upTo, sponsor), sponsor, results.assumptions)
                        : 0.0;
    });
}

double grantPaceRunsPerMonth(const GrantPlan& plan, BudgetTarget::Kind kind, int runs)
{
    const int fromYear = kind == BudgetTarget::Kind::Owned ? plan.equipmentYear : 1;
    const double months
        = calendar::kMonthsPerYear * static_cast<double>(std::max(1, plan.years - fromYear + 1));
    const auto& rate = assumptionSpec(AssumptionId::RunsPerMonth);
    return std::clamp(runs / months, rate.bounds.min, rate.bounds.max);
}

double rentalCommitmentUsd(
    const GrantBudget& rented, const SponsorRules& sponsor, const Assumptions& a)
{
    return rented.totalUsd
        + withIndirectUsd(
            rented.reservedAfterGrantUsd, BudgetCategory::ComputingServices, sponsor, a);
}

bool offersReservedTermsToChoose(const Results& results, std::size_t cloudIndex)
{
    if (cloudIndex >= results.cloud.size())
        return false;
    const CloudOption& c = results.cloud[cloudIndex];
    return !c.offer->reserved.empty() && !c.cheapestIsCommitment
        && c.offer->kind != OfferKind::Allocation;
}

std::optional<BudgetTarget> cheapestRentalBudget(const Results& results, std::size_t ownedIndex,
    const GrantPlan& plan, const SponsorRules& sponsor)
{
    if (ownedIndex >= results.options.size())
        return std::nullopt;
    const auto committedUsd = [&](BudgetTarget rental) {
        return rentalCommitmentUsd(
            grantBudget(results, rental, plan, sponsor), sponsor, results.assumptions);
    };
    std::optional<BudgetTarget> best;
    double bestUsd = 0.0;
    const auto consider = [&](BudgetTarget rental) {
        if (best && *best == rental)
            return;
        const double usd = committedUsd(rental);
        if (!best || usd < bestUsd) {
            best = rental;
            bestUsd = usd;
        }
    };
    // The planner's cheapest per run first, so that it wins a tie.
    if (const auto cheapest = results.options[ownedIndex].cheapestCloudIndex)
        consider({ BudgetTarget::Kind::Rented, *cheapest });
    for (std::size_t i : matchingCloudOffers(results, ownedIndex)) {
        if (results.cloud[i].offer->kind == OfferKind::Allocation)
            continue;
        consider({ BudgetTarget::Kind::Rented, i });
        if (offersReservedTermsToChoose(results, i))
            consider({ BudgetTarget::Kind::Rented, i, /*reservedTerms=*/true });
    }
    return best;
}

GrantBudget grantBudget(
    const Results& results, BudgetTarget target, const GrantPlan& plan, const SponsorRules& sponsor)
{
    const Assumptions& a = results.assumptions;
    GrantBudget b;
    b.runsPerYear = plannedRunsPerYear(plan, a);
    LineBook book(plan.years, sponsor);
    if (target.kind == BudgetTarget::Kind::Owned)
        budgetOwned(results.options.at(target.index), plan, a, sponsor, b, book);
    else
        budgetRented(results.cloud.at(target.index), target.reservedTerms, a, b, book);
    book.fill(b, a.indirectRate);
    if (target.kind == BudgetTarget::Kind::Owned) {
        const double resaleUsd = results.options[target.index].owning.resaleUsd;
        // Sold when the grant ends, within its life: the planner's rule (core/costing/plan.h
        // ownedPlan), the resale a floor on what a machine younger than its life fetches.
        if (resaleUsd > 0.0 && b.yearsOwnedPastLife <= 0.0)
            b.netOfResaleUsd = b.totalUsd - resaleUsd;
    }
    if (b.pricing == Pricing::Reserved) {
        const int runs = std::accumulate(b.runsPerYear.begin(), b.runsPerYear.end(), 0);
        double termsUsd = b.reservedAfterGrantUsd;
        for (const BudgetLine& line : b.lines)
            if (line.category == BudgetCategory::ComputingServices)
                termsUsd += line.totalUsd;
        if (runs > 0)
            b.reservedTermsPerRunUsd = termsUsd / runs;
    }
    return b;
}

} // namespace gpuplan

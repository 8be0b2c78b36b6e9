#include "core/costing/reserved_years.h"

#include "core/costing/calendar.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <utility>

namespace gpuplan {

namespace {

// Float sums of run lengths land a hair off whole years; a slice of a year this short is
// rounding, not a paid stretch.
constexpr double kSlackYears = 1e-9;

// Needs of the same stretch, `count` of them (a year's full groups of runs are alike).
struct NeedGroup {
    ReservationNeed need;
    std::int64_t count = 0;
};

// `count` reservations that cover the same needs, one after another (first fit: a need goes to
// the earliest-made reservations free by its start, else to new ones).
struct Bundle {
    std::vector<ReservationNeed> needs;
    double busyUntil = 0.0;
    std::int64_t count = 0;
};

std::vector<NeedGroup> needGroups(const std::vector<int>& runsPerYear, double runDays)
{
    std::vector<NeedGroup> groups;
    if (!(runDays > 0.0))
        return groups;
    const double runYears = runDays / calendar::kDaysPerYear;
    const int perReservation = runYears <= 1.0
        ? std::max(1, static_cast<int>(std::floor(calendar::kDaysPerYear / runDays + 1e-9)))
        : 1;
    for (std::size_t y = 0; y < runsPerYear.size(); ++y) {
        const double start = static_cast<double>(y);
        const int runs = std::max(runsPerYear[y], 0);
        if (const int full = runs / perReservation; full > 0)
            groups.push_back({ { start, start + perReservation * runYears }, full });
        if (const int rest = runs % perReservation; rest > 0)
            groups.push_back({ { start, start + rest * runYears }, 1 });
    }
    return groups;
}

std::vector<Bundle> bundlesFor(std::vector<NeedGroup> groups)
{
    // Shortest first within a year: a short group fits into what an earlier reservation's
    // term still covers (a 1.5-year term bought for year 2 covers half of year 3), where the
    // long one would buy again.
    std::stable_sort(groups.begin(), groups.end(), [](const NeedGroup& a, const NeedGroup& b) {
        return a.need.from < b.need.from || (a.need.from == b.need.from && a.need.to < b.need.to);
    });
    std::vector<Bundle> bundles;
    for (const NeedGroup& group : groups) {
        std::int64_t left = group.count;
        for (std::size_t b = 0; b < bundles.size() && left > 0; ++b) {
            if (bundles[b].busyUntil > group.need.from + kSlackYears)
                continue;
            if (bundles[b].count > left) { // split: the rest stays free, just after
                Bundle rest = bundles[b];
                rest.count -= left;
                bundles[b].count = left;
                bundles.insert(bundles.begin() + static_cast<std::ptrdiff_t>(b) + 1, rest);
            }
            bundles[b].needs.push_back(group.need);
            bundles[b].busyUntil = group.need.to;
            left -= bundles[b].count;
        }
        if (left > 0)
            bundles.push_back({ { group.need }, group.need.to, left });
    }
    return bundles;
}

// The cheapest sequence of terms that covers `needs` (in order, not overlapping), terms mixed
// as they pay: each term starts where the last ended or at the start of the first need not
// covered. Dynamic programming over (next need, covered until); the states are bounded by the
// grant's years over the shortest term.
class TermPlanner {
public:
    TermPlanner(
        const std::vector<ReservationNeed>& needs, const std::vector<ReservationTerm>& terms)
        : m_needs(needs)
        , m_terms(terms)
    {
    }

    // The terms bought, as (start, index into terms).
    std::vector<std::pair<double, std::size_t>> cheapest()
    {
        std::vector<std::pair<double, std::size_t>> bought;
        std::size_t i = 0;
        double covered = 0.0;
        while (true) {
            i = firstUncovered(i, covered);
            if (i == m_needs.size())
                return bought;
            const std::size_t t = best(i, covered).second;
            const double start = std::max(m_needs[i].from, covered);
            bought.emplace_back(start, t);
            covered = start + m_terms[t].years;
        }
    }

private:
    std::size_t firstUncovered(std::size_t i, double covered) const
    {
        while (i < m_needs.size() && m_needs[i].to <= covered + kSlackYears)
            ++i;
        return i;
    }

    // The least cost from need i on with cover until `covered`, and the term to buy first.
    std::pair<double, std::size_t> best(std::size_t i, double covered)
    {
        const auto key = std::make_pair(i, std::llround(covered * 1e6));
        if (const auto found = m_memo.find(key); found != m_memo.end())
            return found->second;
        const double start = std::max(m_needs[i].from, covered);
        std::pair<double, std::size_t> result { 0.0, 0 };
        for (std::size_t t = 0; t < m_terms.size(); ++t) {
            const double until = start + m_terms[t].years;
            const std::size_t next = firstUncovered(i, until);
            double cost = m_terms[t].years * m_terms[t].usdPerYear;
            if (next < m_needs.size())
                cost += best(next, until).first;
            if (t == 0 || cost < result.first)
                result = { cost, t };
        }
        m_memo.emplace(key, result);
        return result;
    }

    const std::vector<ReservationNeed>& m_needs;
    const std::vector<ReservationTerm>& m_terms;
    std::map<std::pair<std::size_t, long long>, std::pair<double, std::size_t>> m_memo;
};

// What the bought terms cost by grant year, and past its end.
HeldReservation priced(const std::vector<std::pair<double, std::size_t>>& bought,
    const std::vector<ReservationTerm>& terms, std::size_t years)
{
    HeldReservation held;
    held.usdByYear.assign(years, 0.0);
    held.paidInYear.assign(years, false);
    const double grantYears = static_cast<double>(years);
    for (const auto& [start, t] : bought) {
        const double end = start + terms[t].years;
        for (double from = start; from < std::min(end, grantYears) - kSlackYears;) {
            const double to = std::min({ std::floor(from + kSlackYears) + 1.0, end, grantYears });
            const auto year = static_cast<std::size_t>(from + kSlackYears);
            held.usdByYear[year] += (to - from) * terms[t].usdPerYear;
            if (to - from > kSlackYears)
                held.paidInYear[year] = true;
            from = to;
        }
        held.afterGrantUsd
            += std::max(0.0, end - std::max(start, grantYears)) * terms[t].usdPerYear;
        held.boughtTermYears.push_back(terms[t].years);
    }
    return held;
}

} // namespace

std::vector<ReservationNeed> reservationNeeds(const std::vector<int>& runsPerYear, double runDays)
{
    std::vector<ReservationNeed> needs;
    for (const NeedGroup& group : needGroups(runsPerYear, runDays))
        needs.insert(needs.end(), static_cast<std::size_t>(group.count), group.need);
    return needs;
}

ReservedYears reservedYears(
    const std::vector<int>& runsPerYear, double runDays, const std::vector<ReservationTerm>& terms)
{
    const std::size_t years = runsPerYear.size();
    ReservedYears out;
    out.usdByYear.assign(years, 0.0);
    out.neededPerYear.assign(years, 0);
    out.paidPerYear.assign(years, 0);
    // Not cut at the grant's end: a run that outlasts the grant holds its reservation to its
    // own end, and what that costs after the grant is owed all the same (cut, a 1,769-day run
    // in a 3-year grant was paid for 3 years and the rest said nowhere).
    const std::vector<NeedGroup> groups = needGroups(runsPerYear, runDays);
    for (const NeedGroup& group : groups)
        out.neededPerYear[static_cast<std::size_t>(group.need.from)]
            += static_cast<int>(group.count);
    std::vector<double> spentOnTerm(terms.size(), 0.0); // by index into terms
    for (const Bundle& bundle : bundlesFor(groups)) {
        const auto bought = TermPlanner(bundle.needs, terms).cheapest();
        HeldReservation held = priced(bought, terms, years);
        const auto count = static_cast<double>(bundle.count);
        for (const auto& [start, t] : bought)
            spentOnTerm[t] += count * terms[t].years * terms[t].usdPerYear;
        for (std::size_t y = 0; y < years; ++y) {
            out.usdByYear[y] += count * held.usdByYear[y];
            if (held.paidInYear[y])
                out.paidPerYear[y] += static_cast<int>(bundle.count);
        }
        out.afterGrantUsd += count * held.afterGrantUsd;
        for (const double termYears : held.boughtTermYears)
            if (std::find(out.termYears.begin(), out.termYears.end(), termYears)
                == out.termYears.end())
                out.termYears.push_back(termYears);
        out.held.push_back({ std::move(held), bundle.count });
    }
    std::sort(out.termYears.begin(), out.termYears.end(), std::greater<>());
    std::size_t main = 0;
    for (std::size_t t = 1; t < terms.size(); ++t)
        if (spentOnTerm[t] > spentOnTerm[main]
            || (spentOnTerm[t] == spentOnTerm[main] && terms[t].years > terms[main].years))
            main = t;
    out.mainTermYears = terms[main].years;
    out.mainUsdPerHour = terms[main].usdPerHour;
    return out;
}

} // namespace gpuplan

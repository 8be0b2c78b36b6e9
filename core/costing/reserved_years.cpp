#include "core/costing/reserved_years.h"

#include "core/costing/calendar.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpuplan {

namespace {

// Float sums of run lengths land a hair off whole years.
constexpr double kSlackYears = 1e-9;

// The terms one reservation buys to cover its needs, one after another: a term starts where
// the last ended, or at the start of a need that no term covers.
HeldReservation cover(
    const std::vector<ReservationNeed>& needs, const ReservationTerm& term, std::size_t years)
{
    HeldReservation held;
    held.termYears = term.years;
    held.usdPerHour = term.usdPerHour;
    held.usdByYear.assign(years, 0.0);
    const double grantYears = static_cast<double>(years);
    double coveredUntil = 0.0;
    for (const ReservationNeed& need : needs) {
        while (coveredUntil < need.to - kSlackYears) {
            const double termStart = std::max(need.from, coveredUntil);
            coveredUntil = termStart + term.years;
            for (double from = termStart; from < std::min(coveredUntil, grantYears);) {
                const double to = std::min({ std::floor(from) + 1.0, coveredUntil, grantYears });
                held.usdByYear[static_cast<std::size_t>(from)] += (to - from) * term.usdPerYear;
                from = to;
            }
        }
    }
    held.afterGrantUsd = std::max(0.0, coveredUntil - grantYears) * term.usdPerYear;
    return held;
}

} // namespace

double HeldReservation::totalUsd() const
{
    return std::accumulate(usdByYear.begin(), usdByYear.end(), afterGrantUsd);
}

std::vector<ReservationNeed> reservationNeeds(const std::vector<int>& runsPerYear, double runDays)
{
    std::vector<ReservationNeed> needs;
    if (!(runDays > 0.0))
        return needs;
    const double runYears = runDays / calendar::kDaysPerYear;
    const int perReservation = runYears <= 1.0
        ? std::max(1, static_cast<int>(std::floor(calendar::kDaysPerYear / runDays + 1e-9)))
        : 1;
    for (std::size_t y = 0; y < runsPerYear.size(); ++y) {
        const double start = static_cast<double>(y);
        for (int runs = runsPerYear[y]; runs > 0; runs -= perReservation) {
            const int group = std::min(runs, perReservation);
            needs.push_back({ start, start + group * runYears });
        }
    }
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
    // First fit: a need goes to the first reservation free by its start, else a new one.
    std::vector<std::vector<ReservationNeed>> chains;
    std::vector<double> busyUntil;
    for (const ReservationNeed& need : reservationNeeds(runsPerYear, runDays)) {
        ++out.neededPerYear[static_cast<std::size_t>(need.from)];
        std::size_t k = 0;
        while (k < chains.size() && busyUntil[k] > need.from + kSlackYears)
            ++k;
        if (k == chains.size()) {
            chains.emplace_back();
            busyUntil.push_back(0.0);
        }
        chains[k].push_back(need);
        busyUntil[k] = need.to;
    }
    for (const auto& chain : chains) {
        // Its cheapest term over its own needs; the first of equals.
        HeldReservation best = cover(chain, terms.front(), years);
        for (std::size_t t = 1; t < terms.size(); ++t)
            if (HeldReservation other = cover(chain, terms[t], years);
                other.totalUsd() < best.totalUsd())
                best = std::move(other);
        for (std::size_t y = 0; y < years; ++y) {
            out.usdByYear[y] += best.usdByYear[y];
            if (best.usdByYear[y] > 0.0)
                ++out.paidPerYear[y];
        }
        out.afterGrantUsd += best.afterGrantUsd;
        out.held.push_back(std::move(best));
    }
    return out;
}

} // namespace gpuplan

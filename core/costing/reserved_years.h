#pragma once

// How a grant budget covers its runs by year with a reservation-only offer. A reservation is
// paid for every hour of its term, used or not, so the budget buys terms only where runs need
// them: the runs of a year run back to back from the year's start, as many in one reservation
// as fit into a year (several reservations side by side where they do not; a run longer than a
// year keeps its reservation into the next). Each reservation held buys the cheapest sequence
// of terms for its own runs (a 3-year term, then a 1-year one, where that pays); what a term
// spans past the grant's last year is owed all the same, and so are the terms a run that
// outlasts the grant needs to finish.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpuplan {

// A stretch of time, in years from the grant's start, that one reservation must cover: a
// group of runs back to back from the start of their grant year.
struct ReservationNeed {
    double from = 0.0;
    double to = 0.0;
};

// The needs of `runsPerYear` runs of `runDays` each: a year's runs in groups of as many as fit
// into a year (13 runs of 29 days: 12 and 1); each run alone where one takes longer than a
// year. Not cut at the grant's end.
std::vector<ReservationNeed> reservationNeeds(const std::vector<int>& runsPerYear, double runDays);

// One of an offer's terms: its length and what a year of it costs (every instance).
struct ReservationTerm {
    double years = 1.0;
    double usdPerHour = 0.0; // per instance
    double usdPerYear = 0.0; // all instances
};

// One reservation held through the grant: the terms it buys, the cheapest sequence for its
// own runs (a 3-year term, then a 1-year one, where that pays), and what they cost.
struct HeldReservation {
    std::vector<double> boughtTermYears; // every term bought, in order
    std::vector<double> usdByYear;
    std::vector<bool> paidInYear; // more than a rounding slice of the year is paid
    double afterGrantUsd = 0.0;
};

// `count` reservations alike (a year's full groups of runs are), held side by side.
struct HeldReservations {
    HeldReservation reservation;
    std::int64_t count = 0;
};

struct ReservedYears {
    std::vector<HeldReservations> held; // in the order they are first needed
    std::vector<double> usdByYear; // the sums over everything held
    double afterGrantUsd = 0.0;
    std::vector<int> neededPerYear; // reservations the year's runs need side by side
    std::vector<int> paidPerYear; // reservations paid for in the year (terms run on)
    std::vector<double> termYears; // the term lengths bought, longest first, each once
    // The term most of the money is spent on (ties: the longer), and its hourly rate: what a
    // budget quotes a run at.
    double mainTermYears = 0.0;
    double mainUsdPerHour = 0.0;
};

// The reservations `runsPerYear` runs of `runDays` need over the grant (one year per entry),
// each buying its cheapest sequence of `terms` (not empty). Runs that outlast the grant are
// covered to their end; whatever the terms cost past the grant's last year is owed after it
// (afterGrantUsd).
ReservedYears reservedYears(
    const std::vector<int>& runsPerYear, double runDays, const std::vector<ReservationTerm>& terms);

} // namespace gpuplan

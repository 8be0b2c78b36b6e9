#pragma once

// How many terms of a reservation a plan buys. A reservation is paid for every hour of its
// term, used or not; one term holds the runs that fit into it back to back, or fewer where the
// runs come slower than that and the term ends first. The plan's total, the buy-vs-rent chart's
// steps and the months they fall on all count terms with these two functions.

namespace gpuplan {

// Runs one term holds: `runsInTerm` back to back, or the runs `runsPerMonth` brings within the
// term's `termYears` where that is fewer (a rate of 0: back to back).
double runsPerReservationTerm(double runsInTerm, double termYears, double runsPerMonth);

// Terms one after another for `runs` runs at `runsPerTerm` each; at least one (a reservation is
// bought whole), 0 only where a term holds no run at all.
int reservationTerms(double runs, double runsPerTerm);

} // namespace gpuplan

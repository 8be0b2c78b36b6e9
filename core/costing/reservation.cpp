#include "core/costing/reservation.h"

#include "core/costing/calendar.h"

#include <algorithm>
#include <cmath>

namespace gpuplan {

double runsPerReservationTerm(double runsInTerm, double termYears, double runsPerMonth)
{
    if (!(runsPerMonth > 0.0))
        return runsInTerm;
    return std::min(runsInTerm, termYears * calendar::kMonthsPerYear * runsPerMonth);
}

int reservationTerms(double runs, double runsPerTerm)
{
    if (!(runsPerTerm > 0.0))
        return 0;
    // A hair over a whole number of terms is rounding, not another term.
    return std::max(1, static_cast<int>(std::ceil(runs / runsPerTerm - 1e-9)));
}

} // namespace gpuplan

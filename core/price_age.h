#pragma once

// How old a price is, against the day the plan is made: every price carries its age, and one
// older than the stale limit (assumption stale_months) is flagged as a stale price.

#include "core/provenance.h"

#include <optional>
#include <string_view>

namespace gpuplan {

// Whole months from `date` (YYYY, YYYY-MM or YYYY-MM-DD; a missing month or day counts as the
// first) to `today` (YYYY-MM-DD); nullopt for an undated or malformed date or an empty today.
// A date after today is negative (-1 from a day after it): a typo such as 2027 for 2025, or a
// quote not yet valid, which must not pass for a fresh price.
std::optional<int> monthsOld(std::string_view date, std::string_view today);

// Older than `staleMonths`, of unknown age (undated), or dated after today, while a today is
// given: each a price to check before budgeting with it.
bool isStale(const Provenance& price, std::string_view today, int staleMonths);
// The same rule on an age monthsOld already gave (one parse of the dates, where every price of
// every corner evaluation is aged).
bool isStaleAge(std::optional<int> months, std::string_view today, int staleMonths);

} // namespace gpuplan

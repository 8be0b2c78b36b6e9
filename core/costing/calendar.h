#pragma once

// The calendar the cost rules count in, in one place: amortisation follows the paper's formula
// (365-day years); months are mean calendar months.

namespace gpuplan::calendar {

inline constexpr double kDaysPerYear = 365.0; // the paper's per-experiment formula uses 365
inline constexpr double kDaysPerMonth = 365.25 / 12.0; // a mean calendar month, 30.44 days
inline constexpr double kHoursPerDay = 24.0;
inline constexpr double kMonthsPerYear = 12.0;
inline constexpr double kHoursPerMonth = kDaysPerMonth * kHoursPerDay; // 730.5 h

} // namespace gpuplan::calendar

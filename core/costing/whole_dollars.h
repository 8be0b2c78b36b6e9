#pragma once

// The one rounding of money to what a budget prints: whole dollars, half a dollar up.

#include <cmath>

namespace gpuplan {

// 29% of $750 is $217.50, which a double holds as 217.49999999999997 and std::round made $217.
// The nudge (a millionth of a cent on $10k) is far below a cent and far above a double's error.
// Budget cells, F&A and the equipment threshold's test all round this way.
inline double wholeDollars(double usd)
{
    return std::round(usd * (1.0 + 1e-12));
}

} // namespace gpuplan

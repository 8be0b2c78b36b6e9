#pragma once

#include "core/assumptions.h"
#include "core/evaluate.h"

#include <QString>

namespace gpuplan::views {

// "; more than 12 months old on 2026-12-07: check it before submitting" where the price `p` is
// stale on the plan's day (Results::today, Assumptions::staleMonths), else nothing. Every
// report that cites a price or a dated rate appends it, so the reviewer who reads the date is
// never the first to notice it.
QString stalenessText(const Provenance& p, const Results& results);
// The same for an assumption (electricity, a hosting rate) where it is a dated price: the
// user's own figures and undated values carry no date and are not flagged.
QString assumptionStalenessText(AssumptionId id, const Results& results);

} // namespace gpuplan::views

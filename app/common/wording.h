#pragma once

// How every view words what core returns as structured reasons: the recommendation, why an
// option is unavailable, warnings, and how a cloud price is paid. One wording for the CLI, the
// GUI, the report and JSON.

#include "core/evaluate.h"

#include <QString>

namespace gpuplan::views {

// "fastest machine within the $40,000 budget"; "no machine meets the constraints" when the rule
// found none; empty without a budget or deadline.
QString recommendationReason(const Results& results);

// "no chassis with 16 GPU slots", "infeasible: <where>", "no paper estimate".
QString unavailableReason(const Unavailable& unavailable, SourcePolicy source);

// "cloud offer X names unknown GPU Y", "unknown model: X", ...
QString warningText(const Warning& warning, SourcePolicy source);

// "on-demand", "spot", "reserved 3-yr".
QString pricingLabel(Pricing pricing, std::optional<double> reservedYears = std::nullopt);

} // namespace gpuplan::views

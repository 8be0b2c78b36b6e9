#pragma once

// The little JSON gpuplan-bench writes (progress lines, describe, devices, run summaries):
// escaping and number formatting in one place.

#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::bench::json {

std::string quote(std::string_view text); // "..." with JSON escapes
std::string number(double value); // shortest round-trip form; null if not finite
std::string number(std::optional<double> value); // null when empty

} // namespace gpuplan::bench::json

#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace gpuplan {

// A point to compare: smaller is better on both axes.
struct TradeoffPoint {
    double days = 0.0;
    double cost = 0.0;
};

// Indices of the points no other point beats on both axes (ties kept once, first wins).
std::vector<std::size_t> paretoFrontier(const std::vector<TradeoffPoint>& points);

// Fastest point with cost <= budget (ties: cheaper); nullopt if none fits.
std::optional<std::size_t> fastestWithinBudget(
    const std::vector<TradeoffPoint>& points, double budget);

// Cheapest point with days <= deadline (ties: faster); nullopt if none meets it.
std::optional<std::size_t> cheapestWithinDeadline(
    const std::vector<TradeoffPoint>& points, double deadlineDays);

// Cheapest point meeting both; nullopt if none.
std::optional<std::size_t> cheapestWithinBoth(
    const std::vector<TradeoffPoint>& points, double budget, double deadlineDays);

} // namespace gpuplan

#include "core/decisions.h"

namespace gpuplan {

namespace {
bool dominates(const TradeoffPoint& a, const TradeoffPoint& b)
{
    return a.days <= b.days && a.cost <= b.cost && (a.days < b.days || a.cost < b.cost);
}

bool isBetter(const TradeoffPoint& candidate, const TradeoffPoint& incumbent, bool byDaysFirst)
{
    if (byDaysFirst)
        return candidate.days < incumbent.days
            || (candidate.days == incumbent.days && candidate.cost < incumbent.cost);
    return candidate.cost < incumbent.cost
        || (candidate.cost == incumbent.cost && candidate.days < incumbent.days);
}

template <typename Admissible>
std::optional<std::size_t> bestWhere(
    const std::vector<TradeoffPoint>& points, bool byDaysFirst, Admissible admissible)
{
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!admissible(points[i]))
            continue;
        if (!best || isBetter(points[i], points[*best], byDaysFirst))
            best = i;
    }
    return best;
}
} // namespace

std::vector<std::size_t> paretoFrontier(const std::vector<TradeoffPoint>& points)
{
    std::vector<std::size_t> frontier;
    for (std::size_t i = 0; i < points.size(); ++i) {
        bool dominated = false;
        for (std::size_t j = 0; j < points.size() && !dominated; ++j) {
            const bool sameEarlier
                = j < i && points[j].days == points[i].days && points[j].cost == points[i].cost;
            dominated = dominates(points[j], points[i]) || sameEarlier;
        }
        if (!dominated)
            frontier.push_back(i);
    }
    return frontier;
}

std::optional<std::size_t> fastestWithinBudget(
    const std::vector<TradeoffPoint>& points, double budget)
{
    return bestWhere(points, /*byDaysFirst=*/true,
        [budget](const TradeoffPoint& p) { return p.cost <= budget; });
}

std::optional<std::size_t> cheapestWithinDeadline(
    const std::vector<TradeoffPoint>& points, double deadlineDays)
{
    return bestWhere(points, /*byDaysFirst=*/false,
        [deadlineDays](const TradeoffPoint& p) { return p.days <= deadlineDays; });
}

std::optional<std::size_t> cheapestWithinBoth(
    const std::vector<TradeoffPoint>& points, double budget, double deadlineDays)
{
    return bestWhere(points, /*byDaysFirst=*/false,
        [=](const TradeoffPoint& p) { return p.cost <= budget && p.days <= deadlineDays; });
}

} // namespace gpuplan

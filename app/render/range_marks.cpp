#include "app/render/range_marks.h"

#include <algorithm>

namespace gpuplan::render {

namespace {

constexpr qreal kCapHalfWidth = 3.0; // px: long enough to see, short beside an 11 px marker

double clampTo(const Axis& axis, double value)
{
    return std::clamp(value, axis.min, axis.max);
}

// One whisker from `from` to `to` on screen, each end capped unless it was clamped to the plot.
void addWhisker(QPainterPath& path, QPointF from, QPointF to, bool capFrom, bool capTo)
{
    if ((to - from).manhattanLength() < 0.5)
        return;
    path.moveTo(from);
    path.lineTo(to);
    const bool vertical = std::abs(to.x() - from.x()) < std::abs(to.y() - from.y());
    const QPointF across = vertical ? QPointF(kCapHalfWidth, 0) : QPointF(0, kCapHalfWidth);
    for (const auto& [end, capped] : { std::pair { from, capFrom }, std::pair { to, capTo } }) {
        if (!capped)
            continue;
        path.moveTo(end - across);
        path.lineTo(end + across);
    }
}

} // namespace

bool hasWhiskers(const ChartSeries& series)
{
    return series.kind == ChartSeries::Kind::Scatter
        && std::any_of(series.points.begin(), series.points.end(),
            [](const ChartPoint& p) { return p.xRange || p.yRange; });
}

bool hasBand(const ChartSeries& series)
{
    return series.kind != ChartSeries::Kind::Scatter && series.points.size() >= 2
        && std::all_of(series.points.begin(), series.points.end(),
            [](const ChartPoint& p) { return p.yRange.has_value(); });
}

QPainterPath whiskerPath(const ChartData& chart, const ChartSeries& series, const ToScreen& map)
{
    QPainterPath path;
    if (!hasWhiskers(series))
        return path;
    for (const ChartPoint& p : series.points) {
        // A point outside the plot (dropped from a log axis, or beyond a padded range) gets none.
        if (p.x < chart.x.min || p.x > chart.x.max || p.y < chart.y.min || p.y > chart.y.max)
            continue;
        if (p.yRange) {
            const double low = clampTo(chart.y, p.yRange->low);
            const double high = clampTo(chart.y, p.yRange->high);
            addWhisker(
                path, map(p.x, low), map(p.x, high), low == p.yRange->low, high == p.yRange->high);
        }
        if (p.xRange) {
            const double low = clampTo(chart.x, p.xRange->low);
            const double high = clampTo(chart.x, p.xRange->high);
            addWhisker(
                path, map(low, p.y), map(high, p.y), low == p.xRange->low, high == p.xRange->high);
        }
    }
    return path;
}

QPainterPath bandPath(const ChartData& chart, const ChartSeries& series, const ToScreen& map)
{
    QPainterPath path;
    if (!hasBand(series))
        return path;
    const auto& points = series.points;
    path.moveTo(map(points.front().x, clampTo(chart.y, points.front().yRange->low)));
    for (std::size_t i = 1; i < points.size(); ++i)
        path.lineTo(map(points[i].x, clampTo(chart.y, points[i].yRange->low)));
    for (std::size_t i = points.size(); i-- > 0;)
        path.lineTo(map(points[i].x, clampTo(chart.y, points[i].yRange->high)));
    path.closeSubpath();
    return path;
}

} // namespace gpuplan::render

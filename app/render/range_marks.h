#pragma once

// Ranges drawn on a chart (ChartPoint::xRange, ::yRange): whiskers across a scatter point and a
// band around a line, as screen paths. Pure geometry from ChartData and a mapping to screen
// coordinates, so it is tested without Qt Charts; chart_widget.cpp draws the paths.

#include "app/render/chart_data.h"

#include <QPainterPath>
#include <QPointF>

#include <functional>

namespace gpuplan::render {

// A data point (x, y), in the axes' own units, to the chart's screen coordinates.
using ToScreen = std::function<QPointF(double x, double y)>;

// Whiskers of every point of `series` with a range: a line across each range with short caps.
// Ends are clamped to the axes, so a range wider than the plot stops at its edge (uncapped).
QPainterPath whiskerPath(const ChartData& chart, const ChartSeries& series, const ToScreen& map);

// The band between the low and high edges of a line's points, closed; empty unless every
// point of the line has a y range. Edges are clamped to the y axis.
QPainterPath bandPath(const ChartData& chart, const ChartSeries& series, const ToScreen& map);

// Whether `series` draws whiskers (a scatter with ranges) or a band (a line with ranges).
bool hasWhiskers(const ChartSeries& series);
bool hasBand(const ChartSeries& series);

} // namespace gpuplan::render

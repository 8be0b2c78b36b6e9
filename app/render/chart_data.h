#pragma once

// What a chart shows, as plain data: builders fill it from Results (pure, testable), and the one
// drawing backend (chart_widget.h) turns it into pixels. Nothing here depends on Qt Charts, so
// moving to Qt Graphs (Qt Charts is deprecated from Qt 6.10) only touches chart_widget.cpp.

#include <QColor>
#include <QString>

#include <optional>
#include <vector>

namespace gpuplan::render {

enum class Marker { Circle, Square, Triangle, Diamond, Star, Pentagon };

// How far an estimate's implied utilisation is from believable: at or above 75% of peak is
// suspect, above 100% physically impossible. Each has its own ring and legend entry.
enum class PeakWarning { None, Suspect, ExceedsPeak };

// The range of a plotted value (core's Interval, as the chart draws it): whiskers on a scatter
// point, a band around a line.
struct ValueRange {
    double low = 0.0;
    double high = 0.0;
};

// Where a point's label may go: any side, or only beyond the point to its left or right (a
// tornado bar's end, whose label must not sit over the bar on the other side).
enum class LabelSide { Any, Left, Right };

struct ChartPoint {
    double x = 0.0;
    double y = 0.0;
    QString label; // drawn beside the point ("8×A100"); empty = no label
    QString tooltip; // shown on hover
    PeakWarning warning = PeakWarning::None; // drawn with a ring of its own; tooltip says why
    int optionIndex = -1; // index into Results::options, or -1
    int cloudIndex = -1; // index into Results::cloud, or -1
    // Where the value may lie (Results::hasRanges): whiskers across x and y on a scatter point,
    // the band's edges on a line. Unset: a point value only.
    std::optional<ValueRange> xRange;
    std::optional<ValueRange> yRange;
    LabelSide labelSide = LabelSide::Any;
};

struct ChartSeries {
    // Bar: a thick line from its first point to its last (a tornado's swing); labels never
    // cross it.
    enum class Kind { Scatter, Line, DashedLine, Bar };
    QString name; // legend entry
    Kind kind = Kind::Scatter;
    Marker marker = Marker::Circle;
    bool hollow = false; // outline only (measured estimates, spot offers)
    QColor color;
    std::vector<ChartPoint> points;
    // A line that labels may cross (on their halo) when there is no other room; other lines
    // (frontier) are never crossed.
    bool labelsMayCross = false;
    bool inLegend = true; // false: another series of the same look gives the legend entry
    // Left out of a legend too crowded to read at the chart's size (the GPUs' colours: their
    // points are labelled, and name themselves under the pointer); the symbols' key stays.
    bool legendOptional = false;
};

// A named row on an axis of rows: a tornado's input, labelled at its bar.
struct AxisRow {
    double value = 0.0;
    QString label;
};

struct Axis {
    QString title;
    double min = 0.0;
    double max = 1.0;
    bool log = false; // then min > 0 always (a log axis drops a series fed a value <= 0)
    QString prefix; // before each tick label: "$" for money
    bool ticks = true; // false: no numbers along it (an axis of rows)
    // An axis of rows: these labels (ascending values) instead of numbers.
    std::vector<AxisRow> rows {};
    // Where even the compact title does not fit along a small plot (ChartWidget), this one ("$
    // per experiment"), with the scale; empty: Qt elides the compact title.
    QString shortTitle {};
};

// A budget, deadline or break-even marker across the whole plot.
struct ReferenceLine {
    enum class Orientation { Vertical, Horizontal };
    Orientation orientation = Orientation::Vertical;
    double value = 0.0;
    QString label;
    QColor color;
    // A limit (budget, deadline): a point's label stays on its point's side of it, where across
    // one a machine over the budget read as within it. A tornado's stated value divides nothing.
    bool divides = false;
};

struct ChartData {
    QString title;
    Axis x;
    Axis y;
    std::vector<ChartSeries> series;
    std::vector<ReferenceLine> lines;
    std::optional<ChartPoint> highlight; // the selected table row
    QString footnote; // under the plot: what was left out and why
};

} // namespace gpuplan::render

#pragma once

// Charts to files for proposals: PNG at a chosen DPI, vector SVG, vector PDF. Works offscreen
// (QT_QPA_PLATFORM=offscreen), so the CLI and the GUI share it.

#include "app/render/chart_data.h"

#include <QImage>
#include <QString>

#include <optional>

namespace gpuplan::render {

enum class ExportFormat { Png, Svg, Pdf };

// From the file name's suffix (case-insensitive); nullopt for anything else.
std::optional<ExportFormat> exportFormatFor(const QString& path);

struct FigureSize {
    double widthInches = 9.0;
    double heightInches = 5.5;
    int dpi = 300; // PNG only; SVG and PDF are vector
};

// Chart layout happens at this many logical pixels per inch; fonts keep their point size, so a
// larger figure gets more room, not larger text.
inline constexpr double kLogicalPixelsPerInch = 120.0;

// Writes `chart` to `path` in the format its suffix names. False with *error set on failure.
bool exportChart(
    const ChartData& chart, const QString& path, const FigureSize& size, QString* error);

// The chart as an image at `dpi` (for the clipboard and the report).
QImage renderChartImage(const ChartData& chart, const FigureSize& size);

} // namespace gpuplan::render

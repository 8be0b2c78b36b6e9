#include "app/render/chart_export.h"

#include "app/common/saved_file.h"
#include "app/render/chart_widget.h"

#include <QBuffer>
#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <cmath>

namespace gpuplan::render {

namespace {

constexpr double kMetersPerInch = 0.0254;

QSize logicalSize(const FigureSize& size)
{
    return { static_cast<int>(std::lround(size.widthInches * kLogicalPixelsPerInch)),
        static_cast<int>(std::lround(size.heightInches * kLogicalPixelsPerInch)) };
}

// A widget that is never shown, laid out at the figure's logical size.
std::unique_ptr<ChartWidget> offscreenChart(const ChartData& chart, const FigureSize& size)
{
    auto widget = std::make_unique<ChartWidget>();
    widget->setAttribute(Qt::WA_DontShowOnScreen);
    widget->resize(logicalSize(size));
    widget->setChartData(chart);
    return widget;
}

// Each format is drawn into memory; exportChart writes the bytes in one step
// (saveWholeFile), so a failed write never leaves half a figure announced as written.
bool drawPng(const ChartData& chart, const FigureSize& size, QBuffer& out)
{
    return renderChartImage(chart, size).save(&out, "PNG");
}

bool drawSvg(const ChartData& chart, const FigureSize& size, QBuffer& out)
{
    const QSize logical = logicalSize(size);
    QSvgGenerator svg;
    svg.setOutputDevice(&out);
    svg.setSize(logical);
    svg.setViewBox(QRect(QPoint(0, 0), logical));
    svg.setResolution(static_cast<int>(kLogicalPixelsPerInch));
    svg.setTitle(chart.title);
    svg.setDescription(QStringLiteral("Made with gpuplan"));
    QPainter painter;
    if (!painter.begin(&svg))
        return false;
    offscreenChart(chart, size)->renderTo(&painter, QRectF(QPointF(0, 0), logical));
    return painter.end();
}

bool drawPdf(const ChartData& chart, const FigureSize& size, QBuffer& out)
{
    QPdfWriter pdf(&out);
    pdf.setPageSize(QPageSize(QSizeF(size.widthInches, size.heightInches), QPageSize::Inch,
        QString(), QPageSize::ExactMatch));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setResolution(size.dpi);
    pdf.setTitle(chart.title);
    pdf.setCreator(QStringLiteral("gpuplan"));
    QPainter painter;
    if (!painter.begin(&pdf))
        return false;
    offscreenChart(chart, size)->renderTo(&painter, QRectF(0, 0, pdf.width(), pdf.height()));
    return painter.end();
}

} // namespace

std::optional<ExportFormat> exportFormatFor(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ExportFormat::Png;
    if (suffix == QLatin1String("svg"))
        return ExportFormat::Svg;
    if (suffix == QLatin1String("pdf"))
        return ExportFormat::Pdf;
    return std::nullopt;
}

QImage renderChartImage(const ChartData& chart, const FigureSize& size)
{
    QImage image(static_cast<int>(std::lround(size.widthInches * size.dpi)),
        static_cast<int>(std::lround(size.heightInches * size.dpi)),
        QImage::Format_ARGB32_Premultiplied);
    const int dotsPerMeter = static_cast<int>(std::lround(size.dpi / kMetersPerInch));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    offscreenChart(chart, size)->renderTo(&painter, QRectF(image.rect()));
    painter.end();
    return image;
}

bool exportChart(
    const ChartData& chart, const QString& path, const FigureSize& size, QString* error)
{
    const auto format = exportFormatFor(path);
    if (!format) {
        *error = QStringLiteral("%1: unknown file type (use .png, .svg or .pdf)").arg(path);
        return false;
    }
    if (size.dpi < 36 || size.dpi > 1200 || size.widthInches <= 0 || size.heightInches <= 0) {
        *error = QStringLiteral("figure size or DPI out of range (DPI 36 to 1200)");
        return false;
    }
    QBuffer drawn;
    drawn.open(QIODevice::WriteOnly);
    bool ok = false;
    switch (*format) {
    case ExportFormat::Png:
        ok = drawPng(chart, size, drawn);
        break;
    case ExportFormat::Svg:
        ok = drawSvg(chart, size, drawn);
        break;
    case ExportFormat::Pdf:
        ok = drawPdf(chart, size, drawn);
        break;
    }
    if (!ok || drawn.data().isEmpty()) {
        *error = QStringLiteral("could not draw the chart for %1").arg(path);
        return false;
    }
    return views::saveWholeFile(path, drawn.data(), error);
}

} // namespace gpuplan::render

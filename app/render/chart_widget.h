#pragma once

// The one place that draws charts. Everything else passes ChartData; only chart_widget.cpp
// knows Qt Charts, so the move to Qt Graphs (Qt Charts is deprecated from Qt 6.10) touches
// this file alone.

#include "app/render/chart_data.h"
#include "app/render/label_placement.h"

#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>

class QAbstractSeries;
class QPainter;

namespace gpuplan::render {

class ChartWidget : public QWidget {
    Q_OBJECT

public:
    explicit ChartWidget(QWidget* parent = nullptr);
    ~ChartWidget() override;

    void setChartData(const ChartData& chartData);
    const ChartData& chartData() const;
    // The height at which each of `rows` category rows (a tornado's inputs) keeps its label:
    // Qt hides the labels that do not fit, and those left then stand beside other rows' bars.
    // A view showing such a chart on screen sets it as the minimum height.
    int rowsMinimumHeight(std::size_t rows) const;

    // Paints the chart into `target` at the widget's logical size, scaled to fill it: vector
    // output on SVG and PDF painters, pixels at the painter's resolution on images. Animations
    // are never on, so nothing is lost mid-animation.
    void renderTo(QPainter* painter, const QRectF& target);

    // Number of drawn point labels (after the ones that would overlap were moved); for tests.
    int visibleLabelCount() const;
    // Every point label's text, placed or not, in the order of the data's points.
    QStringList labelTexts() const;
    // Those placed (drawn), in the same order.
    QStringList placedLabelTexts() const;
    // The leader line drawn to the ringed point's label, where it is drawn; for tests.
    std::optional<QLineF> leaderLine() const;

    // Where the drawn labels are and what they had to keep clear of, in chart coordinates; for
    // tests.
    struct LabelGeometry {
        std::vector<QRectF> labels;
        LabelObstacles obstacles;
    };
    const LabelGeometry& labelGeometry() const;
    // The legend's visible entries, top to bottom; for tests.
    QStringList legendNames() const;
    // The title as Qt Charts draws it: the data's, broken into lines (rich text) where it is
    // wider than the chart; for tests.
    QString drawnTitle() const;
    // The tick labels drawn along the x (horizontal) or y axis; for tests.
    QStringList tickLabels(Qt::Orientation axis) const;
    // Every visible text Qt Charts drew in the chart (axis labels as drawn, elided with "…"
    // where Qt found no room); for tests.
    QStringList drawnTexts() const;
    // The title drawn along the x or y axis (fitAxisTitles' choice); for tests.
    QString axisTitleText(Qt::Orientation axis) const;
    // Where the footnote is drawn and where the plot is, in chart coordinates; for tests.
    QRectF footnoteRect() const;
    QRectF plotArea() const;
    // Where the legend's visible entries are drawn, together, in chart coordinates; for tests.
    QRectF legendEntriesRect() const;
    // Series drawn with whiskers or a band (ranges); for tests.
    int rangeMarkCount() const;
    // How often setChartData built the series anew (rather than moving the points of data of
    // the same shape), and where series `index` of the data is drawn (axis space); for tests.
    int seriesRebuilds() const;
    QList<QPointF> drawnPoints(std::size_t index) const;

signals:
    // A point of the main results was clicked: its index into Results::options or ::cloud.
    void optionClicked(int optionIndex);
    void cloudClicked(int cloudIndex);
    // The chart's context menu (right click, or the Menu key once it has focus): the window
    // copies or exports this chart, with the status message and file questions that go with it.
    void copyRequested();
    void exportRequested();

protected:
    void resizeEvent(QResizeEvent* event) override;
    // A chart takes focus (click or Tab) so that Copy chart knows which of two side by side
    // is meant, and shows that it has it with a frame in the highlight colour.
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    // Shift+F10 opens the context menu, as the Menu key does (Qt maps only the Menu key).
    void keyPressEvent(QKeyEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    struct Impl;
    std::unique_ptr<Impl> d;

    // setChartData's builders, one per kind of thing drawn.
    void attachSeries(QAbstractSeries* series);
    void addDataSeries(const ChartSeries& spec);
    void addPointLabels(const ChartSeries& spec, QAbstractSeries* drawn);
    void addRangeMarks(const ChartSeries& spec);
    void addFlagRings();
    void addHighlight(const QPointF& value);
    void rebuildSeries();
    void movePoints();
    void placeLabels();
    void fitTitle();
    void fitAxisTitles(); // the full axis titles where they fit along the plot, else compact
    void fitFootnote();
    void fitLegend(); // in as many columns as its entries need, beside the plot
    void fitTicks(); // fewer ticks where their labels would not fit along the plot
};

} // namespace gpuplan::render

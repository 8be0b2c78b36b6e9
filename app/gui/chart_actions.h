#pragma once

// Copy chart and Export chart for every chart the window shows: from the Edit and File menus
// (the focused chart of the current tab, else its first) and from each chart's context menu
// (that chart).

#include <QObject>
#include <QString>

#include <vector>

class QAction;
class QMainWindow;
class QTabWidget;

namespace gpuplan::render {
class ChartWidget;
}

namespace gpuplan::gui {

class ChartActions : public QObject {
    Q_OBJECT

public:
    struct NamedChart {
        QString name; // in the Export chart list, and the exported file's suggested name
        render::ChartWidget* widget;
    };

    // `charts` live in `tabs`' pages; messages go to `window`'s status bar.
    ChartActions(QMainWindow* window, QTabWidget* tabs, std::vector<NamedChart> charts);

    // Edit > Copy chart: enabled only while the current tab shows a chart.
    QAction* copyAction() const { return m_copy; }
    // The chart the menus act on: the one last focused on the current tab, else its first;
    // null on a tab without a chart.
    render::ChartWidget* currentChart() const;
    // Puts `chart` on the clipboard as an image and says so in the status bar.
    void copy(const render::ChartWidget* chart);
    // Asks which chart (of those shown; the current one chosen), then where; exportTo writes it.
    void exportDialog();
    // Asks where to write `chart`, then in PNG what resolution, and writes it.
    void exportDialog(const render::ChartWidget* chart);
    // Writes `chart` to `path` (PNG at `dpi`, SVG or PDF by the suffix); false with *error set.
    bool exportTo(const render::ChartWidget* chart, const QString& path, int dpi, QString* error);
    const std::vector<NamedChart>& charts() const { return m_charts; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    const NamedChart* find(const render::ChartWidget* chart) const;
    void updateCopyAction();

    QMainWindow* m_window;
    QTabWidget* m_tabs;
    std::vector<NamedChart> m_charts;
    render::ChartWidget* m_lastFocused = nullptr;
    QAction* m_copy;
};

} // namespace gpuplan::gui

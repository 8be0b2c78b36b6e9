#include "app/gui/chart_actions.h"

#include "app/render/chart_export.h"
#include "app/render/chart_widget.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QFileDialog>
#include <QInputDialog>
#include <QMainWindow>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTabWidget>

namespace gpuplan::gui {

namespace {

constexpr int kClipboardDpi = 150; // sharp when pasted into a document, small enough to paste
constexpr int kStatusMillis = 8000;

// "Training days vs hardware cost" -> "training-days-vs-hardware-cost.png".
QString suggestedFileName(const QString& chartName)
{
    QString name = chartName.toLower();
    name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    return name + QStringLiteral(".png");
}

} // namespace

ChartActions::ChartActions(QMainWindow* window, QTabWidget* tabs, std::vector<NamedChart> charts)
    : QObject(window)
    , m_window(window)
    , m_tabs(tabs)
    , m_charts(std::move(charts))
{
    m_copy = new QAction(tr("&Copy chart"), this);
    m_copy->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
    connect(m_copy, &QAction::triggered, this, [this] {
        if (const render::ChartWidget* chart = currentChart())
            copy(chart);
    });
    for (const NamedChart& named : m_charts) {
        render::ChartWidget* chart = named.widget;
        chart->installEventFilter(this);
        connect(chart, &render::ChartWidget::copyRequested, this, [this, chart] { copy(chart); });
        connect(chart, &render::ChartWidget::exportRequested, this,
            [this, chart] { exportDialog(chart); });
    }
    connect(m_tabs, &QTabWidget::currentChanged, this, &ChartActions::updateCopyAction);
    updateCopyAction();
}

bool ChartActions::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::FocusIn)
        m_lastFocused = qobject_cast<render::ChartWidget*>(watched);
    return QObject::eventFilter(watched, event);
}

render::ChartWidget* ChartActions::currentChart() const
{
    QWidget* page = m_tabs->currentWidget();
    if (!page)
        return nullptr;
    // isHidden: a chart its view hides has nothing current to show (Buy vs rent's tornado
    // without an offer to compare).
    if (m_lastFocused && page->isAncestorOf(m_lastFocused) && !m_lastFocused->isHidden())
        return m_lastFocused;
    for (const NamedChart& named : m_charts)
        if (page->isAncestorOf(named.widget) && !named.widget->isHidden())
            return named.widget;
    return nullptr;
}

const ChartActions::NamedChart* ChartActions::find(const render::ChartWidget* chart) const
{
    for (const NamedChart& named : m_charts)
        if (named.widget == chart)
            return &named;
    return nullptr;
}

void ChartActions::updateCopyAction()
{
    const bool chartShown = currentChart() != nullptr;
    m_copy->setEnabled(chartShown);
    m_copy->setStatusTip(chartShown
            ? tr("Copy the focused chart of this tab (else its first) as an image")
            : tr("This tab has no chart to copy"));
}

void ChartActions::copy(const render::ChartWidget* chart)
{
    render::FigureSize size;
    size.dpi = kClipboardDpi;
    QApplication::clipboard()->setImage(render::renderChartImage(chart->chartData(), size));
    m_window->statusBar()->showMessage(
        tr("Copied the chart '%1' to the clipboard").arg(chart->chartData().title), kStatusMillis);
}

void ChartActions::exportDialog()
{
    QStringList names;
    std::vector<const render::ChartWidget*> shown;
    int preselect = 0;
    for (const NamedChart& named : m_charts) {
        if (named.widget->isHidden())
            continue;
        if (named.widget == currentChart())
            preselect = static_cast<int>(shown.size());
        names << named.name;
        shown.push_back(named.widget);
    }
    bool ok = false;
    const QString chosen = QInputDialog::getItem(
        m_window, tr("Export chart"), tr("Chart:"), names, preselect, false, &ok);
    if (!ok || !names.contains(chosen))
        return;
    exportDialog(shown[static_cast<std::size_t>(names.indexOf(chosen))]);
}

void ChartActions::exportDialog(const render::ChartWidget* chart)
{
    const NamedChart* named = find(chart);
    const QString path = QFileDialog::getSaveFileName(m_window,
        tr("Export chart: %1").arg(named ? named->name : chart->chartData().title),
        suggestedFileName(named ? named->name : QStringLiteral("chart")),
        tr("PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    int dpi = render::FigureSize().dpi;
    if (render::exportFormatFor(path) == render::ExportFormat::Png) {
        bool ok = false;
        dpi = QInputDialog::getInt(
            m_window, tr("Export chart"), tr("Resolution (DPI):"), dpi, 72, 1200, 50, &ok);
        if (!ok)
            return;
    }
    QString error;
    if (!exportTo(chart, path, dpi, &error))
        QMessageBox::warning(m_window, tr("Cannot export chart"), error);
}

bool ChartActions::exportTo(
    const render::ChartWidget* chart, const QString& path, int dpi, QString* error)
{
    render::FigureSize size;
    size.dpi = dpi;
    if (!render::exportChart(chart->chartData(), path, size, error))
        return false;
    m_window->statusBar()->showMessage(tr("Wrote %1").arg(path), kStatusMillis);
    return true;
}

} // namespace gpuplan::gui

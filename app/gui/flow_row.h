#pragma once

// A row of controls that wraps onto a second line where the window is too narrow for one, and
// stays one line where it is not. A plain QHBoxLayout made its whole width the window's minimum:
// the Planner's control row alone asked 939 px, and with the Assumptions dock the window did not
// fit a 1024-px screen, nor a 1366-px laptop at 125 % scaling.

#include <QLayout>
#include <QList>

namespace gpuplan::gui {

class FlowRow : public QLayout {
public:
    explicit FlowRow(QWidget* parent = nullptr);
    ~FlowRow() override;

    // A group kept together on one line ("Model:" and its box): a widget of its own.
    void addGroup(const QList<QWidget*>& widgets);

    void addItem(QLayoutItem* item) override;
    int count() const override;
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    // Lays the items out in `rect` (or only measures, with apply false); the height used.
    int arrange(const QRect& rect, bool apply) const;

    QList<QLayoutItem*> m_items;
};

} // namespace gpuplan::gui

#pragma once

// The Price tables view: GPUs, chassis, systems (sold with their GPUs), cloud offers and
// electricity, editable with validation and undo/redo; each entry shows its kind, its date with
// its age on the plan's day (a stale one marked), and its source.
// Saving, reverting and importing are the main window's actions (they reload the catalog); this
// view shows the state.

#include "app/gui/price_book.h"

#include <QWidget>

class QLabel;
class QTabWidget;
class QTableView;

namespace gpuplan::gui {

class PriceTableModel;

class PriceTablesView : public QWidget {
    Q_OBJECT

public:
    PriceTablesView(PriceBook* book, QWidget* parent = nullptr);

    PriceTableModel* model(PriceTable table) const;
    QTableView* table(PriceTable table) const;
    QString message() const; // the last rejection, or the state line
    // The plan's today and stale limit, against which each price's age is shown.
    void setAgeReference(const std::string& today, int staleMonths);

signals:
    void saveRequested();
    void revertRequested();
    void importRequested();
    void catalogImportRequested(); // a public cloud catalog (CSV), with a preview

private:
    void showState();
    void showRejection(const QString& why);

    PriceBook* m_book;
    QTabWidget* m_tabs = nullptr;
    QLabel* m_intro = nullptr;
    QLabel* m_state = nullptr;
    QLabel* m_message = nullptr;
    std::vector<std::pair<PriceTableModel*, QTableView*>> m_tables;
};

} // namespace gpuplan::gui

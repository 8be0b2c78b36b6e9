#include "app/gui/price_tables_view.h"

#include "app/gui/flow_row.h"
#include "app/gui/number_box.h"
#include "app/gui/price_kind_delegate.h"
#include "app/gui/price_table_model.h"
#include "app/gui/user_files.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableView>
#include <QUndoStack>
#include <QVBoxLayout>

namespace gpuplan::gui {

PriceTablesView::PriceTablesView(PriceBook* book, QWidget* parent)
    : QWidget(parent)
    , m_book(book)
{
    m_tabs = new QTabWidget;
    const std::pair<PriceTable, QString> tables[] = {
        { PriceTable::Gpus, tr("GPUs") },
        { PriceTable::Chassis, tr("Chassis") },
        { PriceTable::Systems, tr("Systems") },
        { PriceTable::Cloud, tr("Cloud offers") },
        { PriceTable::Electricity, tr("Electricity") },
    };
    for (const auto& [kind, title] : tables) {
        auto* model = new PriceTableModel(book, kind, this);
        auto* view = new QTableView;
        view->setObjectName(QStringLiteral("prices-") + title);
        view->setModel(model);
        view->setAlternatingRowColors(true);
        view->setTabKeyNavigation(false); // Tab leaves the table; arrows, F2 and Enter edit
        view->setAccessibleName(tr("%1 prices").arg(title));
        // Numbers typed as the user means them, to four decimals (number_box.h).
        auto* delegate = new QStyledItemDelegate(view);
        delegate->setItemEditorFactory(numberEditorFactory());
        view->setItemDelegate(delegate);
        view->verticalHeader()->hide();
        view->horizontalHeader()->setStretchLastSection(true);
        const auto columns = priceColumns(kind);
        for (std::size_t c = 0; c < columns.size(); ++c)
            if (columns[c].kind == CellKind::PriceKindChoice)
                view->setItemDelegateForColumn(int(c), new PriceKindDelegate(view));
        view->resizeColumnsToContents();
        // An edited cell widens its column rather than wrapping its row: "vendor quote" chosen
        // in a Kind column sized for "list price" broke onto two lines and made its row taller
        // than the rest (review).
        view->setWordWrap(false);
        connect(model, &QAbstractItemModel::dataChanged, view,
            [view](const QModelIndex& from, const QModelIndex& to) {
                for (int c = from.column(); c <= to.column(); ++c)
                    view->resizeColumnToContents(c);
            });
        m_tabs->addTab(view, title);
        m_tables.emplace_back(model, view);
        connect(model, &PriceTableModel::editRejected, this, &PriceTablesView::showRejection);
    }

    auto* undo = new QPushButton(tr("Undo"));
    auto* redo = new QPushButton(tr("Redo"));
    auto* save = new QPushButton(tr("Save"));
    save->setObjectName(QStringLiteral("savePrices"));
    auto* revert = new QPushButton(tr("Revert to shipped defaults"));
    auto* import = new QPushButton(tr("Import price table…"));
    auto* importCatalog = new QPushButton(tr("Import cloud catalog…"));
    importCatalog->setObjectName(QStringLiteral("importCatalog"));
    importCatalog->setToolTip(tr("Cloud offers from a SkyPilot vms.csv or a dstack gpuhunt CSV, "
                                 "previewed before anything changes"));
    connect(undo, &QPushButton::clicked, book->undoStack(), &QUndoStack::undo);
    connect(redo, &QPushButton::clicked, book->undoStack(), &QUndoStack::redo);
    connect(book->undoStack(), &QUndoStack::canUndoChanged, undo, &QPushButton::setEnabled);
    connect(book->undoStack(), &QUndoStack::canRedoChanged, redo, &QPushButton::setEnabled);
    undo->setEnabled(false);
    redo->setEnabled(false);
    connect(save, &QPushButton::clicked, this, &PriceTablesView::saveRequested);
    connect(revert, &QPushButton::clicked, this, &PriceTablesView::revertRequested);
    connect(import, &QPushButton::clicked, this, &PriceTablesView::importRequested);
    connect(importCatalog, &QPushButton::clicked, this, &PriceTablesView::catalogImportRequested);

    m_state = new QLabel;
    m_state->setObjectName(QStringLiteral("priceState"));
    m_message = new QLabel;
    m_message->setObjectName(QStringLiteral("priceMessage"));
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #b00000"));

    // Wraps where the window is narrow (flow_row.h): one line of six buttons set its minimum.
    auto* buttons = new FlowRow;
    buttons->addGroup({ undo, redo, save, revert });
    buttons->addGroup({ import, importCatalog });
    buttons->addWidget(m_state);
    auto* layout = new QVBoxLayout(this);
    m_intro = new QLabel;
    m_intro->setObjectName(QStringLiteral("pricesIntro"));
    m_intro->setWordWrap(true);
    layout->addWidget(m_intro);
    layout->addLayout(buttons);
    layout->addWidget(m_message);
    layout->addWidget(m_tabs, 1);

    connect(book, &PriceBook::modifiedChanged, this, &PriceTablesView::showState);
    connect(book, &PriceBook::tablesReset, this, &PriceTablesView::showState);
    connect(book->undoStack(), &QUndoStack::indexChanged, this, [this] { m_message->clear(); });
    showState();
}

PriceTableModel* PriceTablesView::model(PriceTable table) const
{
    return m_tables.at(static_cast<std::size_t>(table)).first;
}

QTableView* PriceTablesView::table(PriceTable table) const
{
    return m_tables.at(static_cast<std::size_t>(table)).second;
}

QString PriceTablesView::message() const
{
    return m_message->text().isEmpty() ? m_state->text() : m_message->text();
}

void PriceTablesView::setAgeReference(const std::string& today, int staleMonths)
{
    for (const auto& [model, view] : m_tables) {
        // Called at every re-plot: the columns are measured again only when the ages changed.
        if (!model->setAgeReference(today, staleMonths))
            continue;
        // The ages lengthen the dates: widen their column rather than wrap them.
        const auto columns = priceColumns(model->table());
        for (std::size_t c = 0; c < columns.size(); ++c)
            if (columns[c].kind == CellKind::Date)
                view->resizeColumnToContents(int(c));
    }
}

void PriceTablesView::showState()
{
    // The file Save writes belongs to the price set planned with, which can change (Prices
    // menu, an opened scenario): named afresh with every reset.
    m_intro->setText(tr("Double-click a price, its kind, date or source to edit it. Changes "
                        "re-plot at once; Save writes them to %1, layered over the shipped "
                        "tables. Dates show the price's age on the plan's day; a stale one "
                        "says so, in red.")
                         .arg(editedPricesPath()));
    // "Saved" only where something was: with no edits there is nothing to report.
    m_state->setText(m_book->isModified()           ? tr("● Modified — not saved")
            : QFileInfo::exists(editedPricesPath()) ? tr("Edits saved")
                                                    : QString());
}

void PriceTablesView::showRejection(const QString& why)
{
    m_message->setText(tr("Not changed: %1").arg(why));
}

} // namespace gpuplan::gui

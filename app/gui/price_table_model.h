#pragma once

// One of the editable price tables (GPUs, chassis, cloud, electricity) over a PriceBook.
// Edits go through the book (validation, undo); a rejected edit is reported by editRejected.

#include "app/gui/price_book.h"
#include "app/gui/price_columns.h"

#include <QAbstractTableModel>

namespace gpuplan::gui {

class PriceTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    PriceTableModel(PriceBook* book, PriceTable table, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    void editRejected(const QString& message);

private:
    CellKind kindOf(const QModelIndex& index) const;

    PriceBook* m_book;
    PriceTable m_table;
};

} // namespace gpuplan::gui

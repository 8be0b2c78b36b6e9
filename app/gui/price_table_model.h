#pragma once

// One of the editable price tables (GPUs, chassis, cloud, electricity) over a PriceBook.
// Edits go through the book (validation, undo); a rejected edit is reported by editRejected.

#include "app/gui/price_book.h"
#include "app/gui/price_columns.h"
#include "core/evaluate.h"

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

    // The day price ages are counted to and the age past which a price is stale (the plan's
    // today and assumption stale_months): the Date column shows each price's age, a stale one
    // marked as the planner flags it.
    // True when they changed (and the Date column with them).
    bool setAgeReference(const std::string& today, int staleMonths);
    PriceTable table() const { return m_table; }

signals:
    void editRejected(const QString& message);

private:
    CellKind kindOf(const QModelIndex& index) const;
    // The row's price age; nullopt where the table has no price dates (electricity) or no today.
    std::optional<PriceAge> ageOf(int row) const;
    QVariant dateData(const QModelIndex& index, int role) const;

    PriceBook* m_book;
    PriceTable m_table;
    std::string m_today;
    int m_staleMonths = 12;
};

} // namespace gpuplan::gui

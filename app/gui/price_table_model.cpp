#include "app/gui/price_table_model.h"

#include "app/common/format.h"

namespace gpuplan::gui {

PriceTableModel::PriceTableModel(PriceBook* book, PriceTable table, QObject* parent)
    : QAbstractTableModel(parent)
    , m_book(book)
    , m_table(table)
{
    connect(book, &PriceBook::cellChanged, this, [this](PriceTable t, int row, int column) {
        if (t == m_table)
            emit dataChanged(index(row, column), index(row, column));
    });
    connect(book, &PriceBook::tablesReset, this, [this] {
        beginResetModel();
        endResetModel();
    });
}

int PriceTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_book->rowCount(m_table);
}

int PriceTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_book->columnCount(m_table);
}

CellKind PriceTableModel::kindOf(const QModelIndex& index) const
{
    return priceColumns(m_table)[static_cast<std::size_t>(index.column())].kind;
}

QVariant PriceTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QVariant v = m_book->value(m_table, index.row(), index.column());
    switch (role) {
    case Qt::DisplayRole:
        if (v.typeId() == QMetaType::Double) {
            // Money as everywhere else in the app ("$1,070", "$2.49"); other numbers plain.
            const CellKind kind = kindOf(index);
            if (kind == CellKind::Price || kind == CellKind::Rate)
                return views::formatUsd(v.toDouble());
            return QString::number(v.toDouble(), 'f', v.toDouble() < 100 ? 2 : 0);
        }
        if (!v.isValid() && m_book->isEditable(m_table, index.column()))
            return tr("—"); // no price: rented only, or no such rate
        return v;
    case Qt::EditRole:
        return v;
    case Qt::TextAlignmentRole: {
        // Numbers right; a money column's "—" (no price) too, so that the column stays aligned.
        const CellKind kind = kindOf(index);
        const bool numeric = v.typeId() == QMetaType::Double || v.typeId() == QMetaType::Int
            || kind == CellKind::Price || kind == CellKind::Rate;
        return numeric ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                       : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    }
    default:
        return {};
    }
}

QVariant PriceTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return m_book->header(m_table, section);
}

Qt::ItemFlags PriceTableModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (m_book->isEditable(m_table, index.column()))
        f |= Qt::ItemIsEditable;
    return f;
}

bool PriceTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole
        || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const QString why = m_book->edit(m_table, index.row(), index.column(), value);
    if (!why.isEmpty()) {
        emit editRejected(why);
        return false;
    }
    return true;
}

} // namespace gpuplan::gui

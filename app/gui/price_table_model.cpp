#include "app/gui/price_table_model.h"

#include "app/common/format.h"
#include "app/common/wording.h"
#include "app/render/buy_vs_rent_chart.h"
#include "core/price_age.h"
#include "core/uncertainty.h"

#include <QColor>

#include <cmath>

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

bool PriceTableModel::setAgeReference(const std::string& today, int staleMonths)
{
    if (today == m_today && staleMonths == m_staleMonths)
        return false;
    m_today = today;
    m_staleMonths = staleMonths;
    const auto columns = priceColumns(m_table);
    for (std::size_t c = 0; c < columns.size(); ++c)
        if (columns[c].kind == CellKind::Date && rowCount() > 0)
            emit dataChanged(index(0, int(c)), index(rowCount() - 1, int(c)));
    return true;
}

std::optional<PriceAge> PriceTableModel::ageOf(int row) const
{
    // Electricity rows are assumptions, not prices: the planner does not age them.
    if (m_table == PriceTable::Electricity || m_today.empty())
        return std::nullopt;
    // A GPU sold only in systems or rented has no price of its own to age.
    if (m_table == PriceTable::Gpus && !m_book->catalog().gpus.at(std::size_t(row)).priceUsd)
        return std::nullopt;
    const Provenance& p = rowProvenance(m_book->catalog(), m_table, std::size_t(row));
    return PriceAge { monthsOld(p.date, m_today), isStale(p, m_today, m_staleMonths), {} };
}

// "2025-03-03 (7 mo)", as the planner's tables give a price's date; a stale one, "2025-03-03
// (20 mo, stale)", is in the planner's colour for flags, and its tooltip says why and what to do.
QVariant PriceTableModel::dateData(const QModelIndex& index, int role) const
{
    const QVariant v = m_book->value(m_table, index.row(), index.column());
    const std::optional<PriceAge> age = ageOf(index.row());
    if (!age)
        return role == Qt::DisplayRole ? v : QVariant();
    switch (role) {
    case Qt::DisplayRole:
        // A price without a date counts as stale: say so where the date would be.
        return v.toString().isEmpty() ? tr("undated")
                                      : views::priceDateText(v.toString().toStdString(), *age);
    case Qt::ForegroundRole:
        return age->stale ? QVariant(QColor(0xb0, 0x00, 0x00)) : QVariant();
    case Qt::ToolTipRole: {
        const QString today = QString::fromStdString(m_today);
        if (!age->months)
            return tr("Undated: its age on %1 is unknown, so it counts as a %2; check it before "
                      "budgeting with it.")
                .arg(today, views::stalePriceLabel());
        if (*age->months < 0)
            return tr("Dated after %1: a typo, or a quote not yet valid, so it counts as a %2; "
                      "check it before budgeting with it.")
                .arg(today, views::stalePriceLabel());
        const QString old
            = tr("%1 old on %2")
                  .arg(render::countOf(*age->months, 0, tr("month"), tr("months")), today);
        return age->stale
            ? tr("%1, more than the %2-month limit (assumption stale_months): a %3; check it "
                 "before budgeting with it.")
                  .arg(old)
                  .arg(m_staleMonths)
                  .arg(views::stalePriceLabel())
            : tr("%1, within the %2-month limit (assumption stale_months).")
                  .arg(old)
                  .arg(m_staleMonths);
    }
    default:
        return {};
    }
}

QVariant PriceTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QVariant v = m_book->value(m_table, index.row(), index.column());
    const CellKind cellKind = kindOf(index);
    if (cellKind == CellKind::Date
        && (role == Qt::DisplayRole || role == Qt::ForegroundRole || role == Qt::ToolTipRole))
        return dateData(index, role);
    if (cellKind == CellKind::PriceKindChoice) {
        const PriceKind kind
            = priceKindFromString(v.toString().toStdString()).value_or(PriceKind::Unstated);
        if (role == Qt::DisplayRole)
            return kind == PriceKind::Unstated ? tr("—") : views::priceKindText(kind);
        // What the kind changes: the price's range where the table gives none (core/uncertainty.h).
        if (role == Qt::ToolTipRole) {
            const Provenance& p
                = rowProvenance(m_book->catalog(), m_table, std::size_t(index.row()));
            if (p.lowUsd && p.highUsd)
                return tr("The price's range is the table's own: %1 to %2.")
                    .arg(views::formatUsd(*p.lowUsd), views::formatUsd(*p.highUsd));
            const std::string_view why = priceSpread(kind).why;
            return views::toQString(why);
        }
    }
    switch (role) {
    case Qt::DisplayRole:
        if (v.typeId() == QMetaType::Double) {
            // Money as everywhere else in the app ("$1,070", "$2.49"); other numbers plain.
            const CellKind kind = kindOf(index);
            if (kind == CellKind::Price || kind == CellKind::Rate)
                return views::formatUsd(v.toDouble());
            // Below 100 every decimal it has (a $/kWh of 0.137, not 0.14), without an exponent.
            const double x = v.toDouble();
            return std::abs(x) < 100 ? QString::number(x, 'g', 6) : QString::number(x, 'f', 0);
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

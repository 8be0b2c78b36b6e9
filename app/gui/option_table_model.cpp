#include "app/gui/option_table_model.h"

#include "app/common/format.h"
#include "app/common/option_columns.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace gpuplan::gui {

void OptionTableModel::setResults(const Results* results, const std::vector<Results>* comparisons)
{
    beginResetModel();
    m_rows.clear();
    m_headers.clear();
    for (int c = 0; c < views::kOptionColumnCount; ++c) {
        const auto column = static_cast<views::OptionColumn>(c);
        m_headers << (results ? views::displayHeader(column, *results) : views::header(column));
    }
    if (results)
        for (std::size_t i = 0; i < results->options.size(); ++i)
            m_rows.push_back({ &results->options[i], static_cast<int>(i) });
    if (comparisons)
        for (const auto& other : *comparisons)
            for (const auto& o : other.options)
                m_rows.push_back({ &o, -1 });
    endResetModel();
}

int OptionTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int OptionTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : views::kOptionColumnCount + 1;
}

QVariant OptionTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const OwnedOption& o = *row.option;
    if (role == OptionIndexRole)
        return row.optionIndex;
    if (index.column() == kValidationColumn) {
        const auto& error = o.estimate.validationError;
        if (role == Qt::DisplayRole)
            return error ? views::formatPercent(*error) : QString();
        if (role == SortRole)
            return error ? QVariant(*error) : QVariant(-1.0);
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    const auto column = static_cast<views::OptionColumn>(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return views::displayText(o, column);
    case SortRole:
        return views::sortValue(o, column);
    case Qt::ToolTipRole: {
        QString tip = QString::fromStdString(o.estimate.configuration);
        const QString flags = views::optionFlagExplanations(o);
        if (!flags.isEmpty())
            tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) + flags;
        return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    case Qt::TextAlignmentRole: {
        const bool text = column == views::OptionColumn::Gpu
            || column == views::OptionColumn::Source || column == views::OptionColumn::Flags;
        return QVariant((text ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    }
    case Qt::ForegroundRole:
        // Red where the figures cannot be trusted as they stand: a time too short, or a price
        // that does not buy a machine able to power its cards.
        if (column == views::OptionColumn::Flags
            && (o.estimate.hasFlag(EstimateFlag::ExceedsPeak)
                || o.estimate.hasFlag(EstimateFlag::Suspect)
                || o.powerSupplyFit == PowerSupplyFit::Short))
            return QBrush(QColor(0xB0, 0x00, 0x00));
        return {};
    case Qt::FontRole:
        if (row.optionIndex < 0) {
            QFont italic;
            italic.setItalic(true); // a comparison row, not one of the planned options
            return italic;
        }
        return {};
    default:
        return {};
    }
}

QVariant OptionTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0
        || section >= columnCount())
        return {};
    if (section == kValidationColumn)
        return QStringLiteral("Validation error");
    return m_headers.value(section, views::header(static_cast<views::OptionColumn>(section)));
}

} // namespace gpuplan::gui

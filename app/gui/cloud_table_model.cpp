#include "app/gui/cloud_table_model.h"

#include "app/common/cloud_columns.h"
#include "app/common/format.h"
#include "app/common/wording.h"

#include <QBrush>
#include <QColor>

namespace gpuplan::gui {

void CloudTableModel::setResults(const Results* results)
{
    beginResetModel();
    m_results = results;
    endResetModel();
}

int CloudTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_results ? 0 : static_cast<int>(m_results->cloud.size());
}

int CloudTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : views::kCloudColumnCount;
}

QVariant CloudTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CloudOption& c = m_results->cloud[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<views::CloudColumn>(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return views::displayText(c, column);
    case SortRole:
        return views::sortValue(c, column);
    case CloudIndexRole:
        return index.row();
    case Qt::TextAlignmentRole: { // numbers right, words left, as in the machines table
        const bool text = column == views::CloudColumn::Provider
            || column == views::CloudColumn::Offer || column == views::CloudColumn::Gpu
            || column == views::CloudColumn::RateDate || column == views::CloudColumn::Flags;
        return QVariant((text ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    }
    case Qt::ForegroundRole: // the same red for a time beyond belief, and for a stale rate
        if (column == views::CloudColumn::Flags
            && (c.estimate.hasFlag(EstimateFlag::ExceedsPeak)
                || c.estimate.hasFlag(EstimateFlag::Suspect) || c.rateAge.stale))
            return QBrush(QColor(0xB0, 0x00, 0x00));
        return {};
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("Rate as of %1, %2")
                          .arg(views::priceDateText(c.offer->source.date, c.rateAge),
                              QString::fromStdString(c.offer->source.source));
        if (c.rateAge.stale)
            tip += QLatin1Char('\n') + views::staleRateNote();
        // A reservation is paid for its whole term: say when that beats paying per run.
        for (const Commitment& m : c.commitments) {
            QString verdict = views::commitmentVerdict(m, m_results->assumptions.plannedRuns);
            verdict[0] = verdict[0].toUpper();
            tip += QLatin1Char('\n') + verdict + QLatin1Char('.');
        }
        return tip;
    }
    default:
        return {};
    }
}

QVariant CloudTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0
        || section >= columnCount())
        return {};
    return views::displayHeader(static_cast<views::CloudColumn>(section), m_results);
}

} // namespace gpuplan::gui

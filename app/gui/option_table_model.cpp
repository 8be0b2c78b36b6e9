#include "app/gui/option_table_model.h"

#include "app/common/format.h"
#include "app/common/option_columns.h"
#include "app/render/planner_charts.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QPainter>
#include <QPixmap>

#include <map>

namespace gpuplan::gui {

namespace {

// A filled dot of the colour the charts draw a GPU type's points in.
QIcon colorSwatch(const QColor& color)
{
    constexpr int kSize = 12; // the table's small-icon size at 100 % scale
    constexpr int kDot = 10;
    QPixmap pixmap(kSize, kSize);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(color.darker(130), 1));
    painter.setBrush(color);
    painter.drawEllipse(QRectF((kSize - kDot) / 2.0, (kSize - kDot) / 2.0, kDot, kDot));
    return QIcon(pixmap);
}

} // namespace

void OptionTableModel::setResults(const Results* results, const std::vector<Results>* comparisons)
{
    beginResetModel();
    m_rows.clear();
    m_headers.clear();
    for (int c = 0; c < views::kOptionColumnCount; ++c) {
        const auto column = static_cast<views::OptionColumn>(c);
        m_headers << (results ? views::displayHeader(column, *results) : views::header(column));
    }
    // One swatch per GPU type; a comparison row of a GPU type the main results lack has none,
    // as it has no colour on the charts (comparisons are drawn hollow and dark).
    std::map<const GpuSpec*, QIcon> swatches;
    if (results)
        for (const auto& [gpu, color] : render::gpuColors(*results))
            swatches.emplace(gpu, colorSwatch(color));
    const auto swatchOf = [&swatches](const OwnedOption& o) {
        const auto found = swatches.find(o.gpu);
        return found == swatches.end() ? QIcon() : found->second;
    };
    if (results)
        for (std::size_t i = 0; i < results->options.size(); ++i)
            m_rows.push_back({ &results->options[i], static_cast<int>(i),
                swatchOf(results->options[i]), results });
    if (comparisons)
        for (const auto& other : *comparisons)
            for (const auto& o : other.options)
                m_rows.push_back({ &o, -1, swatchOf(o), &other });
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
    case Qt::DecorationRole:
        if (column == views::OptionColumn::Gpu && !row.gpuSwatch.isNull())
            return row.gpuSwatch;
        return {};
    case SortRole:
        return views::sortValue(o, column);
    case Qt::ToolTipRole: {
        QString tip = QString::fromStdString(o.estimate.configuration);
        const QString flags = views::optionFlagExplanations(o);
        if (!flags.isEmpty())
            tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) + flags;
        // Which rows the header's "(with F&A)" holds for: a machine from the equipment
        // threshold carries none on its price (review).
        if (const QString fa
            = row.results ? views::indirectInFigureText(*row.results, o, column) : QString();
            !fa.isEmpty())
            tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) + fa;
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

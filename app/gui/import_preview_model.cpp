#include "app/gui/import_preview_model.h"

#include "app/common/format.h"

namespace gpuplan::gui {

namespace {

QStringList headers(ImportPreviewModel::Kind kind)
{
    switch (kind) {
    case ImportPreviewModel::Kind::Offers:
        return { QObject::tr("Id"), QObject::tr("Instance"), QObject::tr("GPU"),
            QObject::tr("GPUs"), QObject::tr("Region"), QObject::tr("On-demand $/h"),
            QObject::tr("Spot $/h"), QObject::tr("From lines"), QObject::tr("Note") };
    case ImportPreviewModel::Kind::Dropped:
        return { QObject::tr("Line"), QObject::tr("Instance"), QObject::tr("GPU"),
            QObject::tr("Region"), QObject::tr("Reason") };
    case ImportPreviewModel::Kind::Adjusted:
        break;
    }
    return { QObject::tr("Line"), QObject::tr("Rate left out") };
}

QString str(const std::string& s)
{
    return QString::fromStdString(s);
}

QString rate(const std::optional<double>& usd)
{
    return usd ? views::formatUsd(*usd) : QString();
}

QString lines(const std::vector<int>& numbers)
{
    QStringList parts;
    for (int n : numbers)
        parts << QString::number(n);
    return parts.join(QStringLiteral(", "));
}

} // namespace

ImportPreviewModel::ImportPreviewModel(Kind kind, QObject* parent)
    : QAbstractTableModel(parent)
    , m_kind(kind)
{
}

void ImportPreviewModel::setImport(std::shared_ptr<const catalog_import::CatalogImport> import)
{
    beginResetModel();
    m_import = std::move(import);
    endResetModel();
}

int ImportPreviewModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_import)
        return 0;
    switch (m_kind) {
    case Kind::Offers:
        return static_cast<int>(m_import->offers.size());
    case Kind::Dropped:
        return static_cast<int>(m_import->summary.dropped.size());
    case Kind::Adjusted:
        break;
    }
    return static_cast<int>(m_import->summary.adjusted.size());
}

int ImportPreviewModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(headers(m_kind).size());
}

QString ImportPreviewModel::text(int row, int column) const
{
    const auto r = static_cast<std::size_t>(row);
    switch (m_kind) {
    case Kind::Offers: {
        const auto& imported = m_import->offers.at(r);
        const CloudOffer& o = imported.offer;
        const QString cells[] = { str(o.id), str(o.instance), str(o.gpuId),
            QString::number(o.gpusPerInstance), str(o.region), rate(o.onDemandUsdPerHour),
            rate(o.spotUsdPerHour), lines(imported.lines), str(o.source.note) };
        return cells[column];
    }
    case Kind::Dropped: {
        const auto& d = m_import->summary.dropped.at(r);
        const QString cells[] = { QString::number(d.line), str(d.instance), str(d.gpuName),
            str(d.region), str(d.reason) };
        return cells[column];
    }
    case Kind::Adjusted:
        break;
    }
    const auto& a = m_import->summary.adjusted.at(r);
    return column == 0 ? QString::number(a.line) : str(a.what);
}

QVariant ImportPreviewModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
        return text(index.row(), index.column());
    return {};
}

QVariant ImportPreviewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0
        || section >= columnCount())
        return {};
    return headers(m_kind).at(section);
}

} // namespace gpuplan::gui

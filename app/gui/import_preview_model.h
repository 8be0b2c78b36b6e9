#pragma once

// The rows of a catalog import's preview, as a table: the offers it would write, the rows it
// dropped (each with its reason), or the rates it left out. Read-only; set from each new
// preview. Nothing here decides anything: pricing/catalog_import did.

#include "pricing/catalog_import/catalog_import.h"

#include <QAbstractTableModel>

#include <memory>

namespace gpuplan::gui {

class ImportPreviewModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum class Kind { Offers, Dropped, Adjusted };

    explicit ImportPreviewModel(Kind kind, QObject* parent = nullptr);

    void setImport(std::shared_ptr<const catalog_import::CatalogImport> import);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QString text(int row, int column) const;

    Kind m_kind;
    std::shared_ptr<const catalog_import::CatalogImport> m_import;
};

} // namespace gpuplan::gui

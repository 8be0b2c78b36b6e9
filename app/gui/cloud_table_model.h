#pragma once

// The cloud offers table: the shared views::CloudColumn columns over Results::cloud.

#include "core/evaluate.h"

#include <QAbstractTableModel>

namespace gpuplan::gui {

class CloudTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int CloudIndexRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;

    void setResults(const Results* results);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const Results* m_results = nullptr;
};

} // namespace gpuplan::gui

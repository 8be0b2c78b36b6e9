#pragma once

// The options table: every machine of the main results, then the same machines as estimated by
// the comparison sources (a measured row sits beside the paper's one; the Source column says
// which). Columns are the shared views::OptionColumn ones plus the validation error. The GPU
// column carries each GPU type's colour on the charts: the key to their points at any size.

#include "core/evaluate.h"

#include <QAbstractTableModel>
#include <QIcon>
#include <QStringList>

#include <vector>

namespace gpuplan::gui {

class OptionTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    // Qt::UserRole: a value that sorts numerically (for QSortFilterProxyModel).
    static constexpr int SortRole = Qt::UserRole;
    // Qt::UserRole + 1: the row's index into Results::options, or -1 for a comparison row.
    static constexpr int OptionIndexRole = Qt::UserRole + 1;
    static constexpr int kValidationColumn = 10; // after views::kOptionColumnCount columns

    using QAbstractTableModel::QAbstractTableModel;

    // The pointers must stay valid until the next call (they point into the session's results).
    void setResults(const Results* results, const std::vector<Results>* comparisons);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        const OwnedOption* option = nullptr;
        int optionIndex = -1;
        QIcon gpuSwatch; // the GPU type's colour on the charts, beside its name
        const Results* results = nullptr; // the results it belongs to (its F&A rules)
    };
    std::vector<Row> m_rows;
    // The option columns' headers for these results (whether a cost includes F&A is a pass over
    // every option: once per re-plot, not on every header paint).
    QStringList m_headers;
};

} // namespace gpuplan::gui

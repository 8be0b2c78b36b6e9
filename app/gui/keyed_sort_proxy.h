#pragma once

// A sorting proxy that asks the source for each row's sort value once per sort, not twice per
// comparison: with an imported catalog the cloud table re-sorts 1,500 rows on every replot, and
// QSortFilterProxyModel's own lessThan built two QVariants through data() for each of the
// ~16,000 comparisons (a tenth of a 500-offer replot).

#include <QSortFilterProxyModel>
#include <QVariant>

#include <vector>

namespace gpuplan::gui {

class KeyedSortProxy : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit KeyedSortProxy(QObject* parent = nullptr);
    void setSourceModel(QAbstractItemModel* source) override;

protected:
    // Ascending order of the sort role's values; an invalid value (no such price) sorts last,
    // strings compare case-sensitively: QSortFilterProxyModel's defaults.
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    void forgetKeys();

    mutable std::vector<QVariant> m_keys; // by source row, for m_keyColumn and m_keyRole
    mutable int m_keyColumn = -1;
    mutable int m_keyRole = -1;
};

} // namespace gpuplan::gui

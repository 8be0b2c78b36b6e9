#include "app/gui/keyed_sort_proxy.h"

namespace gpuplan::gui {

KeyedSortProxy::KeyedSortProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
}

void KeyedSortProxy::setSourceModel(QAbstractItemModel* source)
{
    if (sourceModel())
        disconnect(sourceModel(), nullptr, this, nullptr);
    forgetKeys();
    // Connected before the base class connects its own handlers, so the keys are gone before it
    // re-sorts on the same signal (dynamic sorting re-sorts inside its dataChanged handler).
    if (source) {
        connect(
            source, &QAbstractItemModel::modelAboutToBeReset, this, &KeyedSortProxy::forgetKeys);
        connect(source, &QAbstractItemModel::dataChanged, this, &KeyedSortProxy::forgetKeys);
        connect(
            source, &QAbstractItemModel::layoutAboutToBeChanged, this, &KeyedSortProxy::forgetKeys);
        connect(
            source, &QAbstractItemModel::rowsAboutToBeInserted, this, &KeyedSortProxy::forgetKeys);
        connect(
            source, &QAbstractItemModel::rowsAboutToBeRemoved, this, &KeyedSortProxy::forgetKeys);
        connect(source, &QAbstractItemModel::rowsAboutToBeMoved, this, &KeyedSortProxy::forgetKeys);
    }
    QSortFilterProxyModel::setSourceModel(source);
}

void KeyedSortProxy::forgetKeys()
{
    m_keys.clear();
    m_keyColumn = -1;
}

bool KeyedSortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const int column = left.column();
    const int role = sortRole();
    if (column != m_keyColumn || role != m_keyRole || m_keys.empty()) {
        const QAbstractItemModel* source = sourceModel();
        const int rows = source->rowCount(left.parent());
        m_keys.assign(static_cast<std::size_t>(rows), QVariant());
        for (int row = 0; row < rows; ++row)
            m_keys[static_cast<std::size_t>(row)]
                = source->index(row, column, left.parent()).data(role);
        m_keyColumn = column;
        m_keyRole = role;
    }
    const auto keyOf = [this](const QModelIndex& index) -> const QVariant& {
        return m_keys[static_cast<std::size_t>(index.row())];
    };
    const QVariant& l = keyOf(left);
    const QVariant& r = keyOf(right);
    if (!l.isValid())
        return false;
    if (!r.isValid())
        return true;
    if (l.userType() == QMetaType::QString && r.userType() == QMetaType::QString)
        return l.toString().compare(r.toString(), sortCaseSensitivity()) < 0;
    return QVariant::compare(l, r) == QPartialOrdering::Less;
}

} // namespace gpuplan::gui

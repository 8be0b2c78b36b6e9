#pragma once

// The editor of a price's kind in the Price tables view: a list of the kinds the price tables
// know (core/provenance.h), in words, so that a typed word the loader would reject never reaches
// the book.

#include <QStyledItemDelegate>

namespace gpuplan::gui {

class PriceKindDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
        const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(
        QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
};

} // namespace gpuplan::gui

#include "app/gui/price_kind_delegate.h"

#include "app/common/format.h"
#include "app/common/wording.h"
#include "core/provenance.h"

#include <QComboBox>

namespace gpuplan::gui {

QWidget* PriceKindDelegate::createEditor(
    QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const
{
    auto* combo = new QComboBox(parent);
    // The item data is the word the tables write ("street"); empty: the table does not say.
    combo->addItem(tr("— (not stated)"), QString());
    for (const PriceKind kind :
        { PriceKind::Quote, PriceKind::List, PriceKind::Street, PriceKind::Resale })
        combo->addItem(views::priceKindText(kind), views::toQString(toString(kind)));
    return combo;
}

void PriceKindDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const
{
    auto* combo = static_cast<QComboBox*>(editor);
    combo->setCurrentIndex(std::max(0, combo->findData(index.data(Qt::EditRole).toString())));
}

void PriceKindDelegate::setModelData(
    QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const
{
    model->setData(index, static_cast<QComboBox*>(editor)->currentData(), Qt::EditRole);
}

} // namespace gpuplan::gui

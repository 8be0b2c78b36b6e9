// The Planner tables' sorting proxy, which reads each row's sort value once per sort: the same
// order as QSortFilterProxyModel's own (numbers, strings, missing values last), and never an
// order from values the source has since changed.

#include "app/gui/keyed_sort_proxy.h"

#include <QStandardItemModel>
#include <QTest>

using gpuplan::gui::KeyedSortProxy;

namespace {

constexpr int kSortRole = Qt::UserRole;

// One column of sort values; an invalid QVariant is a missing price.
void fill(QStandardItemModel& model, const QVariantList& values)
{
    model.clear();
    for (const QVariant& v : values) {
        auto* item = new QStandardItem;
        item->setData(v, kSortRole);
        model.appendRow(item);
    }
}

QVariantList sorted(const QSortFilterProxyModel& proxy)
{
    QVariantList out;
    for (int row = 0; row < proxy.rowCount(); ++row)
        out << proxy.index(row, 0).data(kSortRole);
    return out;
}

} // namespace

class TestKeyedSortProxy : public QObject {
    Q_OBJECT

private slots:
    void sameOrderAsQt_data()
    {
        QTest::addColumn<QVariantList>("values");
        QTest::addColumn<int>("order");
        const QVariantList costs { 3.5, QVariant(), 1.25, 12.0, QVariant(), 2.0 };
        const QVariantList counts { 8, 1, 4, 2 };
        const QVariantList names { QStringLiteral("lambda"), QStringLiteral("AWS"),
            QStringLiteral("azure"), QStringLiteral("RunPod"), QStringLiteral("aws") };
        QTest::newRow("costs, missing last") << costs << int(Qt::AscendingOrder);
        QTest::newRow("costs descending") << costs << int(Qt::DescendingOrder);
        QTest::newRow("GPU counts") << counts << int(Qt::AscendingOrder);
        QTest::newRow("providers, case-sensitive") << names << int(Qt::AscendingOrder);
    }
    void sameOrderAsQt()
    {
        QFETCH(QVariantList, values);
        QFETCH(int, order);
        QStandardItemModel model;
        fill(model, values);
        QSortFilterProxyModel reference;
        KeyedSortProxy keyed;
        for (QSortFilterProxyModel* proxy :
            { &reference, static_cast<QSortFilterProxyModel*>(&keyed) }) {
            proxy->setSourceModel(&model);
            proxy->setSortRole(kSortRole);
            proxy->sort(0, static_cast<Qt::SortOrder>(order));
        }
        QCOMPARE(sorted(keyed), sorted(reference));
        QCOMPARE(sorted(keyed).size(), values.size());
    }

    void expectedOrderByHand()
    {
        QStandardItemModel model;
        fill(model, { 3.5, QVariant(), 1.25, 12.0 });
        KeyedSortProxy proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(kSortRole);
        proxy.sort(0);
        QCOMPARE(sorted(proxy), (QVariantList { 1.25, 3.5, 12.0, QVariant() }));
    }

    // A new Results resets the source; an edit changes one value: either way the next order is
    // the new values', not the remembered keys'.
    void newValuesAreSortedAnew()
    {
        QStandardItemModel model;
        fill(model, { 3.0, 1.0, 2.0 });
        KeyedSortProxy proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(kSortRole);
        proxy.sort(0);
        QCOMPARE(sorted(proxy), (QVariantList { 1.0, 2.0, 3.0 }));

        model.item(1)->setData(9.0, kSortRole); // dataChanged: dynamic sorting re-sorts at once
        QCOMPARE(sorted(proxy), (QVariantList { 2.0, 3.0, 9.0 }));

        fill(model, { 5.0, 4.0, 6.0, 0.5 }); // a reset, then rows inserted
        QCOMPARE(sorted(proxy), (QVariantList { 0.5, 4.0, 5.0, 6.0 }));
    }
};

QTEST_GUILESS_MAIN(TestKeyedSortProxy)
#include "tst_keyed_sort_proxy.moc"

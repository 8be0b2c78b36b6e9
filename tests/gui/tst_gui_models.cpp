// The GUI's models: options and cloud tables (QAbstractItemModelTester, sorting, comparison
// rows), and the price tables with validation and undo/redo.

#include "app/common/cloud_columns.h"
#include "app/common/option_columns.h"
#include "app/gui/carried_defaults.h"
#include "app/gui/cloud_table_model.h"
#include "app/gui/option_table_model.h"
#include "app/gui/price_book.h"
#include "app/gui/price_table_model.h"
#include "app/gui/user_files.h"
#include "app/render/planner_charts.h"
#include "core/uncertainty.h"
#include "pricing/catalog_loader.h"
#include "pricing/measured_results.h"
#include "pricing/scenario/price_table_writer.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QIcon>
#include <QImage>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QUndoStack>
#include <QtTest>

#include <set>

using namespace gpuplan;
using namespace gpuplan::gui;

namespace {

Results plan(const std::shared_ptr<const Catalog>& catalog, SourcePolicy source)
{
    Scenario s;
    s.catalog = catalog;
    s.modelId = "pythia-1b";
    s.source = source;
    s.assumptions = catalog->defaults;
    return evaluate(s);
}

int gpuRow(const PriceBook& book, const std::string& id)
{
    for (std::size_t i = 0; i < book.catalog().gpus.size(); ++i)
        if (book.catalog().gpus[i].id == id)
            return static_cast<int>(i);
    return -1;
}

// Saves `catalog` as the Price tables view does (edited-prices.yaml in a fresh user data dir)
// and reads it back with the planner's loader: what the next start would plan with.
CatalogLoad savedAndReloaded(const Catalog& catalog)
{
    QTemporaryDir data;
    qputenv("GPUPLAN_DATA_DIR", data.path().toUtf8());
    QString error;
    CatalogLoad load;
    if (saveEditedPrices(catalog, &error))
        load = loadCatalogWithUserFiles(
            { editedPricesPath(QString::fromStdString(catalog.priceSet)).toStdString() },
            catalog.priceSet);
    else
        load.issues.push_back({ LoadIssue::Severity::Error, "edited-prices.yaml", 0, 0,
            "not saved: " + error.toStdString() });
    qunsetenv("GPUPLAN_DATA_DIR");
    return load;
}

constexpr int kGpuPriceColumn = 1;
constexpr int kGpuKindColumn = 2;
constexpr int kGpuDateColumn = 3;
constexpr int kGpuSourceColumn = 4;

} // namespace

class TestGuiModels : public QObject {
    Q_OBJECT

    std::shared_ptr<const Catalog> m_catalog;
    std::shared_ptr<const Catalog> m_current; // the default price set, with HGX/DGX systems
    static constexpr PriceTable kPriceTables[] = { PriceTable::Gpus, PriceTable::Chassis,
        PriceTable::Systems, PriceTable::Cloud, PriceTable::Electricity };

private slots:
    void initTestCase()
    {
        // The paper's prices, under which the measured 8 x A100 SXM is a machine to buy.
        const CatalogLoad load = loadPlannerCatalog({},
            { std::string(GPUPLAN_TEST_DATA) + "/data/measured-pythia-1b-8xa100.yaml" },
            kPaperPriceSet);
        QVERIFY2(load.ok(), formatIssues(load.issues).c_str());
        m_catalog = load.catalog;
        const CatalogLoad current = loadCatalog(shippedDataFiles());
        QVERIFY2(current.ok(), formatIssues(current.issues).c_str());
        m_current = current.catalog;
    }

    void optionTableShowsEveryOptionAndComparison()
    {
        const Results main = plan(m_catalog, SourcePolicy::Paper);
        const std::vector<Results> comparisons { plan(m_catalog, SourcePolicy::Measured) };
        OptionTableModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResults(&main, &comparisons);
        QCOMPARE(model.rowCount(), static_cast<int>(main.options.size() + 1));
        QCOMPARE(model.columnCount(), 11);
        QCOMPARE(model.headerData(OptionTableModel::kValidationColumn, Qt::Horizontal).toString(),
            QStringLiteral("Validation error"));
        const int last = model.rowCount() - 1;
        QCOMPARE(model.index(last, 3).data().toString(), QStringLiteral("measured"));
        QCOMPARE(model.index(last, OptionTableModel::kValidationColumn).data().toString(),
            QStringLiteral("1%"));
        QCOMPARE(model.index(last, 0).data(OptionTableModel::OptionIndexRole).toInt(), -1);
        QVERIFY(model.index(last, 0).data(Qt::FontRole).value<QFont>().italic());
        QCOMPARE(model.index(0, 0).data(OptionTableModel::OptionIndexRole).toInt(), 0);
        // A build its chassis cannot power as priced (the paper's 2xH100 desktop, 1,625 W on
        // 1,600 W) has its flags in red, as a time beyond the peak does, and says why.
        constexpr int kFlags = static_cast<int>(gpuplan::views::OptionColumn::Flags);
        bool sawShort = false;
        for (int row = 0; row < static_cast<int>(main.options.size()); ++row) {
            const auto& o = main.options[static_cast<std::size_t>(row)];
            if (o.powerSupplyFit != PowerSupplyFit::Short)
                continue;
            sawShort = true;
            QVERIFY(model.index(row, kFlags).data(Qt::ForegroundRole).isValid());
            QVERIFY(model.index(row, kFlags)
                        .data(Qt::ToolTipRole)
                        .toString()
                        .contains(QStringLiteral("single 1,600 W supply")));
        }
        QVERIFY(sawShort);
        // The GPU column carries each GPU type's colour on the charts, the comparison rows
        // their GPU's too: the key to the points where the legend has no room for it.
        const render::ChartData chart = render::hardwareCostChart(main, {});
        const auto colorOnTheChart = [&chart](const std::string& gpuName) {
            for (const auto& series : chart.series)
                if (series.name == QString::fromStdString(gpuName))
                    return series.color;
            return QColor();
        };
        const auto swatchColor = [&model](int row) {
            const QIcon icon = model.index(row, 0).data(Qt::DecorationRole).value<QIcon>();
            return icon.isNull() ? QColor() : icon.pixmap(12, 12).toImage().pixelColor(6, 6);
        };
        std::set<QRgb> seen;
        for (int row = 0; row < static_cast<int>(main.options.size()); ++row) {
            const QColor expected = colorOnTheChart(main.options[std::size_t(row)].gpu->name);
            QVERIFY(expected.isValid());
            QCOMPARE(swatchColor(row), expected);
            seen.insert(expected.rgb());
        }
        QVERIFY(seen.size() > 1);
        QCOMPARE(swatchColor(last), colorOnTheChart(comparisons.front().options.front().gpu->name));
        QVERIFY(!model.index(0, 1).data(Qt::DecorationRole).isValid()); // the name's column only
        model.setResults(nullptr, nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void optionTableSortsNumerically()
    {
        const Results main = plan(m_catalog, SourcePolicy::Best);
        OptionTableModel model;
        model.setResults(&main, nullptr);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(OptionTableModel::SortRole);
        QAbstractItemModelTester tester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        constexpr int kMachineCost = 4;
        proxy.sort(kMachineCost, Qt::AscendingOrder);
        double previous = -1.0;
        for (int row = 0; row < proxy.rowCount(); ++row) {
            const double cost
                = proxy.index(row, kMachineCost).data(OptionTableModel::SortRole).toDouble();
            QVERIFY(cost >= previous);
            previous = cost;
        }
        // "$1,020" sorts after "$250,000" as text; numerically it is first.
        const auto cheapest = std::min_element(main.options.begin(), main.options.end(),
            [](const auto& a, const auto& b) { return a.machineCostUsd < b.machineCostUsd; });
        QCOMPARE(proxy.index(0, kMachineCost).data(OptionTableModel::SortRole).toDouble(),
            cheapest->machineCostUsd);
    }

    void cloudTablePassesTheTester()
    {
        const Results main = plan(m_catalog, SourcePolicy::Best);
        CloudTableModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResults(&main);
        QCOMPARE(model.rowCount(), static_cast<int>(main.cloud.size()));
        QCOMPARE(model.index(0, 0).data().toString(),
            QString::fromStdString(main.cloud.front().offer->provider));
        QVERIFY(model.index(0, 0)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QString::fromStdString(main.cloud.front().offer->source.date)));
        // A reserved rate's row says what its term costs and whether it pays for this plan.
        int withTerms = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            const auto& c = main.cloud[static_cast<std::size_t>(row)];
            const QString tip = model.index(row, 0).data(Qt::ToolTipRole).toString();
            QCOMPARE(tip.count(QStringLiteral("-yr commitment costs $")),
                static_cast<qsizetype>(c.commitments.size()));
            withTerms += c.commitments.empty() ? 0 : 1;
        }
        QVERIFY(withTerms > 0); // the paper's AWS p4de and Azure A100 offers
        // Numbers right, words left, as in the machines table; flags of a suspect time in red.
        const auto alignment = [&model](int column) {
            return Qt::Alignment(model.index(0, column).data(Qt::TextAlignmentRole).toInt());
        };
        QVERIFY(alignment(static_cast<int>(gpuplan::views::CloudColumn::Provider)) & Qt::AlignLeft);
        QVERIFY(alignment(static_cast<int>(gpuplan::views::CloudColumn::CheapestCost))
            & Qt::AlignRight);
        int red = 0;
        for (int row = 0; row < model.rowCount(); ++row)
            red += model.index(row, static_cast<int>(gpuplan::views::CloudColumn::Flags))
                       .data(Qt::ForegroundRole)
                       .isValid()
                ? 1
                : 0;
        QVERIFY(red > 0); // the paper's RTX 3090 times beyond the peak
    }

    void priceTablesPassTheTester()
    {
        // Systems: only the current prices have them (the paper priced every machine as cards).
        for (PriceTable t : kPriceTables) {
            PriceBook book(t == PriceTable::Systems ? m_current : m_catalog);
            PriceTableModel model(&book, t);
            QAbstractItemModelTester tester(
                &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
            QVERIFY(model.rowCount() > 0);
            QVERIFY(!(model.flags(model.index(0, 0)) & Qt::ItemIsEditable));
            int editable = 0;
            for (int c = 0; c < model.columnCount(); ++c)
                editable += (model.flags(model.index(0, c)) & Qt::ItemIsEditable) ? 1 : 0;
            QVERIFY(editable >= 3); // a value, its date and its source
        }
    }

    // Money reads as elsewhere in the app, and a price column stays right-aligned where a GPU
    // has no price (the current set sells no A100 SXM card: only rented).
    void priceCellsReadAsMoney()
    {
        PriceBook book(m_current);
        PriceTableModel model(&book, PriceTable::Gpus);
        const int sold = gpuRow(book, "rtx-3090");
        const int unsold = gpuRow(book, "a100-80gb-sxm");
        QVERIFY(sold >= 0 && unsold >= 0);
        QCOMPARE(model.index(sold, kGpuPriceColumn).data().toString(), QStringLiteral("$1,070"));
        QCOMPARE(model.index(unsold, kGpuPriceColumn).data().toString(), QStringLiteral("\u2014"));
        for (int row : { sold, unsold })
            QCOMPARE(model.index(row, kGpuPriceColumn).data(Qt::TextAlignmentRole).toInt(),
                int(Qt::AlignRight | Qt::AlignVCenter));
        QCOMPARE(model.index(sold, kGpuSourceColumn).data(Qt::TextAlignmentRole).toInt(),
            int(Qt::AlignLeft | Qt::AlignVCenter));
    }

    void priceEditUndoRedo()
    {
        PriceBook book(m_catalog);
        PriceTableModel model(&book, PriceTable::Gpus);
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy changed(&book, &PriceBook::catalogChanged);
        QSignalSpy modified(&book, &PriceBook::modifiedChanged);
        const int row = gpuRow(book, "a100-80gb-sxm");
        QVERIFY(row >= 0);
        const double before = *book.catalog().gpus[row].priceUsd;
        const auto snapshot = book.snapshot();

        QVERIFY(model.setData(model.index(row, kGpuPriceColumn), QStringLiteral("15000")));
        QCOMPARE(*book.catalog().gpus[row].priceUsd, 15000.0);
        QCOMPARE(*snapshot->gpus[row].priceUsd, before); // handed-out snapshots never change
        QVERIFY(book.isModified());
        QCOMPARE(modified.count(), 1);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.index(row, kGpuPriceColumn).data().toString(), QStringLiteral("$15,000"));

        QVERIFY(model.setData(model.index(row, kGpuDateColumn), QStringLiteral("2026-11")));
        QVERIFY(model.setData(model.index(row, kGpuSourceColumn), QStringLiteral("Vendor quote")));
        QCOMPARE(book.undoStack()->count(), 3);

        book.undoStack()->undo();
        book.undoStack()->undo();
        book.undoStack()->undo();
        QCOMPARE(*book.catalog().gpus[row].priceUsd, before);
        QCOMPARE(
            book.catalog().gpus[row].priceSource.source, snapshot->gpus[row].priceSource.source);
        QVERIFY(!book.isModified());
        book.undoStack()->redo();
        QCOMPARE(*book.catalog().gpus[row].priceUsd, 15000.0);
        QVERIFY(book.isModified());
        book.markSaved();
        QVERIFY(!book.isModified());
    }

    // A price typed over the shipped RTX 5090's street price ($3,059, sourced range
    // $1,999-3,699, a note on its news-blog source) is the new source's figure: the old range
    // and note go (the kind's spread then applies), and undo brings them back with the price.
    // A new source alone drops them too.
    void aNewPriceDropsTheOldSourcesRangeAndNote()
    {
        PriceBook book(m_current);
        const int row = gpuRow(book, "rtx-5090");
        QVERIFY(row >= 0);
        const Provenance shipped = book.catalog().gpus[row].priceSource;
        QCOMPARE(shipped.lowUsd.value_or(0), 1999.0);
        QCOMPARE(shipped.highUsd.value_or(0), 3699.0);
        QVERIFY(!shipped.note.empty());

        QVERIFY(book.edit(PriceTable::Gpus, row, kGpuPriceColumn, 2800).isEmpty());
        const Provenance& edited = book.catalog().gpus[row].priceSource;
        QVERIFY(!edited.lowUsd && !edited.highUsd);
        QVERIFY(edited.note.empty());
        QCOMPARE(edited.source, shipped.source); // the user's to replace: the editor asks for it

        book.undoStack()->undo();
        QCOMPARE(*book.catalog().gpus[row].priceUsd, 3059.0);
        QCOMPARE(book.catalog().gpus[row].priceSource.lowUsd.value_or(0), 1999.0);
        QCOMPARE(book.catalog().gpus[row].priceSource.highUsd.value_or(0), 3699.0);
        QCOMPARE(book.catalog().gpus[row].priceSource.note, shipped.note);

        QVERIFY(
            book.edit(PriceTable::Gpus, row, kGpuSourceColumn, "Quote from vendor X").isEmpty());
        QVERIFY(!book.catalog().gpus[row].priceSource.lowUsd);
        QVERIFY(book.catalog().gpus[row].priceSource.note.empty());
        // The date and the kind are the same figure's: they keep what the source said.
        book.undoStack()->undo();
        QVERIFY(book.edit(PriceTable::Gpus, row, kGpuDateColumn, "2026-12-01").isEmpty());
        QVERIFY(book.edit(PriceTable::Gpus, row, kGpuKindColumn, "quote").isEmpty());
        QCOMPARE(book.catalog().gpus[row].priceSource.lowUsd.value_or(0), 1999.0);
    }

    // The table's editor shows four decimals: Enter on an untouched 27.44705 commits 27.4471,
    // which is no edit (no undo entry, the tables not modified); a change in the fourth decimal
    // is one.
    void anUntouchedEditorChangesNothing()
    {
        auto catalog = std::make_shared<Catalog>(*m_current);
        catalog->cloudOffers.at(0).onDemandUsdPerHour = 27.44705;
        PriceBook book(catalog);
        const auto columns = priceColumns(PriceTable::Cloud);
        int rate = -1;
        for (std::size_t c = 0; c < columns.size(); ++c)
            if (columns[c].kind == CellKind::Rate && rate < 0)
                rate = int(c);
        QVERIFY(rate >= 0);
        QCOMPARE(book.value(PriceTable::Cloud, 0, rate).toDouble(), 27.44705);
        QVERIFY(book.edit(PriceTable::Cloud, 0, rate, 27.4471).isEmpty());
        QCOMPARE(book.undoStack()->count(), 0);
        QVERIFY(!book.isModified());
        QCOMPARE(book.value(PriceTable::Cloud, 0, rate).toDouble(), 27.44705);
        QVERIFY(book.edit(PriceTable::Cloud, 0, rate, 27.4472).isEmpty());
        QCOMPARE(book.undoStack()->count(), 1);
        QVERIFY(book.isModified());
    }

    // Each price shows its kind in words and its age on the plan's day, a stale one in red with
    // the reason; the kind is edited from the loader's words, undoably, and saved.
    void kindAndAgeAreShownAndKindIsEdited()
    {
        PriceBook book(m_current);
        PriceTableModel model(&book, PriceTable::Gpus);
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(
            model.headerData(kGpuKindColumn, Qt::Horizontal).toString(), QStringLiteral("Kind"));
        const int used = gpuRow(book, "rtx-3090"); // resale, 2025-03-04
        const int listed = gpuRow(book, "rtx-pro-6000-blackwell"); // list, 2026-04-06, a range
        const int unsold = gpuRow(book, "a100-80gb-sxm"); // sold in systems only
        QVERIFY(used >= 0 && listed >= 0 && unsold >= 0);

        // No plan day yet: dates as written, nothing marked.
        QCOMPARE(model.index(used, kGpuDateColumn).data().toString(), QStringLiteral("2025-03-04"));
        QVERIFY(!model.index(used, kGpuDateColumn).data(Qt::ForegroundRole).isValid());

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setAgeReference("2026-11-27", 12);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.index(used, kGpuDateColumn).data().toString(),
            QStringLiteral("2025-03-04 (20 mo, stale)"));
        QCOMPARE(model.index(used, kGpuDateColumn).data(Qt::EditRole).toString(),
            QStringLiteral("2025-03-04"));
        QCOMPARE(model.index(used, kGpuDateColumn).data(Qt::ForegroundRole).value<QColor>(),
            QColor(0xb0, 0x00, 0x00));
        QCOMPARE(model.index(used, kGpuDateColumn).data(Qt::ToolTipRole).toString(),
            QStringLiteral("20 months old on 2026-11-27, more than the 12-month limit (assumption "
                           "stale_months): a stale price; check it before budgeting with it."));
        QCOMPARE(model.index(listed, kGpuDateColumn).data().toString(),
            QStringLiteral("2026-04-06 (7 mo)"));
        QVERIFY(!model.index(listed, kGpuDateColumn).data(Qt::ForegroundRole).isValid());
        QCOMPARE(model.index(listed, kGpuDateColumn).data(Qt::ToolTipRole).toString(),
            QStringLiteral("7 months old on 2026-11-27, within the 12-month limit (assumption "
                           "stale_months)."));
        // A GPU without a price of its own has no price age; a price without a date is stale.
        QVERIFY(!model.index(unsold, kGpuDateColumn).data(Qt::ToolTipRole).isValid());
        QVERIFY(book.edit(PriceTable::Gpus, unsold, kGpuPriceColumn, QStringLiteral("25000"))
                    .isEmpty());
        QCOMPARE(model.index(unsold, kGpuDateColumn).data().toString(), QStringLiteral("undated"));
        QVERIFY(
            model.index(unsold, kGpuDateColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .startsWith(QStringLiteral(
                    "Undated: its age on 2026-11-27 is unknown, so it counts as a stale price")));
        book.undoStack()->undo();
        // A longer limit: the same price is no longer stale.
        model.setAgeReference("2026-11-27", 24);
        QVERIFY(!model.index(used, kGpuDateColumn).data(Qt::ForegroundRole).isValid());

        QCOMPARE(
            model.index(used, kGpuKindColumn).data().toString(), QStringLiteral("resale price"));
        QVERIFY(
            model.index(used, kGpuKindColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .startsWith(QStringLiteral("gpuplan assumption: used prices depend on condition")));
        QCOMPARE(model.index(listed, kGpuKindColumn).data(Qt::ToolTipRole).toString(),
            QStringLiteral("The price's range is the table's own: $8,000 to $9,200."));

        QVERIFY(book.edit(PriceTable::Gpus, used, kGpuKindColumn, QStringLiteral("cheap"))
                    .contains(QStringLiteral("must be quote, list, street or resale")));
        QVERIFY(model.setData(model.index(used, kGpuKindColumn), QStringLiteral("quote")));
        QVERIFY(book.catalog().gpus[used].priceSource.kind == PriceKind::Quote);
        QCOMPARE(
            model.index(used, kGpuKindColumn).data().toString(), QStringLiteral("vendor quote"));
        // The kind sets the price's range: a vendor quote's is 10% under to 5% over.
        const Interval quoted = priceRange(1070, book.catalog().gpus[used].priceSource);
        QCOMPARE(quoted.low, 963.0);
        QCOMPARE(quoted.high, 1123.5);
        book.undoStack()->undo();
        QVERIFY(book.catalog().gpus[used].priceSource.kind == PriceKind::Resale);
        QVERIFY(model.setData(model.index(used, kGpuKindColumn), QString()));
        QVERIFY(book.catalog().gpus[used].priceSource.kind == PriceKind::Unstated);
        QCOMPARE(model.index(used, kGpuKindColumn).data().toString(), QStringLiteral("\u2014"));
        QVERIFY(model.setData(model.index(used, kGpuKindColumn), QStringLiteral("street")));

        const CatalogLoad saved = savedAndReloaded(book.catalog());
        QVERIFY2(saved.ok(), formatIssues(saved.issues).c_str());
        QVERIFY(saved.catalog->findGpu("rtx-3090")->priceSource.kind == PriceKind::Street);
    }

    void invalidEditsAreRejectedWithAMessage_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative price")
            << kGpuPriceColumn << QStringLiteral("-5") << QStringLiteral("cannot be negative");
        QTest::newRow("not a number")
            << kGpuPriceColumn << QStringLiteral("cheap") << QStringLiteral("must be a number");
        QTest::newRow("nan") << kGpuPriceColumn << QStringLiteral("nan")
                             << QStringLiteral("must be a number");
        QTest::newRow("bad date") << kGpuDateColumn << QStringLiteral("last week")
                                  << QStringLiteral("YYYY-MM-DD");
        // The loader accepts "undated" only with a note, and this row has none: rejected here
        // with the loader's wording, not later when Save reads the file back.
        QTest::newRow("undated without a note")
            << kGpuDateColumn << QStringLiteral("undated")
            << QStringLiteral("must be YYYY, YYYY-MM or YYYY-MM-DD (or 'undated' with a note), "
                              "not 'undated'");
        QTest::newRow("empty source")
            << kGpuSourceColumn << QStringLiteral("  ") << QStringLiteral("needs a source");
        QTest::newRow("read-only name")
            << 0 << QStringLiteral("My GPU") << QStringLiteral("cannot be edited");
    }

    void invalidEditsAreRejectedWithAMessage()
    {
        QFETCH(int, column);
        QFETCH(QString, value);
        QFETCH(QString, message);
        PriceBook book(m_catalog);
        PriceTableModel model(&book, PriceTable::Gpus);
        QSignalSpy rejected(&model, &PriceTableModel::editRejected);
        const int row = gpuRow(book, "rtx-3090");
        const QVariant before = model.index(row, column).data(Qt::EditRole);
        if (column == 0) {
            QVERIFY(!book.edit(PriceTable::Gpus, row, column, value).isEmpty());
            QVERIFY(book.edit(PriceTable::Gpus, row, column, value).contains(message));
            return;
        }
        QVERIFY(!model.setData(model.index(row, column), value));
        QCOMPARE(rejected.count(), 1);
        QVERIFY2(rejected.front().front().toString().contains(message),
            qPrintable(rejected.front().front().toString()));
        QCOMPARE(model.index(row, column).data(Qt::EditRole), before);
        QCOMPARE(book.undoStack()->count(), 0);
        QVERIFY(!book.isModified());
    }

    void undatedIsAcceptedWhereTheRowHasANote()
    {
        PriceBook book(m_catalog);
        constexpr int kChassisDateColumn = 4;
        int row = -1;
        for (std::size_t i = 0; i < book.catalog().chassis.size(); ++i)
            if (!book.catalog().chassis[i].priceSource.note.empty())
                row = static_cast<int>(i);
        QVERIFY(row >= 0); // the shipped chassis prices carry the paper's rounding notes
        QVERIFY(book.edit(PriceTable::Chassis, row, kChassisDateColumn, QStringLiteral("undated"))
                    .isEmpty());
        QCOMPARE(book.catalog().chassis[row].priceSource.date, std::string("undated"));
        // And Save accepts what the editor accepted.
        const CatalogLoad saved = savedAndReloaded(book.catalog());
        QVERIFY2(saved.ok(), formatIssues(saved.issues).c_str());
    }

    // A price typed into a row that had none is planned with at once, but saved only with its
    // date and source: the message names the row and says what to do (it quoted a line of a
    // file never written).
    void aPriceWithoutDateOrSourceIsNotSaved()
    {
        PriceBook book(std::make_shared<Catalog>(*m_current));
        int row = -1;
        for (std::size_t i = 0; i < book.catalog().gpus.size() && row < 0; ++i)
            if (!book.catalog().gpus[i].priceUsd && book.catalog().gpus[i].priceSource.date.empty())
                row = static_cast<int>(i);
        QVERIFY2(row >= 0, "the tables have a GPU without a price");
        const QString name
            = QString::fromStdString(book.catalog().gpus[static_cast<std::size_t>(row)].name);
        QCOMPARE(
            book.edit(PriceTable::Gpus, row, kGpuPriceColumn, QStringLiteral("25000")), QString());
        QTemporaryDir data;
        qputenv("GPUPLAN_DATA_DIR", data.path().toUtf8());
        QString error;
        QVERIFY(!saveEditedPrices(book.catalog(), &error));
        QCOMPARE(error,
            name
                + QStringLiteral(" has a price without its date and source: give them "
                                 "(double-click the Date and Source cells) before saving."));
        QVERIFY(!QFile::exists(editedPricesPath()));
        QCOMPARE(
            book.edit(PriceTable::Gpus, row, kGpuDateColumn, QStringLiteral("2026-11")), QString());
        QCOMPARE(book.edit(PriceTable::Gpus, row, kGpuSourceColumn, QStringLiteral("a quote")),
            QString());
        QVERIFY2(saveEditedPrices(book.catalog(), &error), qPrintable(error));
        qunsetenv("GPUPLAN_DATA_DIR");
    }

    void cloudOfferKeepsAtLeastOneRate()
    {
        PriceBook book(m_catalog);
        int row = -1;
        for (std::size_t i = 0; i < book.catalog().cloudOffers.size(); ++i) {
            const auto& o = book.catalog().cloudOffers[i];
            if (o.onDemandUsdPerHour && !o.spotUsdPerHour && o.reserved.empty())
                row = static_cast<int>(i);
        }
        QVERIFY(row >= 0);
        constexpr int kOnDemandColumn = 3;
        QVERIFY(book.edit(PriceTable::Cloud, row, kOnDemandColumn, QString())
                    .contains(QStringLiteral("at least one rate")));
        QVERIFY(
            book.edit(PriceTable::Cloud, row, kOnDemandColumn, QStringLiteral("2.5")).isEmpty());
        QCOMPARE(*book.catalog().cloudOffers[row].onDemandUsdPerHour, 2.5);
    }

    // A system is priced whole (GPUs included): its price is required, bounded like any
    // purchase price, undoable, and saved into the user's price file.
    void systemPriceIsEditedAndSaved()
    {
        PriceBook book(m_current);
        PriceTableModel model(&book, PriceTable::Systems);
        constexpr int kPriceColumn = 3;
        constexpr int kSourceColumn = 6;
        QCOMPARE(model.headerData(kPriceColumn, Qt::Horizontal).toString(),
            QStringLiteral("Price with GPUs (USD)"));
        int row = -1;
        for (std::size_t i = 0; i < book.catalog().systems.size(); ++i)
            if (book.catalog().systems[i].id == "hgx-h100-8gpu")
                row = static_cast<int>(i);
        QVERIFY(row >= 0);
        QCOMPARE(model.index(row, 0).data().toString(), QStringLiteral("HGX H100 8-GPU server"));
        // The GPU by the name the other tables give it, not by its id.
        QCOMPARE(model.index(row, 1).data().toString(), QStringLiteral("H100 SXM 80GB"));
        QCOMPARE(model.index(row, 2).data().toInt(), 8);
        QCOMPARE(book.catalog().systems[row].priceUsd, 255237.04);

        QVERIFY(book.edit(PriceTable::Systems, row, kPriceColumn, QString())
                    .contains(QStringLiteral("must be a number")));
        QVERIFY(book.edit(PriceTable::Systems, row, kPriceColumn, QStringLiteral("0"))
                    .contains(QStringLiteral("cannot be 0")));
        QVERIFY(
            book.edit(PriceTable::Systems, row, kPriceColumn, QStringLiteral("289000")).isEmpty());
        QVERIFY(book.edit(PriceTable::Systems, row, kSourceColumn, QStringLiteral("Vendor quote"))
                    .isEmpty());
        QCOMPARE(book.catalog().systems[row].priceUsd, 289000.0);
        QCOMPARE(model.index(row, kPriceColumn).data().toString(), QStringLiteral("$289,000"));
        book.undoStack()->undo();
        book.undoStack()->undo();
        QCOMPARE(book.catalog().systems[row].priceUsd, 255237.04);
        book.undoStack()->redo();
        book.undoStack()->redo();

        const CatalogLoad saved = savedAndReloaded(book.catalog());
        QVERIFY2(saved.ok(), formatIssues(saved.issues).c_str());
        const SystemSpec* hgx = systemFor("h100-80gb-sxm", 8, saved.catalog->systems);
        QVERIFY(hgx);
        QCOMPARE(hgx->priceUsd, 289000.0);
        QCOMPARE(hgx->priceSource.source, std::string("Vendor quote"));
        QCOMPARE(saved.catalog->systems.size(), m_current->systems.size());
    }

    // Every editable column of every table writes back what it reads (the one descriptor
    // table: a column whose set and get disagree would corrupt a saved price file).
    void everyEditableColumnRoundTrips()
    {
        for (const PriceTable table : kPriceTables) {
            PriceBook book(table == PriceTable::Systems ? m_current : m_catalog);
            QVERIFY(book.rowCount(table) > 0);
            for (int column = 0; column < book.columnCount(table); ++column) {
                QVERIFY(!book.header(table, column).isEmpty());
                if (!book.isEditable(table, column))
                    continue;
                const QVariant before = book.value(table, 0, column);
                book.apply(table, 0, column, before);
                QCOMPARE(book.value(table, 0, column), before);
            }
        }
    }

    // Save writes the edits alone, each entry whole: written whole, the tables froze every
    // entry at the day of the save, so a later release's (or import's) price for a GPU never
    // edited lost to it. The file reads back to the tables edited, and saving again after an
    // undo leaves nothing but the other edit.
    void saveWritesTheEditsAlone()
    {
        PriceBook book(m_current);
        const int row = gpuRow(book, "rtx-3090");
        QVERIFY(row >= 0);
        QVERIFY(book.edit(PriceTable::Gpus, row, kGpuPriceColumn, QStringLiteral("777")).isEmpty());
        QVERIFY(book.edit(PriceTable::Gpus, row, kGpuSourceColumn, QStringLiteral("a quote"))
                    .isEmpty());
        QVERIFY(book.edit(PriceTable::Electricity, 1, 1, QStringLiteral("1.3")).isEmpty());
        QTemporaryDir data;
        qputenv("GPUPLAN_DATA_DIR", data.path().toUtf8());
        const auto unset = qScopeGuard([] { qunsetenv("GPUPLAN_DATA_DIR"); });
        QString error;
        QVERIFY2(saveEditedPrices(book.catalog(), &error), qPrintable(error));
        QFile file(editedPricesPath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        file.close();
        QCOMPARE(text.count(QStringLiteral("- id: ")), 1);
        QVERIFY2(text.contains(QStringLiteral("- id: rtx-3090")), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("chassis:")) && !text.contains("cloud_offers:"));
        QVERIFY(text.contains(QStringLiteral("pue:")));
        QVERIFY(!text.contains(QStringLiteral("electricity_usd_per_kwh:")));
        const CatalogLoad saved
            = loadCatalogWithUserFiles({ editedPricesPath().toStdString() }, m_current->priceSet);
        QVERIFY2(saved.ok(), formatIssues(saved.issues).c_str());
        QVERIFY(priceEntriesThatDiffer(*saved.catalog, book.catalog()).empty());
        QCOMPARE(*saved.catalog->findGpu("rtx-3090")->priceUsd, 777.0);
        QCOMPARE(saved.catalog->defaults.pue, 1.3);
        // The shipped tables and the edited ones differ in those two only.
        QCOMPARE(priceEntriesThatDiffer(*m_current, book.catalog()),
            (std::vector<std::string> { "rtx-3090", "pue" }));

        book.undoStack()->undo(); // the PUE
        QVERIFY2(saveEditedPrices(book.catalog(), &error), qPrintable(error));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString again = QString::fromUtf8(file.readAll());
        QVERIFY2(!again.contains(QStringLiteral("assumptions:")), qPrintable(again));
        QCOMPARE(again.count(QStringLiteral("- id: ")), 1);
        file.close();
        // Every edit undone: no file, which the loader would refuse as holding no table (the
        // save had been refused, and the undone edit kept on disk).
        book.undoStack()->undo();
        book.undoStack()->undo();
        QVERIFY(priceEntriesThatDiffer(*m_current, book.catalog()).empty());
        QVERIFY2(saveEditedPrices(book.catalog(), &error), qPrintable(error));
        QVERIFY(!QFile::exists(editedPricesPath()));
    }

    // What Electricity table edits do to the scenario (app/gui/carried_defaults.h): the edit is
    // carried; its undo gives back the scenario's own figure; a reload or another scenario
    // leaves nothing to give back.
    void carriedDefaultsGiveBackOnlyWhatAnEditReplaced()
    {
        Assumptions table;
        table.electricityUsdPerKwh = 0.13;
        table.source(AssumptionId::ElectricityUsdPerKwh).source = "EIA";
        Assumptions edited = table;
        edited.electricityUsdPerKwh = 0.3;
        Assumptions own = table;
        chooseAssumptionValue(own, AssumptionId::ElectricityUsdPerKwh, 0.25);

        CarriedDefaults carried;
        Assumptions scenario = carried.carry(own, table, edited);
        QCOMPARE(scenario.electricityUsdPerKwh, 0.3);
        QCOMPARE(scenario.source(AssumptionId::ElectricityUsdPerKwh).source, std::string("EIA"));
        scenario = carried.carry(scenario, edited, table); // undo
        QCOMPARE(scenario.electricityUsdPerKwh, 0.25);
        QCOMPARE(
            scenario.source(AssumptionId::ElectricityUsdPerKwh).source, std::string(kUserSupplied));
        QCOMPARE(scenario.pue, own.pue); // the other figure untouched

        // Another scenario opened between the edit and its undo follows the table back.
        scenario = carried.carry(own, table, edited);
        carried.scenarioReplaced();
        Assumptions next = edited; // a new scenario starts from the edited defaults
        next = carried.carry(next, edited, table);
        QCOMPARE(next.electricityUsdPerKwh, 0.13);

        // A reload that moves the default sets nothing aside: a later edit to the old default
        // is an edit, not the reload undone.
        Assumptions imported = table;
        imported.electricityUsdPerKwh = 0.2;
        carried.tablesReloaded();
        scenario = carried.carry(own, table, imported);
        QCOMPARE(scenario.electricityUsdPerKwh, 0.2);
        scenario = carried.carry(scenario, imported, table);
        QCOMPARE(scenario.electricityUsdPerKwh, 0.13);
    }

    // The editor's bounds are the loader's (core/limits.h, the assumption table).
    void boundsAreTheLoaders_data()
    {
        QTest::addColumn<int>("table");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("accepted");
        const int gpus = static_cast<int>(PriceTable::Gpus);
        const int electricity = static_cast<int>(PriceTable::Electricity);
        QTest::newRow("price at the bound") << gpus << kGpuPriceColumn << "1e8" << true;
        QTest::newRow("price above the bound") << gpus << kGpuPriceColumn << "1.1e8" << false;
        QTest::newRow("price of 0") << gpus << kGpuPriceColumn << "0" << false;
        // Row 0 is the electricity price (0 to 10 USD/kWh), row 1 the PUE (1 to 5).
        QTest::newRow("electricity 0") << electricity << 1 << "0" << true;
        QTest::newRow("electricity 10.5") << electricity << 1 << "10.5" << false;
    }
    void boundsAreTheLoaders()
    {
        QFETCH(int, table);
        QFETCH(int, column);
        QFETCH(QString, value);
        QFETCH(bool, accepted);
        PriceBook book(m_catalog);
        QCOMPARE(book.edit(static_cast<PriceTable>(table), 0, column, value).isEmpty(), accepted);
    }

    void pueBoundsAreTheAssumptionTables()
    {
        PriceBook book(m_catalog);
        QVERIFY(book.edit(PriceTable::Electricity, 1, 1, QStringLiteral("4.5")).isEmpty());
        QCOMPARE(book.catalog().defaults.pue, 4.5);
        QVERIFY(book.edit(PriceTable::Electricity, 1, 1, QStringLiteral("5.5"))
                    .contains(QStringLiteral("between 1 and 5")));
    }

    // A sub-cent tariff is shown as saved (it read "0.14" for 0.137).
    void anElectricityPriceShowsEveryDecimal()
    {
        PriceBook book(m_catalog);
        QVERIFY(book.edit(PriceTable::Electricity, 0, 1, 0.137).isEmpty());
        PriceTableModel model(&book, PriceTable::Electricity);
        QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("0.137"));
        QCOMPARE(model.index(0, 1).data(Qt::EditRole).toDouble(), 0.137);
    }

    void takingMeasurementsKeepsPriceEdits()
    {
        PriceBook book(loadCatalog(shippedDataFiles()).catalog);
        const int row = gpuRow(book, "rtx-3090");
        QVERIFY(book.edit(PriceTable::Gpus, row, kGpuPriceColumn, QStringLiteral("999")).isEmpty());
        QVERIFY(book.catalog().measured.empty());
        book.takeMeasurements(*m_catalog);
        QCOMPARE(book.catalog().measured.size(), m_catalog->measured.size());
        QCOMPARE(*book.catalog().gpus[row].priceUsd, 999.0);
        QVERIFY(book.isModified());
    }
};

QTEST_MAIN(TestGuiModels)
#include "tst_gui_models.moc"

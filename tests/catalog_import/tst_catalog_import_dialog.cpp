// The GUI's cloud-catalog import (offscreen): the preview models under QAbstractItemModelTester,
// the dialog's options and its background preview, and the flow from Price tables: unsaved
// edits asked about first, nothing written on Cancel, a new user file on Import (never over an
// earlier one), and the tables reloaded with the offers.

#include "app/common/user_data.h"
#include "app/gui/catalog_import_dialog.h"
#include "app/gui/main_window.h"
#include "app/gui/price_book.h"
#include "app/gui/user_files.h"
#include "pricing/catalog_import/catalog_file.h"

#include "tests/support/golden.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDateEdit>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace gpuplan;
using namespace gpuplan::gui;
using Kind = ImportPreviewModel::Kind;

namespace {

const QString kData = QStringLiteral(GPUPLAN_TEST_DATA "/data");

QString excerpt(const QString& name)
{
    return kData + QLatin1Char('/') + name + QStringLiteral("/input.csv");
}

std::shared_ptr<const std::string> textOf(const QString& path)
{
    return std::make_shared<const std::string>(testing::readAll(path).toStdString());
}

std::set<std::string> shippedGpuIds()
{
    const CatalogLoad load = loadCatalog(shippedDataFiles());
    std::set<std::string> ids;
    for (const auto& gpu : load.catalog->gpus)
        ids.insert(gpu.id);
    return ids;
}

// Waits for the first preview `spy` (on previewShown) sees.
bool waitForPreview(QSignalSpy& spy)
{
    return spy.count() > 0 || spy.wait(10000);
}

QStringList column(QAbstractItemModel* model, int c)
{
    QStringList values;
    for (int row = 0; row < model->rowCount(); ++row)
        values << model->index(row, c).data().toString();
    return values;
}

// Drives the modal dialogs that come up next, as a user would: answers message boxes with
// `boxAnswers` in order, and sets the import dialog's provider and date, waits for its preview
// and presses Import (or Cancel).
class DialogDriver : public QObject {
public:
    DialogDriver(QList<QMessageBox::StandardButton> boxAnswers, bool import)
        : m_boxAnswers(std::move(boxAnswers))
        , m_import(import)
    {
        connect(&m_poll, &QTimer::timeout, this, &DialogDriver::step);
        m_poll.start(10);
    }
    int dialogsSeen = 0;
    QStringList boxTexts;

private:
    void step()
    {
        QWidget* modal = QApplication::activeModalWidget();
        if (auto* box = qobject_cast<QMessageBox*>(modal); box && !m_boxAnswers.isEmpty()) {
            boxTexts << box->text();
            box->button(m_boxAnswers.takeFirst())->click();
            return;
        }
        auto* dialog = qobject_cast<CatalogImportDialog*>(modal);
        if (!dialog)
            return;
        if (m_dialog != dialog) {
            m_dialog = dialog;
            ++dialogsSeen;
            dialog->providerEdit()->setText(QStringLiteral("Lambda"));
            dialog->dateEdit()->setDate(QDate(2025, 6, 30));
            if (!m_import)
                dialog->reject();
            return;
        }
        if (dialog->canImport())
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
    }

    QList<QMessageBox::StandardButton> m_boxAnswers;
    bool m_import;
    CatalogImportDialog* m_dialog = nullptr;
    QTimer m_poll;
};

} // namespace

class TestCatalogImportDialog : public QObject {
    Q_OBJECT

    QTemporaryDir m_data;
    QTemporaryDir m_settings;

private slots:
    void initTestCase()
    {
        QVERIFY(m_data.isValid() && m_settings.isValid());
        qputenv("GPUPLAN_DATA_DIR", m_data.path().toUtf8());
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
        QCoreApplication::setOrganizationDomain(QStringLiteral("test.gpuplan.org"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_catalog_import_dialog"));
    }

    void init() { QDir(m_data.path() + QStringLiteral("/prices")).removeRecursively(); }

    void previewModelsPassTheModelTester()
    {
        const QString path = excerpt(QStringLiteral("skypilot-v8-lambda"));
        CatalogImportDialog dialog(path, textOf(path), shippedGpuIds());
        QSignalSpy shown(&dialog, &CatalogImportDialog::previewShown);
        for (Kind kind : { Kind::Offers, Kind::Dropped, Kind::Adjusted })
            new QAbstractItemModelTester(dialog.model(kind),
                QAbstractItemModelTester::FailureReportingMode::QtTest, &dialog);
        dialog.providerEdit()->setText(QStringLiteral("Lambda"));
        QVERIFY(waitForPreview(shown));
        QTRY_VERIFY2(dialog.canImport(), qPrintable(dialog.summaryText()));
        QAbstractItemModel* offers = dialog.model(Kind::Offers);
        QVERIFY(offers->rowCount() > 0);
        QCOMPARE(offers->headerData(0, Qt::Horizontal).toString(), QStringLiteral("Id"));
        QVERIFY(column(offers, 0).contains(QStringLiteral("lambda-gpu_1x_h100_pcie-us-east-1")));
        QCOMPARE(offers->rowCount(), static_cast<int>(dialog.preview()->offers.size()));
        // Every dropped row with its line and reason; B200 is not in the shipped GPU tables
        // (yet), so it is reported as such, not guessed.
        QAbstractItemModel* dropped = dialog.model(Kind::Dropped);
        QCOMPARE(dropped->headerData(4, Qt::Horizontal).toString(), QStringLiteral("Reason"));
        QVERIFY(column(dropped, 4).contains(QStringLiteral("CPU only (no GPU)")));
        QVERIFY(column(dropped, 0).contains(QStringLiteral("12"))); // A10
        QVERIFY(dialog.summaryText().contains(QStringLiteral("25 rows read")));
        QVERIFY(dialog.summaryText().contains(QStringLiteral("GH200")));
    }

    void regionsAndAggregatesChangeThePreview()
    {
        const QString path = excerpt(QStringLiteral("skypilot-v8-lambda"));
        CatalogImportDialog dialog(path, textOf(path), shippedGpuIds());
        dialog.providerEdit()->setText(QStringLiteral("Lambda"));
        QTRY_VERIFY(dialog.canImport());
        const int everyRegion = dialog.model(Kind::Offers)->rowCount();
        // The file's regions are offered, after every/cheapest/median and a separator.
        QComboBox* regions = dialog.regionBox();
        QCOMPARE(regions->itemText(4), QStringLiteral("us-east-1")); // the first GPU row's
        QVERIFY(regions->findText(QStringLiteral("europe-central-1")) > 4);

        regions->setCurrentIndex(regions->findText(QStringLiteral("us-east-1")));
        QTRY_VERIFY(dialog.canImport());
        QCOMPARE(dialog.options().region, std::string("us-east-1"));
        const int oneRegion = dialog.model(Kind::Offers)->rowCount();
        QVERIFY(oneRegion < everyRegion);
        for (const QString& region : column(dialog.model(Kind::Offers), 4))
            QCOMPARE(region, QStringLiteral("us-east-1"));

        regions->setCurrentIndex(1); // the cheapest of all regions
        QTRY_VERIFY(dialog.canImport());
        QVERIFY(dialog.options().aggregate == catalog_import::RegionAggregate::Cheapest);
        for (const QString& region : column(dialog.model(Kind::Offers), 4))
            QVERIFY(region.isEmpty());
        QVERIFY(QString::fromStdString(dialog.yamlText())
                    .contains(QStringLiteral("the cheapest of its regions")));
        QCOMPARE(dialog.fileName(),
            QStringLiteral("lambda-input-cheapest-")
                + dialog.dateEdit()->date().toString(Qt::ISODate) + QStringLiteral(".yaml"));
    }

    void badOptionsAndBadFilesCannotBeImported()
    {
        const QString path = excerpt(QStringLiteral("skypilot-v8-lambda"));
        CatalogImportDialog dialog(path, textOf(path), shippedGpuIds());
        dialog.providerEdit()->setText(QStringLiteral("Lambda"));
        QTRY_VERIFY(dialog.canImport());
        dialog.providerEdit()->clear();
        QVERIFY(!dialog.canImport());
        QVERIFY(dialog.summaryText().contains(QStringLiteral("provider name")));
        dialog.providerEdit()->setText(QStringLiteral("Lambda"));
        QTRY_VERIFY(dialog.canImport());
        dialog.formatBox()->setCurrentIndex(1); // gpuhunt: the wrong format
        QTRY_VERIFY(
            dialog.summaryText().contains(QStringLiteral("import it with --from skypilot")));
        QVERIFY(!dialog.canImport());

        const QString bad = excerpt(QStringLiteral("bad-ragged-row"));
        CatalogImportDialog ragged(bad, textOf(bad), shippedGpuIds());
        QTRY_VERIFY(ragged.summaryText().contains(
            QStringLiteral("input.csv:3: error: row has 10 fields, the header 9")));
        QVERIFY(!ragged.canImport());
        QCOMPARE(ragged.model(Kind::Offers)->rowCount(), 0);
    }

    // A preview made for options that changed while it ran is dropped, not shown.
    void stalePreviewsAreDropped()
    {
        const QString path = excerpt(QStringLiteral("skypilot-v8-lambda"));
        CatalogImportDialog dialog(path, textOf(path), shippedGpuIds());
        QSignalSpy shown(&dialog, &CatalogImportDialog::previewShown);
        dialog.providerEdit()->setText(QStringLiteral("L"));
        dialog.providerEdit()->setText(QStringLiteral("La"));
        dialog.providerEdit()->setText(QStringLiteral("Lambda"));
        QTRY_VERIFY(dialog.canImport());
        QTest::qWait(100); // let any older preview arrive
        QCOMPARE(shown.count(), 1);
        QVERIFY(dialog.preview()->offers.front().offer.id.starts_with("lambda-"));
    }

    void importWritesANewFileAndReloads()
    {
        MainWindow w(loadUserCatalog().catalog);
        w.show();
        const QString path = excerpt(QStringLiteral("skypilot-v8-lambda"));
        QString error;
        {
            DialogDriver cancel({}, /*import=*/false);
            QVERIFY(!w.importCatalog(path, &error));
            QVERIFY(error.isEmpty());
            QCOMPARE(cancel.dialogsSeen, 1);
            QVERIFY(views::userPriceFiles(currentPriceSet()).isEmpty());
        }
        {
            DialogDriver import({}, /*import=*/true);
            QVERIFY2(w.importCatalog(path, &error), qPrintable(error));
            QCOMPARE(import.dialogsSeen, 1);
        }
        const QStringList files = views::userPriceFiles(currentPriceSet());
        QCOMPARE(files.size(), qsizetype { 1 });
        QCOMPARE(
            QFileInfo(files.front()).fileName(), QStringLiteral("lambda-input-2025-06-30.yaml"));
        const CloudOffer* offer
            = w.priceBook()->catalog().findCloudOffer("lambda-gpu_1x_h100_pcie-us-east-1");
        QVERIFY(offer);
        QCOMPARE(offer->gpuId, std::string("h100-80gb-pcie"));
        QCOMPARE(*offer->onDemandUsdPerHour, 3.29);
        QCOMPARE(offer->source.date, std::string("2025-06-30"));

        // Again: a second file beside the first, which is left as it was.
        const QByteArray first = testing::readAll(files.front());
        {
            DialogDriver import({}, /*import=*/true);
            QVERIFY2(w.importCatalog(path, &error), qPrintable(error));
        }
        QCOMPARE(views::userPriceFiles(currentPriceSet()).size(), qsizetype { 2 });
        QCOMPARE(testing::readAll(files.front()), first);
    }

    void unsavedEditsAreAskedAboutFirst()
    {
        MainWindow w(loadUserCatalog().catalog);
        w.show();
        QVERIFY(w.priceBook()->edit(PriceTable::Gpus, 0, 1, QStringLiteral("9999")).isEmpty());
        QVERIFY(w.priceBook()->isModified());
        const QString path = excerpt(QStringLiteral("skypilot-v8-lambda"));
        QString error;
        {
            DialogDriver cancel({ QMessageBox::Cancel }, /*import=*/true);
            QVERIFY(!w.importCatalog(path, &error));
            QVERIFY(error.isEmpty());
            QCOMPARE(cancel.boxTexts.size(), 1);
            QCOMPARE(cancel.dialogsSeen, 0); // the preview is never opened
            QVERIFY(w.priceBook()->isModified());
        }
        DialogDriver discard({ QMessageBox::Discard }, /*import=*/true);
        QVERIFY2(w.importCatalog(path, &error), qPrintable(error));
        QVERIFY(!w.priceBook()->isModified());
        QCOMPARE(views::userPriceFiles(currentPriceSet()).size(), qsizetype { 1 });
    }

    void unreadableFileIsReportedWithoutADialog()
    {
        MainWindow w(loadUserCatalog().catalog);
        QString error;
        DialogDriver none({}, /*import=*/true);
        QVERIFY(!w.importCatalog(QStringLiteral("/nonexistent/vms.csv"), &error));
        QCOMPARE(error,
            QStringLiteral("/nonexistent/vms.csv: error: cannot open the file: it does not exist"));
        QCOMPARE(none.dialogsSeen, 0);
    }

    void priceTablesViewHasTheButton()
    {
        MainWindow w(loadUserCatalog().catalog);
        QVERIFY(w.findChild<QPushButton*>(QStringLiteral("importCatalog")));
    }
};

QTEST_MAIN(TestCatalogImportDialog)
#include "tst_catalog_import_dialog.moc"

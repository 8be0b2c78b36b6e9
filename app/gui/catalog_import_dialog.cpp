#include "app/gui/catalog_import_dialog.h"

#include "pricing/catalog_import/imported_table.h"

#include <QComboBox>
#include <QDateEdit>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace gpuplan::gui {

namespace {

using namespace catalog_import;

// The region box's first entries; the file's regions follow, each as itself.
enum RegionChoice { EveryRegion, CheapestRegion, MedianRegion, FirstRegion };

// SkyPilot keeps one catalog per cloud as catalogs/<version>/<cloud>/vms.csv: the folder names
// the provider; other files are named after it.
QString guessProvider(const QString& path)
{
    const QFileInfo info(path);
    if (info.fileName() == QLatin1String("vms.csv"))
        return info.dir().dirName();
    return info.completeBaseName();
}

QTableView* tableFor(ImportPreviewModel* model, const QString& name)
{
    auto* view = new QTableView;
    view->setObjectName(name);
    view->setModel(model);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setWordWrap(false);
    view->setTabKeyNavigation(false); // Tab goes on to the dialog's buttons
    return view;
}

} // namespace

CatalogImportDialog::CatalogImportDialog(const QString& path,
    std::shared_ptr<const std::string> text, std::set<std::string> knownGpuIds, QWidget* parent)
    : QDialog(parent)
    , m_path(path)
    , m_text(std::move(text))
    , m_knownGpuIds(std::move(knownGpuIds))
{
    setWindowTitle(tr("Import cloud catalog"));
    m_format = new QComboBox;
    m_format->setObjectName(QStringLiteral("catalogFormat"));
    m_format->addItem(tr("SkyPilot vms.csv"), static_cast<int>(CatalogFormat::SkyPilot));
    m_format->addItem(tr("dstack gpuhunt CSV"), static_cast<int>(CatalogFormat::Gpuhunt));
    m_provider = new QLineEdit(guessProvider(path));
    m_provider->setObjectName(QStringLiteral("catalogProvider"));
    m_date = new QDateEdit(QFileInfo(path).lastModified().date());
    m_date->setObjectName(QStringLiteral("catalogDate"));
    m_date->setCalendarPopup(true);
    m_date->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
    m_date->setToolTip(tr("When the catalog's prices were collected. Catalogs do not say; the "
                          "file's date is only a first guess. Every offer carries this date."));
    m_regions = new QComboBox;
    m_regions->setObjectName(QStringLiteral("catalogRegions"));
    m_regions->addItem(tr("Every region (one offer each)"));
    m_regions->addItem(tr("All regions: the cheapest rate"));
    m_regions->addItem(tr("All regions: the median rate"));

    auto* form = new QFormLayout;
    form->addRow(tr("File"), new QLabel(QDir::toNativeSeparators(path)));
    form->addRow(tr("Format"), m_format);
    form->addRow(tr("Provider"), m_provider);
    form->addRow(tr("Prices as of"), m_date);
    form->addRow(tr("Regions"), m_regions);

    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("catalogSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problems = new QLabel;
    m_problems->setObjectName(QStringLiteral("catalogProblems"));
    m_problems->setWordWrap(true);
    m_problems->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problems->setStyleSheet(QStringLiteral("color: #b00000"));

    m_offers = new ImportPreviewModel(ImportPreviewModel::Kind::Offers, this);
    m_dropped = new ImportPreviewModel(ImportPreviewModel::Kind::Dropped, this);
    m_adjusted = new ImportPreviewModel(ImportPreviewModel::Kind::Adjusted, this);
    m_tabs = new QTabWidget;
    m_tabs->addTab(tableFor(m_offers, QStringLiteral("previewOffers")), tr("Offers to import"));
    m_tabs->addTab(tableFor(m_dropped, QStringLiteral("previewDropped")), tr("Dropped rows"));
    m_tabs->addTab(tableFor(m_adjusted, QStringLiteral("previewAdjusted")), tr("Rates left out"));

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        if (canImport())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(m_problems);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_buttons);
    resize(1100, 650);

    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        m_regionsFilled = false; // the other format reads other regions
        schedulePreview();
    });
    connect(m_provider, &QLineEdit::textChanged, this, &CatalogImportDialog::schedulePreview);
    connect(m_date, &QDateEdit::dateChanged, this, &CatalogImportDialog::schedulePreview);
    connect(
        m_regions, &QComboBox::currentIndexChanged, this, &CatalogImportDialog::schedulePreview);
    schedulePreview();
}

ImportPreviewModel* CatalogImportDialog::model(ImportPreviewModel::Kind kind) const
{
    switch (kind) {
    case ImportPreviewModel::Kind::Offers:
        return m_offers;
    case ImportPreviewModel::Kind::Dropped:
        return m_dropped;
    case ImportPreviewModel::Kind::Adjusted:
        break;
    }
    return m_adjusted;
}

ImportOptions CatalogImportDialog::options() const
{
    ImportOptions o;
    o.format = static_cast<CatalogFormat>(m_format->currentData().toInt());
    o.provider = m_provider->text().trimmed().toStdString();
    o.date = m_date->date().toString(Qt::ISODate).toStdString();
    const int choice = m_regions->currentIndex();
    if (choice == CheapestRegion)
        o.aggregate = RegionAggregate::Cheapest;
    else if (choice == MedianRegion)
        o.aggregate = RegionAggregate::Median;
    else if (choice >= FirstRegion)
        o.region = m_regions->currentText().toStdString();
    return o;
}

QString CatalogImportDialog::summaryText() const
{
    return m_summary->text() + QLatin1Char('\n') + m_problems->text();
}

bool CatalogImportDialog::canImport() const
{
    return m_preview && m_shownGeneration == m_generation && m_preview->ok()
        && !checkImportSize(*m_preview, yamlText());
}

std::string CatalogImportDialog::yamlText() const
{
    if (!m_preview)
        return {};
    return writeImportedTable(*m_preview, options(), QFileInfo(m_path).fileName().toStdString());
}

QString CatalogImportDialog::fileName() const
{
    return QString::fromStdString(
        importedFileName(options(), QFileInfo(m_path).fileName().toStdString()));
}

void CatalogImportDialog::schedulePreview()
{
    const int generation = ++m_generation;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    const ImportOptions o = options();
    if (const auto wrong
        = checkOptions(o, QDate::currentDate().toString(Qt::ISODate).toStdString())) {
        m_summary->clear();
        m_problems->setText(QString::fromStdString(*wrong));
        return;
    }
    m_summary->setText(tr("Reading the catalog…"));
    m_problems->clear();
    auto* watcher = new QFutureWatcher<std::shared_ptr<const CatalogImport>>(this);
    connect(watcher, &QFutureWatcher<std::shared_ptr<const CatalogImport>>::finished, this,
        [this, watcher, generation] {
            showPreview(watcher->result(), generation);
            watcher->deleteLater();
        });
    const std::string fileName = QFileInfo(m_path).fileName().toStdString();
    watcher->setFuture(QtConcurrent::run([text = m_text, o, fileName, known = m_knownGpuIds] {
        const ImportTables tables { GpuAliasTable::shipped(), GcpHostVmTable::shipped(), known };
        return std::make_shared<const CatalogImport>(importCatalog(*text, fileName, o, tables));
    }));
}

void CatalogImportDialog::fillRegions(const std::vector<std::string>& regions)
{
    const QSignalBlocker blocker(m_regions);
    while (m_regions->count() > FirstRegion)
        m_regions->removeItem(FirstRegion);
    if (!regions.empty())
        m_regions->insertSeparator(FirstRegion);
    for (const auto& region : regions)
        m_regions->addItem(QString::fromStdString(region));
    m_regionsFilled = true;
}

void CatalogImportDialog::showPreview(std::shared_ptr<const CatalogImport> result, int generation)
{
    if (generation != m_generation)
        return; // made for options that have changed since
    if (!m_regionsFilled && options().region.empty())
        fillRegions(result->regions);
    m_preview = std::move(result);
    m_shownGeneration = generation;
    for (auto* model : { m_offers, m_dropped, m_adjusted })
        model->setImport(m_preview);
    const ImportSummary& s = m_preview->summary;
    m_tabs->setTabText(0, tr("Offers to import (%1)").arg(m_preview->offers.size()));
    m_tabs->setTabText(1, tr("Dropped rows (%1)").arg(s.dropped.size()));
    m_tabs->setTabText(2, tr("Rates left out (%1)").arg(s.adjusted.size()));

    QStringList problems;
    for (const auto& issue : m_preview->issues)
        problems << QString::fromStdString(issue.toString());
    if (m_preview->ok()) {
        m_summary->setText(QString::fromStdString(formatSummary(s, m_preview->offers.size()))
                               .section(QLatin1Char('\n'), 0, 0));
        QStringList unmapped;
        for (const auto& u : s.unmapped)
            unmapped << QString::fromStdString(u.name);
        if (!unmapped.isEmpty())
            m_summary->setText(m_summary->text() + QLatin1Char('\n')
                + tr("GPUs not mapped to a gpuplan GPU (never guessed): %1")
                      .arg(unmapped.join(QStringLiteral(", "))));
        if (const auto notWritable = checkImportSize(*m_preview, yamlText()))
            problems << QString::fromStdString(*notWritable);
    } else {
        m_summary->setText(tr("This file is not a well-formed catalog: nothing can be imported."));
    }
    m_problems->setText(problems.join(QLatin1Char('\n')));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(canImport());
    emit previewShown();
}

} // namespace gpuplan::gui

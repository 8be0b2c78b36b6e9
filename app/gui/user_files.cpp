#include "app/gui/user_files.h"

#include "app/common/format.h"
#include "app/common/saved_file.h"
#include "app/common/unique_file_store.h"
#include "app/common/user_data.h"
#include "app/gui/price_columns.h"
#include "pricing/catalog_import/imported_table.h"
#include "pricing/measured_results.h"
#include "pricing/scenario/price_table_writer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>

#include <algorithm>
#include <iterator>

namespace gpuplan::gui {

namespace {

const QString kPriceSetKey = QStringLiteral("prices/priceSet");

std::vector<std::string> toStd(const QStringList& list)
{
    std::vector<std::string> out;
    for (const auto& s : list)
        out.push_back(s.toStdString());
    return out;
}

// Copies `from` into `dir` under its own name, or that name with "-2", "-3", ... where an earlier
// import already has it: two servers' results.yaml are both kept.
bool copyInto(const QString& from, const QString& dir, QString* error)
{
    QString name = QFileInfo(from).fileName();
    if (!name.endsWith(QLatin1String(".yaml")) && !name.endsWith(QLatin1String(".yml")))
        name += QStringLiteral(".yaml"); // the loaders only pick up YAML files
    const views::StoredFile stored = views::storeUniqueCopy(from, dir, name);
    if (stored.path.isEmpty()) {
        *error = stored.error;
        return false;
    }
    return true;
}

} // namespace

QString issueText(const std::vector<LoadIssue>& issues)
{
    return QString::fromStdString(formatIssues(issues)).trimmed();
}

QString currentPriceSet()
{
    const QString stored = QSettings().value(kPriceSetKey).toString();
    return isPriceSet(stored.toStdString()) ? stored
                                            : QString::fromStdString(std::string(kDefaultPriceSet));
}

void setCurrentPriceSet(const QString& priceSet)
{
    QSettings().setValue(kPriceSetKey, priceSet);
}

QString editedPricesPath()
{
    return editedPricesPath(currentPriceSet());
}

QString editedPricesPath(const QString& priceSet)
{
    return views::userDataDir() + QStringLiteral("/prices/") + priceSet
        + QStringLiteral("/edited-prices.yaml");
}

CatalogLoad loadUserCatalog()
{
    const QString set = currentPriceSet();
    return loadPlannerCatalog(
        toStd(views::userPriceFiles(set)), toStd(views::userResultFiles()), set.toStdString());
}

namespace {

// Rows with a price but no date or source: a price typed into a row that had none (an H100 SXM
// card in the current tables) re-plots at once, but the loader refuses it without both, and
// said so at a line of a file never written, quoting an 'undated' the user never typed.
QStringList pricesWithoutDateOrSource(const Catalog& catalog)
{
    QStringList rows;
    for (const PriceTable table :
        { PriceTable::Gpus, PriceTable::Chassis, PriceTable::Systems, PriceTable::Cloud }) {
        const auto columns = priceColumns(table);
        for (int row = 0; row < priceRowCount(catalog, table); ++row) {
            const auto at = static_cast<std::size_t>(row);
            bool priced = false;
            bool dated = true;
            bool sourced = true;
            for (const PriceColumn& column : columns) {
                const QVariant v = column.get(catalog, at);
                if (column.kind == CellKind::Price || column.kind == CellKind::Rate)
                    priced = priced || !v.isNull();
                else if (column.kind == CellKind::Date)
                    dated = !v.toString().isEmpty();
                else if (column.kind == CellKind::Source)
                    sourced = !v.toString().trimmed().isEmpty();
            }
            if (priced && (!dated || !sourced))
                // A cloud offer by provider and instance ("AWS" alone named several).
                rows << (table == PriceTable::Cloud
                        ? QStringLiteral("%1 %2").arg(columns[0].get(catalog, at).toString(),
                            columns[1].get(catalog, at).toString())
                        : columns.front().get(catalog, at).toString());
        }
    }
    return rows;
}

} // namespace

bool saveEditedPrices(const Catalog& catalog, QString* error)
{
    if (const QStringList rows = pricesWithoutDateOrSource(catalog); !rows.isEmpty()) {
        *error
            = QStringLiteral("%1 %2 a price without its date and source: give them (double-click "
                             "the Date and Source cells) before saving.")
                  .arg(views::listedWithAnd(rows),
                      rows.size() == 1 ? QStringLiteral("has") : QStringLiteral("have"));
        return false;
    }
    // One price set for all three: the tables' own (the current one, as the window loads them),
    // whose shipped files, imports and edited file lie beneath and beside each other.
    const QString set
        = catalog.priceSet.empty() ? currentPriceSet() : QString::fromStdString(catalog.priceSet);
    const QString path = editedPricesPath(set);
    // The edits alone, over what lies beneath the file (the shipped tables, then the imported
    // ones): written whole, every entry never touched had been frozen at the save, over the
    // shipped tables' later updates (review).
    std::vector<DataFile> files = shippedDataFiles(set.toStdString());
    std::vector<LoadIssue> unreadable;
    for (const QString& beneath : importedPriceFiles(set))
        if (auto file = readDataFile(beneath.toStdString(), unreadable))
            files.push_back(std::move(*file));
    // An import that cannot be read now lies beneath nothing: its entries would count as edits
    // and be frozen into the file.
    if (!unreadable.empty()) {
        *error = QStringLiteral("Cannot save the price tables: %1").arg(issueText(unreadable));
        return false;
    }
    const CatalogLoad base = loadCatalog(files);
    if (priceEntriesThatDiffer(catalog, *base.catalog).empty()) {
        // Nothing edited (an edit undone, or typed back): no file, which the loader would
        // refuse as holding no table.
        if (QFile::exists(path) && !QFile::remove(path)) {
            *error = QStringLiteral("cannot remove %1").arg(path);
            return false;
        }
        return true;
    }
    if (!QDir().mkpath(QFileInfo(path).path())) {
        *error = QStringLiteral("cannot create %1").arg(QFileInfo(path).path());
        return false;
    }
    const std::string text = writeEditedPriceTables(catalog, *base.catalog);
    // Read it back with the loader first: never leave a file the planner would reject, or one
    // that reads back to other tables than the user sees.
    files.push_back({ path.toStdString(), text });
    const CatalogLoad check = loadCatalog(files);
    if (!check.ok()) {
        *error = issueText(check.issues);
        return false;
    }
    if (const auto differ = priceEntriesThatDiffer(*check.catalog, catalog); !differ.empty()) {
        QStringList ids;
        for (const auto& id : differ)
            ids << QString::fromStdString(id);
        *error = QStringLiteral("The price tables would not read back as edited (%1): nothing "
                                "was saved. Import or revert the files beneath them, then try "
                                "again.")
                     .arg(views::listedWithAnd(ids));
        return false;
    }
    return views::saveWholeFile(path, QByteArray::fromStdString(text), error);
}

bool importPriceFile(const QString& path, QString* error)
{
    // Checked over the tables the planner has now, the user's files after the shipped ones, as
    // it will be read: against the shipped tables alone, a second file pricing a GPU that an
    // earlier import added was refused as naming an unknown GPU (review). Only this file's
    // errors refuse it; another file's are the planner's to report, as they were before.
    const QString set = currentPriceSet();
    std::vector<std::string> layered = toStd(views::userPriceFiles(set));
    const std::string imported = path.toStdString();
    layered.push_back(imported);
    const CatalogLoad load = loadCatalogWithUserFiles(layered, set.toStdString());
    std::vector<LoadIssue> own;
    std::copy_if(load.issues.begin(), load.issues.end(), std::back_inserter(own),
        [&](const LoadIssue& issue) { return issue.file == imported; });
    if (hasErrors(own)) {
        *error = issueText(own);
        return false;
    }
    return copyInto(path, views::userDataDir() + QStringLiteral("/prices"), error);
}

QString saveImportedCatalog(const std::string& yamlText, const QString& fileName, QString* error)
{
    const QString dir = views::userDataDir() + QStringLiteral("/prices");
    std::vector<DataFile> base = shippedDataFiles(currentPriceSet().toStdString());
    std::vector<LoadIssue> unreadable; // a user file that cannot be read is the loader's to report
    for (const QString& path : views::userPriceFiles(currentPriceSet()))
        if (auto file = readDataFile(path.toStdString(), unreadable))
            base.push_back(std::move(*file));
    const std::string name = QDir(dir).filePath(fileName).toStdString();
    const auto issues = catalog_import::checkImportedTable(std::move(base), { name, yamlText });
    if (!issues.empty()) {
        *error = issueText(issues);
        return {};
    }
    const views::StoredFile stored
        = views::storeUniqueFile(QByteArray::fromStdString(yamlText), dir, fileName);
    if (stored.path.isEmpty())
        *error = stored.error;
    return stored.path;
}

QStringList importedPriceFiles()
{
    return importedPriceFiles(currentPriceSet());
}

QStringList importedPriceFiles(const QString& priceSet)
{
    QStringList files = views::userPriceFiles(priceSet);
    files.removeAll(editedPricesPath(priceSet));
    return files;
}

QString revertedPricesDir()
{
    return views::userDataDir() + QStringLiteral("/prices/reverted");
}

bool setAsidePriceFiles(const QStringList& files, QString* error)
{
    for (const QString& file : files) {
        const views::StoredFile moved
            = views::storeUniqueCopy(file, revertedPricesDir(), QFileInfo(file).fileName());
        if (moved.path.isEmpty()) {
            *error = moved.error;
            return false;
        }
        if (!QFile::remove(file)) {
            QFile::remove(moved.path); // keep one copy, where it was
            *error = QStringLiteral("cannot remove %1").arg(file);
            return false;
        }
    }
    return true;
}

bool importResultsFile(const QString& path, const Catalog& catalog, QString* error)
{
    const MeasuredLoad load = loadMeasuredResultsFiles({ path.toStdString() }, catalog);
    if (!load.ok() || load.results.empty()) {
        *error = load.ok() ? QStringLiteral("%1 holds no measured configuration").arg(path)
                           : issueText(load.issues);
        return false;
    }
    return copyInto(path, views::userDataDir() + QStringLiteral("/results"), error);
}

} // namespace gpuplan::gui

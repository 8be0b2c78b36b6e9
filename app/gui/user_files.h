#pragma once

// The GUI's files in the user data dir (views::userDataDir()): price edits, imported price
// tables and imported measurements. Every write goes through views::saveWholeFile or a checked
// copy, and every file is read with the planner's own loaders before it is accepted.

#include "pricing/catalog_loader.h"

#include <QString>

namespace gpuplan::gui {

// The shipped price set the GUI plans with (Prices > Price set), kept in QSettings; the default
// set where none (or an unknown one) is stored.
QString currentPriceSet();
void setCurrentPriceSet(const QString& priceSet);

// <user data dir>/prices/<current set>/edited-prices.yaml: where the Price tables view saves. It
// holds the entries edited over that set's tables (and the imports beneath), so it is layered
// over that set only.
QString editedPricesPath();
QString editedPricesPath(const QString& priceSet);

// The current set's shipped tables, then the user price files, then the user results files.
CatalogLoad loadUserCatalog();

// Writes what `catalog`'s price tables hold otherwise than the shipped tables of its price set
// and the imported ones beneath (writeEditedPriceTables) to editedPricesPath() of that set,
// atomically, after checking that it reads back to `catalog`'s tables. No difference at all
// removes the file: nothing is edited. False, with nothing written, where an imported file
// cannot be read (the edits could not be told from it) and with the loader's issues.
bool saveEditedPrices(const Catalog& catalog, QString* error);

// Checks a price table (or a gpuplan-bench results file) with the planner's loader and copies
// it into the user prices (results) dir under its own name, or with "-2", "-3", ... where an
// earlier import has that name: nothing is overwritten. False with every issue
// (file:line:column) in *error.
bool importPriceFile(const QString& path, QString* error);
bool importResultsFile(const QString& path, const Catalog& catalog, QString* error);

// Writes an imported cloud catalog (catalog_import::writeImportedTable) into the user prices
// dir as `fileName`, or "-2", "-3", ... where that name is taken: nothing is overwritten. It is
// read with the loader after the shipped and user tables first. The path written, or an empty
// string with the loader's issues or the write error in *error.
QString saveImportedCatalog(const std::string& yamlText, const QString& fileName, QString* error);

// The price tables imported with File > Import price table: every user price file of the current
// set (or of `priceSet`) but editedPricesPath().
QStringList importedPriceFiles();
QStringList importedPriceFiles(const QString& priceSet);
// <user data dir>/prices/reverted/: where "Revert to shipped defaults" puts imported price
// tables. The loader reads only the prices folder itself, so they stop counting, yet the user
// can move one back.
QString revertedPricesDir();
// Moves each file into revertedPricesDir() (a name already there gets "-2", ...). False with
// the first failure in *error; the files before it are moved.
bool setAsidePriceFiles(const QStringList& files, QString* error);

// "file:line:column: error: ..." lines.
QString issueText(const std::vector<LoadIssue>& issues);

} // namespace gpuplan::gui

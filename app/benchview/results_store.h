#pragma once

#include "app/common/unique_file_store.h"
#include "core/catalog.h"

#include <QString>

namespace gpuplan::benchview {

using StoredResults = views::StoredFile;

// Copies a results file into the user results dir (views::userDataDir()/results/) as
// `fileName` with views::storeUniqueCopy: atomically, and a name already taken gets "-2", "-3",
// ... before ".yaml", never overwriting. File > Import measurements stores the same way.
StoredResults storeResultsFile(const QString& sourcePath, const QString& fileName);

// "Import results file...": checks the file with the planner's reader first (a file it cannot
// read is refused with the reader's file:line:column message), then stores it under a name
// made from its model, device and the time of import.
StoredResults importResultsFile(const QString& path, const Catalog& catalog);

} // namespace gpuplan::benchview

#pragma once

#include "core/catalog.h"

#include <QString>

namespace gpuplan::benchview {

struct StoredResults {
    QString path; // where the file now is; empty on failure
    QString error; // in words, when it could not be stored
};

// Copies a results file into the user results dir (views::userDataDir()/results/) as
// `fileName`, atomically: QSaveFile writes beside it and renames, so the planner never reads
// half a file. A name already taken gets "-2", "-3", ... before ".yaml", never overwriting.
StoredResults storeResultsFile(const QString& sourcePath, const QString& fileName);

// "Import results file...": checks the file with the planner's reader first (a file it cannot
// read is refused with the reader's file:line:column message), then stores it under a name
// made from its model, device and the time of import.
StoredResults importResultsFile(const QString& path, const Catalog& catalog);

} // namespace gpuplan::benchview

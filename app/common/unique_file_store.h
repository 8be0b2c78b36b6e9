#pragma once

#include <QString>

namespace gpuplan::views {

struct StoredFile {
    QString path; // where the copy now is; empty on failure
    QString error; // in words, when it could not be stored
};

// Copies `sourcePath` into the folder `dirPath` (created if missing) as `fileName`, atomically:
// QSaveFile writes beside it and renames, so the planner never reads half a file. A name that
// is already taken gets "-2", "-3", ... before its suffix: two servers' results.yaml, or two
// suppliers' prices.yaml, are both kept and neither replaces an earlier import.
StoredFile storeUniqueCopy(
    const QString& sourcePath, const QString& dirPath, const QString& fileName);

} // namespace gpuplan::views

#pragma once

#include <QByteArray>
#include <QString>

namespace gpuplan::views {

struct StoredFile {
    QString path; // where the copy now is; empty on failure
    QString error; // in words, when it could not be stored
};

// Copies `sourcePath` into the folder `dirPath` (created if missing) as `fileName`, atomically
// (storeUniqueFile), so the planner never reads half a file. A name that is already taken gets
// "-2", "-3", ... before its suffix: two servers' results.yaml, or two suppliers' prices.yaml,
// are both kept and neither replaces an earlier import.
StoredFile storeUniqueCopy(
    const QString& sourcePath, const QString& dirPath, const QString& fileName);

// Writes `contents` into `dirPath` (created if missing) as `fileName`, or with "-2", "-3", ...
// where the name is taken. The name is claimed by renaming a complete temporary file without
// replacing anything (QTemporaryFile::rename), so neither a half-written file nor a file that
// appeared meanwhile is ever overwritten.
StoredFile storeUniqueFile(
    const QByteArray& contents, const QString& dirPath, const QString& fileName);

// Writes `contents` to `path` the same way, failing where a file of that name exists or its
// folder does not (a path the user typed is not created).
StoredFile storeNewFile(const QByteArray& contents, const QString& path);

} // namespace gpuplan::views

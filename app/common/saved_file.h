#pragma once

// Whole files written in one step, for every export (charts, the report and its tables, the
// budget justification): the bytes are made in memory first, then written with QSaveFile, which
// renames them over the target only when every write succeeded. A full disk or a file-size
// limit therefore fails the export with a message and leaves any earlier file as it was,
// instead of a truncated file announced as written.

#include <QByteArray>
#include <QString>

#include <utility>
#include <vector>

namespace gpuplan::views {

// Writes `bytes` to `path`, replacing it atomically (an existing file keeps its permissions, a
// new one gets the umask's). False with *error = "cannot write PATH: reason" on any failure.
bool saveWholeFile(const QString& path, const QByteArray& bytes, QString* error);

// Files that belong together (a report and its tables, a table and the one beside it): every
// file is written in full before any is renamed into place, and a target that exists but is not
// a regular file (a folder) fails them all before anything is written. So a failure leaves
// none of them changed; only a rename failing after the first (which the checks make unlikely)
// could leave the set mixed, and says which file was not replaced.
using WholeFile = std::pair<QString, QByteArray>;
bool saveWholeFiles(const std::vector<WholeFile>& files, QString* error);

// Those of `paths` that already exist: what writing them would replace.
QStringList existingFiles(const QStringList& paths);

} // namespace gpuplan::views

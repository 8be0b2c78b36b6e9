#pragma once

// Whole files written in one step, for every export (charts, the report and its tables, the
// budget justification): the bytes are made in memory first, then written with QSaveFile, which
// renames them over the target only when every write succeeded. A full disk or a file-size
// limit therefore fails the export with a message and leaves any earlier file as it was,
// instead of a truncated file announced as written.

#include <QByteArray>
#include <QString>

namespace gpuplan::views {

// Writes `bytes` to `path`, replacing it atomically (an existing file keeps its permissions, a
// new one gets the umask's). False with *error = "cannot write PATH: reason" on any failure.
bool saveWholeFile(const QString& path, const QByteArray& bytes, QString* error);

} // namespace gpuplan::views

#include "app/common/saved_file.h"

#include <QDir>
#include <QSaveFile>

#include <algorithm>

namespace gpuplan::views {

bool saveWholeFile(const QString& path, const QByteArray& bytes, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot write %1: %2")
                     .arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    // A short write fails too (a full disk, a file-size limit): the file is then never
    // committed, and QSaveFile's destructor removes what it wrote.
    const qint64 written = file.write(bytes);
    if (written != bytes.size()) {
        *error = QStringLiteral("cannot write %1: only %2 of %3 bytes could be written (disk full "
                                "or a file-size limit?)")
                     .arg(QDir::toNativeSeparators(path))
                     .arg(std::max<qint64>(written, 0))
                     .arg(bytes.size());
        return false;
    }
    if (!file.commit()) {
        *error = QStringLiteral("cannot write %1: %2")
                     .arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

} // namespace gpuplan::views

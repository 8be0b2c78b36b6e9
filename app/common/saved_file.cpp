#include "app/common/saved_file.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QStringList>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include <unistd.h>

namespace gpuplan::views {

namespace {

// Opens `file` and writes all of `bytes` into its temporary copy; false with *error otherwise.
bool writeUncommitted(QSaveFile& file, const QByteArray& bytes, QString* error)
{
    const QString path = file.fileName();
    // QSaveFile would write a whole copy before finding it cannot rename it over a folder.
    if (QFileInfo info(path); info.exists() && !info.isFile()) {
        *error = QStringLiteral("cannot write %1: it is not a regular file")
                     .arg(QDir::toNativeSeparators(path));
        return false;
    }
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot write %1: %2")
                     .arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    // A short write fails too (a full disk, a file-size limit): the file is then never
    // committed, and QSaveFile's destructor removes what it wrote. Flushed here: bytes fewer
    // than its buffer (16 KiB) reach the disk only in commit(), whose failed flush Qt 6.4 does
    // not report, so a small file on a full disk was renamed into place empty and announced as
    // saved, over the earlier one.
    // And synced: a quota on a network home (EDQUOT) is often reported only by fsync or close,
    // whose result commit() does not check either.
    // A filesystem that cannot sync (EINVAL, ENOTSUP: some FUSE and SMB mounts) is no failure,
    // as Qt's own commit() treats it.
    const qint64 written = file.write(bytes);
    const bool flushed = written == bytes.size() && file.flush();
    int syncError = 0;
    if (flushed && ::fsync(file.handle()) != 0)
        syncError = errno;
    if (syncError == EINVAL || syncError == ENOTSUP || syncError == EROFS)
        syncError = 0;
    if (!flushed || file.error() != QFileDevice::NoError || syncError != 0) {
        *error = written != bytes.size()
            ? QStringLiteral("cannot write %1: only %2 of %3 bytes could be written (disk full or "
                             "a file-size limit?)")
                  .arg(QDir::toNativeSeparators(path))
                  .arg(std::max<qint64>(written, 0))
                  .arg(bytes.size())
            : QStringLiteral("cannot write %1: %2 (disk full or a file-size limit?)")
                  .arg(QDir::toNativeSeparators(path),
                      file.error() != QFileDevice::NoError
                          ? file.errorString()
                          : QString::fromLocal8Bit(std::strerror(syncError)));
        return false;
    }
    return true;
}

} // namespace

bool saveWholeFile(const QString& path, const QByteArray& bytes, QString* error)
{
    return saveWholeFiles({ { path, bytes } }, error);
}

bool saveWholeFiles(const std::vector<WholeFile>& files, QString* error)
{
    std::vector<std::unique_ptr<QSaveFile>> written;
    for (const auto& [path, bytes] : files) {
        written.push_back(std::make_unique<QSaveFile>(path));
        if (!writeUncommitted(*written.back(), bytes, error))
            return false; // the destructors remove every temporary copy
    }
    for (auto& file : written) {
        if (file->commit())
            continue;
        const QString path = file->fileName();
        *error = QStringLiteral("cannot write %1: %2")
                     .arg(QDir::toNativeSeparators(path), file->errorString());
        return false;
    }
    return true;
}

QStringList existingFiles(const QStringList& paths)
{
    QStringList existing;
    for (const QString& path : paths)
        if (QFileInfo::exists(path))
            existing << path;
    return existing;
}

} // namespace gpuplan::views

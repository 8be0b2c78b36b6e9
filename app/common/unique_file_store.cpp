#include "app/common/unique_file_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>

namespace gpuplan::views {

namespace {
// Beyond this many files with the same name, something is wrong.
constexpr int kMaxNameSuffix = 1000;

// Writes `contents` to a temporary file in `dir` and renames it to the first of `names` not
// taken; the rename never replaces a file.
StoredFile claimName(const QByteArray& contents, const QDir& dir, const QStringList& names)
{
    QTemporaryFile temporary(dir.filePath(QStringLiteral(".import-XXXXXX.tmp")));
    if (!temporary.open() || temporary.write(contents) != contents.size() || !temporary.flush())
        return { {},
            QStringLiteral("Could not write in %1: %2").arg(dir.path(), temporary.errorString()) };
    // A temporary file is private (0600); a price table is a file like any other the user
    // keeps or shares.
    temporary.setPermissions(
        QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    for (const QString& name : names) {
        const QString path = dir.filePath(name);
        if (QFileInfo::exists(path))
            continue;
        if (temporary.rename(path)) {
            temporary.setAutoRemove(false);
            return { path, {} };
        }
        if (!QFileInfo::exists(path)) // failed for another reason than a file appearing
            return { {},
                QStringLiteral("Could not save %1: %2").arg(path, temporary.errorString()) };
    }
    return {
        {},
        names.size() == 1
            ? QStringLiteral("%1 exists: an import never overwrites a file.")
                  .arg(dir.filePath(names.front()))
            : QStringLiteral("Too many files named like %1 in %2.").arg(names.front(), dir.path())
    };
}

QStringList candidateNames(const QString& fileName)
{
    QStringList names { fileName };
    const QString stem = QFileInfo(fileName).completeBaseName();
    const QString suffix = QFileInfo(fileName).suffix();
    for (int n = 2; n < kMaxNameSuffix; ++n)
        names << (suffix.isEmpty() ? QStringLiteral("%1-%2").arg(stem).arg(n)
                                   : QStringLiteral("%1-%2.%3").arg(stem).arg(n).arg(suffix));
    return names;
}

} // namespace

StoredFile storeUniqueFile(
    const QByteArray& contents, const QString& dirPath, const QString& fileName)
{
    if (!QDir().mkpath(dirPath))
        return { {}, QStringLiteral("Could not create the folder %1.").arg(dirPath) };
    return claimName(contents, QDir(dirPath), candidateNames(fileName));
}

StoredFile storeNewFile(const QByteArray& contents, const QString& path)
{
    const QFileInfo info(path);
    if (info.exists())
        return { {}, QStringLiteral("%1 exists: an import never overwrites a file.").arg(path) };
    // A path the user typed: a folder that is not there is a typo, not one to create.
    if (!info.absoluteDir().exists())
        return { {},
            QStringLiteral("The folder %1 does not exist.")
                .arg(QDir::toNativeSeparators(info.absolutePath())) };
    return claimName(contents, info.absoluteDir(), { info.fileName() });
}

StoredFile storeUniqueCopy(
    const QString& sourcePath, const QString& dirPath, const QString& fileName)
{
    QFile source(sourcePath);
    if (!source.open(QIODevice::ReadOnly))
        return { {},
            QStringLiteral("Could not read %1: %2").arg(sourcePath, source.errorString()) };
    return storeUniqueFile(source.readAll(), dirPath, fileName);
}

} // namespace gpuplan::views

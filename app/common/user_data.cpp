#include "app/common/user_data.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>

namespace gpuplan::views {

namespace {
QStringList yamlFilesIn(const QString& subdirectory)
{
    const QDir dir(userDataDir() + QLatin1Char('/') + subdirectory);
    // A folder that cannot be listed is handed on itself: the loader says it cannot read its
    // files, where an empty list had planned on the shipped prices unsaid (review).
    if (const QFileInfo folder(dir.path());
        folder.isDir() && !(folder.isReadable() && folder.isExecutable()))
        return { dir.path() };
    QStringList files;
    // Unreadable files and broken links (QDir::System) are listed too, and a folder named as a
    // YAML file (an unpacked archive, prices.yaml/prices.yaml): the loader then says why it
    // cannot read them, where skipping them would plan on the shipped prices unnoticed.
    for (const auto& name : dir.entryList({ QStringLiteral("*.yaml"), QStringLiteral("*.yml") },
             QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::System, QDir::Name))
        files << dir.filePath(name);
    return files;
}
} // namespace

QString userDataDir()
{
    const QString overridden = qEnvironmentVariable("GPUPLAN_DATA_DIR");
    if (!overridden.isEmpty())
        return overridden;
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
        + QStringLiteral("/gpuplan");
}

QStringList userPriceFiles(const QString& priceSet)
{
    QStringList files
        = yamlFilesIn(QStringLiteral("prices")) + yamlFilesIn(QStringLiteral("prices/") + priceSet);
    // Layered oldest first, so the last import or save wins where two files price the same item;
    // by name this would depend on what the files are called (an import kept as prices-2.yaml
    // would sort before, and lose to, the prices.yaml it came after).
    std::stable_sort(files.begin(), files.end(), [](const QString& a, const QString& b) {
        return QFileInfo(a).lastModified() < QFileInfo(b).lastModified();
    });
    return files;
}
QStringList userResultFiles()
{
    return yamlFilesIn(QStringLiteral("results"));
}

} // namespace gpuplan::views

#include "app/common/user_data.h"

#include <QDir>
#include <QStandardPaths>

namespace gpuplan::views {

namespace {
QStringList yamlFilesIn(const QString& subdirectory)
{
    const QDir dir(userDataDir() + QLatin1Char('/') + subdirectory);
    QStringList files;
    for (const auto& name : dir.entryList({QStringLiteral("*.yaml"), QStringLiteral("*.yml")},
                                          QDir::Files | QDir::Readable, QDir::Name))
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

QStringList userPriceFiles() { return yamlFilesIn(QStringLiteral("prices")); }
QStringList userResultFiles() { return yamlFilesIn(QStringLiteral("results")); }

} // namespace gpuplan::views

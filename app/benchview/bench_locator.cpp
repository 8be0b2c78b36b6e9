#include "app/benchview/bench_locator.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace gpuplan::benchview {

namespace {
constexpr auto kProgramName = "gpuplan-bench";

bool isExecutableFile(const QString& path)
{
    const QFileInfo info(path);
    return info.isFile() && info.isExecutable();
}
} // namespace

BenchLocation locateBench()
{
    const QString overridden = qEnvironmentVariable("GPUPLAN_BENCH");
    if (!overridden.isEmpty()) {
        if (isExecutableFile(overridden))
            return { QFileInfo(overridden).absoluteFilePath(), {} };
        return { {},
            QStringLiteral("GPUPLAN_BENCH is set to %1, which is not an executable file. "
                           "Point it at gpuplan-bench, or unset it.")
                .arg(overridden) };
    }
    const QString beside
        = QDir(QCoreApplication::applicationDirPath()).filePath(QString::fromLatin1(kProgramName));
    if (isExecutableFile(beside))
        return { beside, {} };
    const QString onPath = QStandardPaths::findExecutable(QString::fromLatin1(kProgramName));
    if (!onPath.isEmpty())
        return { onPath, {} };
#ifdef GPUPLAN_BUILD_TREE_BENCH
    const QString built = QStringLiteral(GPUPLAN_BUILD_TREE_BENCH);
    if (isExecutableFile(built))
        return { built, {} };
#endif
    return { {},
        QStringLiteral("gpuplan-bench was not found: not beside %1, not on PATH, and "
                       "GPUPLAN_BENCH is not set. Install the gpuplan package (it ships "
                       "gpuplan-bench), or set GPUPLAN_BENCH to its path.")
            .arg(QCoreApplication::applicationDirPath()) };
}

} // namespace gpuplan::benchview

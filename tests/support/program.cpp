#include "tests/support/program.h"

#include <QProcess>

namespace gpuplan::testing {

ProgramRun runProgram(const QString& program, const QStringList& arguments,
    const QProcessEnvironment& environment, int timeoutMs)
{
    QProcess p;
    p.setProcessEnvironment(environment);
    p.start(program, arguments);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return { -2, p.readAllStandardOutput(), p.readAllStandardError() };
    }
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

} // namespace gpuplan::testing

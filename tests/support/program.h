#pragma once

// Runs one of the project's programs as users and scripts do: a real process, its exit code and
// both output streams.

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace gpuplan::testing {

struct ProgramRun {
    int exitCode = -1; // -1: it crashed; -2: it did not finish in time
    QByteArray out;
    QByteArray err;
};

ProgramRun runProgram(const QString& program, const QStringList& arguments,
    const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment(),
    int timeoutMs = 120000);

} // namespace gpuplan::testing

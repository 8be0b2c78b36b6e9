#include "app/benchrun/benchmark_runner.h"

#include <QFileInfo>

#include <csignal>

namespace gpuplan::benchrun {

namespace {
// A progress line is a few hundred bytes; anything this long without a newline is not one.
constexpr qsizetype kMaxLineBytes = 64 * 1024;

QString printable(const QByteArray& bytes)
{
    QString text = QString::fromUtf8(bytes.left(200)).trimmed();
    for (auto& c : text)
        if (!c.isPrint())
            c = QChar(0xFFFD);
    return bytes.size() > 200 ? text + QStringLiteral("...") : text;
}

// On a crash exit QProcess reports the signal that ended the worker as its exit code; the
// signal tells a bug (SIGSEGV, SIGABRT) from a kill (SIGKILL: the kernel's out-of-memory
// killer, or a batch scheduler at its time limit).
QString crashDescription(int signal)
{
    const QString start = QStringLiteral("The benchmark worker stopped abnormally: ");
    switch (signal) {
    case SIGKILL:
        return start
            + QStringLiteral("it was killed (SIGKILL), most often by the system's "
                             "out-of-memory killer when memory ran out.");
    case SIGSEGV:
    case SIGBUS:
        return start
            + QStringLiteral("it crashed (segmentation fault, signal %1), a bug in the "
                             "worker, LibTorch or the GPU driver.")
                  .arg(signal);
    case SIGABRT:
        return start
            + QStringLiteral("it aborted (SIGABRT), usually an error LibTorch or CUDA "
                             "could not recover from; the log may say which.");
    default:
        return start + QStringLiteral("it crashed or was killed (signal %1).").arg(signal);
    }
}
} // namespace

BenchmarkRunner::BenchmarkRunner(QObject* parent)
    : QObject(parent)
{
    m_stallTimer.setSingleShot(true);
    m_killTimer.setSingleShot(true);
    m_killTimer.setInterval(std::chrono::seconds(1));
    connect(
        &m_process, &QProcess::readyReadStandardOutput, this, &BenchmarkRunner::readStandardOutput);
    connect(
        &m_process, &QProcess::readyReadStandardError, this, &BenchmarkRunner::readStandardError);
    connect(&m_process, &QProcess::finished, this, &BenchmarkRunner::onFinished);
    connect(&m_process, &QProcess::errorOccurred, this, &BenchmarkRunner::onError);
    connect(&m_stallTimer, &QTimer::timeout, this, &BenchmarkRunner::onStalled);
    connect(&m_killTimer, &QTimer::timeout, this, [this] { m_process.kill(); });
}

BenchmarkRunner::~BenchmarkRunner()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.disconnect(this);
        m_process.kill();
        m_process.waitForFinished(5000); // reap it: no zombie outlives the window
    }
}

void BenchmarkRunner::setStallTimeout(std::chrono::milliseconds timeout)
{
    m_stallTimeout = timeout;
}

void BenchmarkRunner::setCancelGrace(std::chrono::milliseconds grace)
{
    m_killTimer.setInterval(grace);
}

bool BenchmarkRunner::start(
    const QString& program, const QStringList& arguments, const QString& resultsFile)
{
    if (isActive())
        return false;
    m_stdoutBuffer.clear();
    m_stderrBuffer.clear();
    m_outcome.clear();
    m_workerError.clear();
    m_last.reset();
    m_stalled = false;
    m_resultsFile = resultsFile;
    m_clock.start();
    setState(State::Running);
    m_stallTimer.start(m_stallTimeout);
    m_process.start(program,
        arguments
            + QStringList { QStringLiteral("--progress"), QStringLiteral("jsonl"),
                QStringLiteral("--out"), resultsFile });
    return true;
}

void BenchmarkRunner::cancel()
{
    if (m_state != State::Running)
        return;
    setState(State::Cancelling);
    m_process.terminate(); // the worker may finish writing what it has measured
    m_killTimer.start();
}

bool BenchmarkRunner::hasResults() const
{
    return !m_resultsFile.isEmpty() && QFileInfo::exists(m_resultsFile);
}

std::chrono::milliseconds BenchmarkRunner::elapsed() const
{
    return std::chrono::milliseconds(m_clock.isValid() ? m_clock.elapsed() : 0);
}

std::optional<std::chrono::milliseconds> BenchmarkRunner::estimatedRemaining() const
{
    if (!m_last || m_last->percent < 1.0 || m_last->percent >= 100.0)
        return std::nullopt;
    const double done = m_last->percent / 100.0;
    const auto ms = static_cast<double>(elapsed().count());
    return std::chrono::milliseconds(static_cast<qint64>(ms * (1.0 - done) / done));
}

void BenchmarkRunner::readStandardOutput()
{
    m_stallTimer.start(m_stallTimeout);
    m_stdoutBuffer += m_process.readAllStandardOutput();
    qsizetype newline = 0;
    while ((newline = m_stdoutBuffer.indexOf('\n')) >= 0) {
        handleLine(m_stdoutBuffer.left(newline));
        m_stdoutBuffer.remove(0, newline + 1);
    }
    if (m_stdoutBuffer.size() > kMaxLineBytes) {
        emit logLine(QStringLiteral("The worker printed %1 bytes without a line break; ignored.")
                         .arg(m_stdoutBuffer.size()));
        m_stdoutBuffer.clear();
    }
}

void BenchmarkRunner::readStandardError()
{
    m_stallTimer.start(m_stallTimeout);
    m_stderrBuffer += m_process.readAllStandardError();
    qsizetype newline = 0;
    while ((newline = m_stderrBuffer.indexOf('\n')) >= 0) {
        emit logLine(printable(m_stderrBuffer.left(newline)));
        m_stderrBuffer.remove(0, newline + 1);
    }
    if (m_stderrBuffer.size() > kMaxLineBytes) {
        emit logLine(printable(m_stderrBuffer));
        m_stderrBuffer.clear();
    }
}

void BenchmarkRunner::handleLine(const QByteArray& line)
{
    if (line.trimmed().isEmpty())
        return;
    const auto progress = parseProgressLine(line);
    if (!progress) {
        emit logLine(QStringLiteral("Unexpected output from the worker: ") + printable(line));
        return;
    }
    if (progress->phase == ProgressPhase::Error)
        m_workerError = progress->message;
    m_last = progress;
    emit progressed(*progress);
}

void BenchmarkRunner::onStalled()
{
    if (m_state != State::Running)
        return;
    m_stalled = true;
    m_process.kill();
}

void BenchmarkRunner::onError(QProcess::ProcessError error)
{
    if (error == QProcess::FailedToStart)
        finish(State::Failed,
            QStringLiteral("Could not start the benchmark worker %1: %2")
                .arg(m_process.program(), m_process.errorString()));
}

QString BenchmarkRunner::keptResultsNote() const
{
    return hasResults() ? QStringLiteral(" The configurations measured before that are kept in %1.")
                              .arg(m_resultsFile)
                        : QStringLiteral(" Nothing had been measured yet.");
}

void BenchmarkRunner::onFinished(int exitCode, QProcess::ExitStatus status)
{
    // What is left in the buffers arrived before the exit: read it first.
    if (!m_stdoutBuffer.isEmpty())
        handleLine(m_stdoutBuffer);
    if (!m_stderrBuffer.isEmpty())
        emit logLine(printable(m_stderrBuffer));
    m_stdoutBuffer.clear();
    m_stderrBuffer.clear();

    if (m_state == State::Cancelling) {
        finish(State::Cancelled, QStringLiteral("Cancelled.") + keptResultsNote());
    } else if (m_stalled) {
        finish(State::Failed,
            QStringLiteral("The benchmark worker stopped responding (no output for %1 s) and "
                           "was stopped.")
                    .arg(static_cast<double>(m_stallTimeout.count()) / 1000.0)
                + keptResultsNote());
    } else if (status == QProcess::CrashExit) {
        finish(State::Failed, crashDescription(exitCode) + keptResultsNote());
    } else if (exitCode != 0) {
        const QString why = m_workerError.isEmpty() ? QStringLiteral("see the log") : m_workerError;
        finish(State::Failed,
            QStringLiteral("The benchmark failed (exit code %1): %2.").arg(exitCode).arg(why)
                + keptResultsNote());
    } else if (!hasResults()) {
        finish(State::Failed,
            QStringLiteral("The benchmark worker finished without writing %1.").arg(m_resultsFile));
    } else {
        finish(State::Finished,
            QStringLiteral("Finished in %1 s; results saved to %2.")
                .arg(static_cast<double>(elapsed().count()) / 1000.0, 0, 'f', 1)
                .arg(m_resultsFile));
    }
}

void BenchmarkRunner::finish(State state, const QString& outcome)
{
    if (!isActive())
        return; // a second report of the same end (error, then finished)
    m_stallTimer.stop();
    m_killTimer.stop();
    m_outcome = outcome;
    setState(state);
    emit finished(state, outcome);
}

void BenchmarkRunner::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    emit stateChanged(state);
}

} // namespace gpuplan::benchrun

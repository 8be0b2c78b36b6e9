#pragma once

#include "app/benchrun/progress_line.h"

#include <QElapsedTimer>
#include <QObject>
#include <QProcess>
#include <QTimer>

#include <chrono>
#include <optional>

namespace gpuplan::benchrun {

// Runs one gpuplan-bench measurement in a child process, so that a CUDA crash, an out-of-memory
// kill or a hang can never take the GUI down. It reads the worker's progress stream as it comes,
// tolerates garbage on it, notices a worker that stops responding, and cancels cleanly (SIGTERM,
// then SIGKILL after a grace period). The worker writes its results file atomically after each
// configuration, so whatever was measured before a failure is kept.
class BenchmarkRunner : public QObject {
    Q_OBJECT

public:
    enum class State { Idle, Running, Cancelling, Finished, Failed, Cancelled };
    Q_ENUM(State)

    explicit BenchmarkRunner(QObject* parent = nullptr);
    ~BenchmarkRunner() override; // a running worker is killed and reaped, never left behind

    // Without output for this long the worker counts as hung and is killed. Model builds and
    // big batch-size trials print nothing for minutes on a slow CPU, hence the generous default.
    void setStallTimeout(std::chrono::milliseconds timeout);
    void setCancelGrace(std::chrono::milliseconds grace);

    // Starts `program arguments... --progress jsonl --out resultsFile`. False (and state Failed)
    // if a run is already going.
    bool start(const QString& program, const QStringList& arguments, const QString& resultsFile);
    void cancel();

    State state() const { return m_state; }
    bool isActive() const { return m_state == State::Running || m_state == State::Cancelling; }
    QString resultsFile() const { return m_resultsFile; }
    bool hasResults() const; // the results file exists (complete, or partial after a failure)
    QString outcome() const { return m_outcome; } // what happened, in words
    std::optional<ProgressLine> lastProgress() const { return m_last; }
    std::chrono::milliseconds elapsed() const;
    // From the progress so far, assuming the remaining work goes at the same pace.
    std::optional<std::chrono::milliseconds> estimatedRemaining() const;
    qint64 processId() const { return m_process.processId(); }

signals:
    void progressed(const gpuplan::benchrun::ProgressLine& progress);
    void logLine(const QString& line); // the worker's stderr, and stdout that is not progress
    void stateChanged(gpuplan::benchrun::BenchmarkRunner::State state);
    void finished(gpuplan::benchrun::BenchmarkRunner::State state, const QString& outcome);

private:
    void readStandardOutput();
    void readStandardError();
    void handleLine(const QByteArray& line);
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);
    void onStalled();
    void finish(State state, const QString& outcome);
    void setState(State state);
    QString keptResultsNote() const;

    QProcess m_process;
    QTimer m_stallTimer;
    QTimer m_killTimer;
    QElapsedTimer m_clock;
    QByteArray m_stdoutBuffer;
    QByteArray m_stderrBuffer;
    State m_state = State::Idle;
    QString m_resultsFile;
    QString m_outcome;
    QString m_workerError; // the message of an "error" progress line
    std::optional<ProgressLine> m_last;
    bool m_stalled = false;
    std::chrono::milliseconds m_stallTimeout { std::chrono::minutes(15) };
};

} // namespace gpuplan::benchrun

#pragma once

#include "app/benchview/device_list.h"

#include <QObject>
#include <QProcess>
#include <QTimer>

#include <chrono>

namespace gpuplan::benchview {

// Runs `gpuplan-bench devices --format json` in the background and reports the list, or why
// there is none. Loading LibTorch and CUDA takes seconds, so this never blocks the GUI thread;
// a program that hangs is killed after the timeout, and one still running when the query is
// destroyed is killed and reaped.
class DeviceQuery : public QObject {
    Q_OBJECT

public:
    explicit DeviceQuery(QObject* parent = nullptr);
    ~DeviceQuery() override;

    void setTimeout(std::chrono::milliseconds timeout);
    void start(const QString& program); // a query already running is abandoned first
    bool isRunning() const { return m_process.state() != QProcess::NotRunning; }

signals:
    void listed(const gpuplan::benchview::DeviceList& list);
    void failed(const QString& why);

private:
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);
    void stop();
    QString stderrTail(); // what the program wrote on stderr, shortened, for a message

    QProcess m_process;
    QTimer m_timeout;
    bool m_timedOut = false;
};

} // namespace gpuplan::benchview

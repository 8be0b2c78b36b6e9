#include "app/benchview/device_query.h"

namespace gpuplan::benchview {

namespace {
// Enough for LibTorch to initialise CUDA on a cold machine; a device list needs nothing more.
constexpr std::chrono::seconds kDefaultTimeout { 60 };
constexpr qsizetype kStderrShown = 300;
} // namespace

DeviceQuery::DeviceQuery(QObject* parent)
    : QObject(parent)
{
    m_timeout.setSingleShot(true);
    m_timeout.setInterval(kDefaultTimeout);
    connect(&m_process, &QProcess::finished, this, &DeviceQuery::onFinished);
    connect(&m_process, &QProcess::errorOccurred, this, &DeviceQuery::onError);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        m_timedOut = true;
        m_process.kill();
    });
}

DeviceQuery::~DeviceQuery()
{
    stop();
}

void DeviceQuery::setTimeout(std::chrono::milliseconds timeout)
{
    m_timeout.setInterval(timeout);
}

void DeviceQuery::stop()
{
    m_timeout.stop();
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.blockSignals(true); // an abandoned query reports nothing
    m_process.kill();
    m_process.waitForFinished(5000); // reap it: no zombie
    m_process.blockSignals(false);
}

void DeviceQuery::start(const QString& program)
{
    stop();
    m_timedOut = false;
    m_timeout.start();
    m_process.start(
        program, { QStringLiteral("devices"), QStringLiteral("--format"), QStringLiteral("json") });
}

QString DeviceQuery::stderrTail()
{
    const QByteArray err = m_process.readAllStandardError().trimmed();
    if (err.isEmpty())
        return {};
    return QStringLiteral(" It said: ") + QString::fromUtf8(err.right(kStderrShown));
}

void DeviceQuery::onError(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart)
        return; // crashes and kills arrive through finished()
    m_timeout.stop();
    emit failed(QStringLiteral("Could not start %1 to list the devices: %2")
                    .arg(m_process.program(), m_process.errorString()));
}

void DeviceQuery::onFinished(int exitCode, QProcess::ExitStatus status)
{
    m_timeout.stop();
    const QString program = m_process.program();
    if (m_timedOut) {
        emit failed(QStringLiteral("%1 devices did not answer within %2 s and was stopped.")
                        .arg(program)
                        .arg(static_cast<double>(m_timeout.interval()) / 1000.0));
        return;
    }
    if (status == QProcess::CrashExit) {
        emit failed(QStringLiteral("%1 devices crashed (signal %2) while looking for devices; a "
                                   "broken CUDA driver or LibTorch installation is the usual "
                                   "cause.")
                        .arg(program)
                        .arg(exitCode)
            + stderrTail());
        return;
    }
    if (exitCode != 0) {
        emit failed(
            QStringLiteral("%1 devices failed with exit code %2.").arg(program).arg(exitCode)
            + stderrTail());
        return;
    }
    const DeviceListParse parse = parseDeviceList(m_process.readAllStandardOutput());
    if (!parse.list) {
        emit failed(QStringLiteral("%1 devices printed something unexpected: %2.")
                        .arg(program, parse.error));
        return;
    }
    emit listed(*parse.list);
}

} // namespace gpuplan::benchview

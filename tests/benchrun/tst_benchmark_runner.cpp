// BenchmarkRunner against fake workers (bash scripts written per test) that emit progress and
// then finish, crash, get killed, hang, print garbage or ignore SIGTERM. The GUI's state must
// stay consistent, partial results must be kept, and no process may be left behind.

#include "app/benchrun/benchmark_runner.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using gpuplan::benchrun::BenchmarkRunner;
using gpuplan::benchrun::ProgressLine;
using namespace std::chrono_literals;

namespace {

// The shell functions every fake worker starts with (progress, results).
const QString kPrologue = QStringLiteral(GPUPLAN_TEST_DATA "/fake_worker_prologue.sh");

bool processGone(qint64 pid)
{
    return pid <= 0 || !QFile::exists(QStringLiteral("/proc/%1").arg(pid))
        || QFile(QStringLiteral("/proc/%1/status").arg(pid)).open(QIODevice::ReadOnly) == false;
}

} // namespace

class TestBenchmarkRunner : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir;

    QString worker(const QString& name, const QByteArray& body)
    {
        const QString path = dir.filePath(name + QStringLiteral(".sh"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write the fake worker");
        QFile prologue(kPrologue);
        if (!prologue.open(QIODevice::ReadOnly))
            qFatal("cannot read the fake worker prologue");
        f.write(prologue.readAll());
        f.write(body);
        f.close();
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return path;
    }

    QString resultsPath(const QString& name)
    {
        return dir.filePath(name + QStringLiteral(".yaml"));
    }

private slots:
    void initTestCase() { QVERIFY(dir.isValid()); }

    void successReportsProgressAndKeepsResults()
    {
        BenchmarkRunner runner;
        QSignalSpy progress(&runner, &BenchmarkRunner::progressed);
        QSignalSpy finished(&runner, &BenchmarkRunner::finished);
        const QString out = resultsPath(QStringLiteral("ok"));
        QVERIFY(runner.start(worker(QStringLiteral("ok"),
                                 "progress search 10\nprogress measure 60\nresults\n"
                                 "progress done 100\n"),
            { QStringLiteral("run"), QStringLiteral("--model"), QStringLiteral("pythia-160m") },
            out));
        QVERIFY(runner.isActive());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QCOMPARE(runner.state(), BenchmarkRunner::State::Finished);
        QCOMPARE(progress.size(), 3);
        const auto first = progress.first().first().value<ProgressLine>();
        QVERIFY(first.phase == gpuplan::ProgressPhase::Search);
        QCOMPARE(first.microBatchSize.value_or(0), qint64 { 4 });
        QCOMPARE(runner.lastProgress()->percent, 100.0);
        QVERIFY(runner.hasResults());
        QVERIFY(runner.outcome().startsWith(QStringLiteral("Finished in")));
        QVERIFY(processGone(runner.processId()));
    }

    void abnormalEndsKeepPartialResults_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("expected");
        QTest::addRow("segfault") << QByteArray("progress measure 40\nresults\nkill -SEGV $$\n")
                                  << "stopped abnormally";
        QTest::addRow("killed (OOM killer)")
            << QByteArray("progress measure 40\nresults\nkill -KILL $$\n") << "stopped abnormally";
        QTest::addRow("error exit") << QByteArray(
            "results\necho '{\"phase\": \"error\", \"configuration\": \"\", \"micro_batch_size\": "
            "null, "
            "\"percent\": 50, \"message\": \"CUDA error: an illegal memory access\"}'\nexit 3\n")
                                    << "exit code 3): CUDA error: an illegal memory access";
    }
    void abnormalEndsKeepPartialResults()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, expected);
        BenchmarkRunner runner;
        QSignalSpy finished(&runner, &BenchmarkRunner::finished);
        const QString name = QString::fromLatin1(QTest::currentDataTag()).split(' ').first();
        const QString out = resultsPath(name);
        runner.start(worker(name, body), {}, out);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QCOMPARE(runner.state(), BenchmarkRunner::State::Failed);
        QVERIFY2(runner.outcome().contains(expected), qPrintable(runner.outcome()));
        QVERIFY2(runner.outcome().contains(QStringLiteral("are kept in ") + out),
            qPrintable(runner.outcome()));
        QVERIFY(runner.hasResults());
        QVERIFY(processGone(runner.processId()));
    }

    void garbageIsLoggedNotFatal()
    {
        BenchmarkRunner runner;
        QSignalSpy log(&runner, &BenchmarkRunner::logLine);
        QSignalSpy progress(&runner, &BenchmarkRunner::progressed);
        QSignalSpy finished(&runner, &BenchmarkRunner::finished);
        runner.start(worker(QStringLiteral("garbage"),
                         "echo 'Loading model...'\nprintf '\\x01\\xff\\xfe binary\\n'\n"
                         "echo '[1, 2, 3]'\necho '{\"percent\": 5}'\necho '{\"phase\": '\n"
                         "head -c 200000 /dev/zero | tr '\\0' x\nsleep 0.3\necho\n"
                         "echo 'warning: reference BLAS' >&2\n"
                         "progress measure 50\nresults\n"),
            {}, resultsPath(QStringLiteral("garbage")));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QCOMPARE(runner.state(), BenchmarkRunner::State::Finished);
        QCOMPARE(progress.size(), 1);
        QStringList lines;
        for (const auto& args : log)
            lines << args.first().toString();
        QVERIFY(
            lines.contains(QStringLiteral("Unexpected output from the worker: Loading model...")));
        QVERIFY(lines.contains(QStringLiteral("warning: reference BLAS")));
        QVERIFY(!lines.filter(QStringLiteral("without a line break")).isEmpty());
        QVERIFY(lines.size() >= 6);
    }

    void hangIsDetectedAndStopped()
    {
        BenchmarkRunner runner;
        runner.setStallTimeout(400ms);
        QSignalSpy finished(&runner, &BenchmarkRunner::finished);
        runner.start(worker(QStringLiteral("hang"), "progress build 1\nexec sleep 60\n"), {},
            resultsPath(QStringLiteral("hang")));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
        QCOMPARE(runner.state(), BenchmarkRunner::State::Failed);
        QVERIFY(runner.outcome().contains(QStringLiteral("stopped responding")));
        QVERIFY(runner.outcome().contains(QStringLiteral("Nothing had been measured yet")));
        QVERIFY(processGone(runner.processId()));
    }

    void cancelStopsAWorkerThatIgnoresSigterm()
    {
        BenchmarkRunner runner;
        runner.setCancelGrace(300ms);
        QSignalSpy progress(&runner, &BenchmarkRunner::progressed);
        QSignalSpy finished(&runner, &BenchmarkRunner::finished);
        runner.start(worker(QStringLiteral("stubborn"),
                         "trap '' TERM\nprogress measure 30\nresults\n"
                         "while true; do sleep 0.05; done\n"),
            {}, resultsPath(QStringLiteral("stubborn")));
        QTRY_COMPARE_WITH_TIMEOUT(progress.size(), 1, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(runner.hasResults(), 5000);
        QElapsedTimer clock;
        clock.start();
        runner.cancel();
        QCOMPARE(runner.state(), BenchmarkRunner::State::Cancelling);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 1000); // within a second
        QVERIFY(clock.elapsed() < 1000);
        QCOMPARE(runner.state(), BenchmarkRunner::State::Cancelled);
        QVERIFY(runner.outcome().contains(QStringLiteral("are kept in")));
        QVERIFY(processGone(runner.processId()));
    }

    void cancelAWorkerThatStopsOnSigterm()
    {
        BenchmarkRunner runner;
        QSignalSpy finished(&runner, &BenchmarkRunner::finished);
        runner.start(worker(QStringLiteral("polite"), "progress measure 30\nexec sleep 60\n"), {},
            resultsPath(QStringLiteral("polite")));
        QTRY_VERIFY_WITH_TIMEOUT(runner.lastProgress().has_value(), 5000);
        runner.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 1000);
        QCOMPARE(runner.state(), BenchmarkRunner::State::Cancelled);
    }

    void missingProgramFailsWithAMessage()
    {
        BenchmarkRunner runner;
        QSignalSpy finished(&runner, &BenchmarkRunner::finished);
        runner.start(dir.filePath(QStringLiteral("no-such-worker")), {},
            resultsPath(QStringLiteral("none")));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
        QCOMPARE(runner.state(), BenchmarkRunner::State::Failed);
        QVERIFY(
            runner.outcome().startsWith(QStringLiteral("Could not start the benchmark worker")));
        QVERIFY(!runner.isActive());
    }

    void destroyingTheRunnerReapsTheWorker()
    {
        qint64 pid = 0;
        {
            BenchmarkRunner runner;
            runner.start(worker(QStringLiteral("orphan"), "progress build 1\nexec sleep 60\n"), {},
                resultsPath(QStringLiteral("orphan")));
            QTRY_VERIFY_WITH_TIMEOUT(runner.lastProgress().has_value(), 5000);
            pid = runner.processId();
            QVERIFY(pid > 0);
        }
        QVERIFY(processGone(pid));
    }

    void estimateOfTimeLeft()
    {
        BenchmarkRunner runner;
        QVERIFY(!runner.estimatedRemaining());
        QSignalSpy finished(&runner, &BenchmarkRunner::finished);
        runner.start(worker(QStringLiteral("slow"), "progress measure 25\nexec sleep 60\n"), {},
            resultsPath(QStringLiteral("slow")));
        QTRY_VERIFY_WITH_TIMEOUT(runner.lastProgress().has_value(), 5000);
        QTest::qWait(200);
        const auto left = runner.estimatedRemaining();
        QVERIFY(left);
        // 25% done after elapsed t: 3t remain.
        QVERIFY(qAbs(left->count() - 3 * runner.elapsed().count()) < 3 * 50 + 50);
        runner.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 2000);
    }
};

QTEST_GUILESS_MAIN(TestBenchmarkRunner)
#include "tst_benchmark_runner.moc"

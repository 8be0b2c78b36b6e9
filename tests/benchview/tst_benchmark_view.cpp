// The Benchmark view against a fake gpuplan-bench (fake_bench.sh) that lists devices or
// misbehaves, and runs that succeed, crash, get killed, abort, run out of memory, hang, print
// garbage, write an unusable results file or ignore SIGTERM. The view's state must stay
// consistent, measured configurations must be kept and saved, Cancel must end a run within a
// second, and no worker may outlive its run or the view.

#include "app/benchview/benchmark_view.h"
#include "app/benchview/device_query.h"
#include "pricing/catalog_loader.h"

#include "tests/support/golden.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/types.h>

using gpuplan::benchrun::BenchmarkRunner;
using gpuplan::benchview::BenchmarkView;
using gpuplan::benchview::DeviceQuery;
using namespace std::chrono_literals;

using gpuplan::testing::readAll;

namespace {
const QString kData = QStringLiteral(GPUPLAN_TEST_DATA "/data");

// Gone means reaped: a zombie keeps its /proc entry until its parent waits for it.
bool processGone(qint64 pid)
{
    return pid > 0 && !QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid));
}

template <typename T> T* child(QWidget& view, const char* name)
{
    T* widget = view.findChild<T*>(QString::fromLatin1(name));
    if (!widget)
        qFatal("the view has no %s", name);
    return widget;
}
} // namespace

class TestBenchmarkView : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir;
    std::shared_ptr<const gpuplan::Catalog> catalog
        = gpuplan::loadCatalog(gpuplan::shippedDataFiles()).catalog;
    QString fakeBench;

    QString resultsDir() const { return dir.filePath(QStringLiteral("user/results")); }
    QStringList savedFiles() const { return QDir(resultsDir()).entryList(QDir::Files, QDir::Name); }

    // A shown view whose device list (from the fake, FAKE_DEVICES=devices) has arrived.
    std::unique_ptr<BenchmarkView> openView(const QByteArray& devices)
    {
        qputenv("FAKE_DEVICES", devices);
        auto view = std::make_unique<BenchmarkView>(catalog);
        view->resize(1100, 760);
        view->show();
        return view;
    }

    static bool devicesListed(BenchmarkView& view)
    {
        return child<QComboBox>(view, "deviceBox")->count() > 0;
    }

    // Runs with FAKE_RUN=behaviour and returns the worker's process id, seen while it ran.
    static qint64 startRun(BenchmarkView& view, const QByteArray& behaviour)
    {
        qputenv("FAKE_RUN", behaviour);
        auto* runner = view.findChild<BenchmarkRunner*>(QStringLiteral("benchmarkRunner"));
        auto pid = std::make_shared<qint64>(0);
        QObject::connect(runner, &BenchmarkRunner::progressed, runner, [runner, pid] {
            if (*pid == 0)
                *pid = runner->processId();
        });
        child<QPushButton>(view, "runButton")->click();
        QTest::qWait(0);
        if (!QTest::qWaitFor([&] { return *pid != 0 || !runner->isActive(); }, 5000))
            qWarning("the fake worker reported no progress");
        return *pid;
    }

    static void verifyIdleControls(BenchmarkView& view)
    {
        QVERIFY(!view.isRunning());
        QVERIFY(child<QPushButton>(view, "runButton")->isEnabled());
        QVERIFY(!child<QPushButton>(view, "cancelButton")->isEnabled());
        QVERIFY(child<QComboBox>(view, "modelBox")->isEnabled());
        QVERIFY(child<QComboBox>(view, "deviceBox")->isEnabled());
        QVERIFY(child<QPushButton>(view, "importButton")->isEnabled());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir.isValid());
        fakeBench = dir.filePath(QStringLiteral("gpuplan-bench"));
        QVERIFY(QFile::copy(QStringLiteral(GPUPLAN_TEST_DATA "/fake_bench.sh"), fakeBench));
        QVERIFY(QFile::setPermissions(
            fakeBench, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        qputenv("FAKE_DATA", kData.toUtf8());
        qputenv("GPUPLAN_DATA_DIR", dir.filePath(QStringLiteral("user")).toUtf8());
    }

    void init()
    {
        qputenv("GPUPLAN_BENCH", fakeBench.toUtf8());
        qunsetenv("FAKE_ARGS_FILE");
        QDir(resultsDir()).removeRecursively();
    }

    void noGpuOffersACpuTrial()
    {
        auto view = openView("cpu");
        QTRY_VERIFY_WITH_TIMEOUT(devicesListed(*view), 5000);
        const QString banner = child<QLabel>(*view, "statusBanner")->text();
        QVERIFY2(banner.startsWith(QStringLiteral("No GPU found on this machine (LibTorch 1.13.1")),
            qPrintable(banner));
        QVERIFY(banner.contains(QStringLiteral("srun")));
        QVERIFY(banner.contains(QStringLiteral("Import results file")));
        auto* devices = child<QComboBox>(*view, "deviceBox");
        QCOMPARE(devices->count(), 1);
        QCOMPARE(devices->currentData().toString(), QStringLiteral("cpu"));
        auto* models = child<QComboBox>(*view, "modelBox");
        QCOMPARE(models->currentData().toString(), QStringLiteral("pythia-160m"));
        QCOMPARE(models->count(), 9); // every shipped model
        QVERIFY(models->findData(QStringLiteral("mamba-2.8b")) >= 0);
        QVERIFY(child<QCheckBox>(*view, "reducedRecipeBox")->isChecked());
        verifyIdleControls(*view);
    }

    void gpuIsPreselected()
    {
        auto view = openView("gpu");
        QTRY_VERIFY_WITH_TIMEOUT(devicesListed(*view), 5000);
        const QString banner = child<QLabel>(*view, "statusBanner")->text();
        QVERIFY2(banner.startsWith(
                     QStringLiteral("Found 2 GPU(s): NVIDIA H100 80GB HBM3, NVIDIA H100 80GB HBM3 "
                                    "(LibTorch 2.5.1).")),
            qPrintable(banner));
        auto* devices = child<QComboBox>(*view, "deviceBox");
        QCOMPARE(devices->count(), 3);
        QCOMPARE(devices->currentData().toString(), QStringLiteral("cuda:0"));
        QVERIFY(!child<QCheckBox>(*view, "reducedRecipeBox")->isChecked());
        devices->setCurrentIndex(devices->findData(QStringLiteral("cpu")));
        QVERIFY(child<QCheckBox>(*view, "reducedRecipeBox")->isChecked());
        verifyIdleControls(*view);
    }

    // 1 ... the GPUs here on a GPU, a choice of processes on the CPU; a strategy only with
    // more than one; the run starts one process per GPU with the chosen strategy.
    void gpuCountAndStrategy()
    {
        auto view = openView("gpu");
        QTRY_VERIFY_WITH_TIMEOUT(devicesListed(*view), 5000);
        auto* count = child<QSpinBox>(*view, "processCountBox");
        auto* strategy = child<QComboBox>(*view, "parallelismBox");
        QCOMPARE(count->value(), 1);
        QCOMPARE(count->maximum(), 2); // the fake lists two GPUs
        QVERIFY(!strategy->isEnabled());
        count->setValue(2);
        QVERIFY(strategy->isEnabled());
        strategy->setCurrentIndex(strategy->findData(QStringLiteral("zero3")));

        const QString argsFile = dir.filePath(QStringLiteral("args-multi.txt"));
        QFile::remove(argsFile);
        qputenv("FAKE_ARGS_FILE", argsFile.toUtf8());
        QSignalSpy saved(view.get(), &BenchmarkView::measurementsSaved);
        startRun(*view, "ok");
        QVERIFY(!count->isEnabled() || !view->isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(saved.size(), 1, 10000);
        const QString call = QString::fromUtf8(readAll(argsFile)).trimmed();
        QVERIFY2(call.startsWith(QStringLiteral("run --model pythia-160m --device cuda --methods "
                                                "free-lunch --nproc-per-node 2 --parallelism "
                                                "zero3 ")),
            qPrintable(call));

        auto* devices = child<QComboBox>(*view, "deviceBox");
        devices->setCurrentIndex(devices->findData(QStringLiteral("cpu")));
        QCOMPARE(count->maximum(), gpuplan::benchview::kMaxCpuProcesses);
    }

    void deviceListFailures_data()
    {
        QTest::addColumn<QByteArray>("behaviour");
        QTest::addColumn<QString>("expected");
        QTest::newRow("garbage") << QByteArray("garbage")
                                 << "printed something unexpected: the device list is not JSON";
        QTest::newRow("crash") << QByteArray("crash") << "devices crashed (signal 11)";
        QTest::newRow("error exit") << QByteArray(
            "fail") << "failed with exit code 2. It said: error: LibTorch could not initialise";
        QTest::newRow("hang") << QByteArray("hang") << "did not answer within 0.3 s";
    }
    void deviceListFailures()
    {
        QFETCH(QByteArray, behaviour);
        QFETCH(QString, expected);
        qputenv("FAKE_DEVICES", behaviour);
        BenchmarkView view(catalog);
        if (behaviour == "hang") // only here: a slow start of the others must not count as a hang
            view.findChild<DeviceQuery*>(QStringLiteral("deviceQuery"))->setTimeout(300ms);
        view.show();
        QTRY_VERIFY_WITH_TIMEOUT(devicesListed(view), 5000);
        const QString banner = child<QLabel>(view, "statusBanner")->text();
        QVERIFY2(
            banner.startsWith(QStringLiteral("Could not list the devices: ")), qPrintable(banner));
        QVERIFY2(banner.contains(expected), qPrintable(banner));
        auto* devices = child<QComboBox>(view, "deviceBox");
        QCOMPARE(devices->count(), 1);
        QCOMPARE(devices->currentData().toString(), QStringLiteral("cpu"));
        verifyIdleControls(view);
    }

    void missingBenchIsSaidPlainly()
    {
        qputenv("GPUPLAN_BENCH", dir.filePath(QStringLiteral("no-such-bench")).toUtf8());
        auto view = openView("cpu");
        const QString banner = child<QLabel>(*view, "statusBanner")->text();
        QVERIFY2(banner.startsWith(QStringLiteral("GPUPLAN_BENCH is set to ")
                     + dir.filePath(QStringLiteral("no-such-bench"))
                     + QStringLiteral(", which is not an executable file.")),
            qPrintable(banner));
        QVERIFY(banner.contains(QStringLiteral("can still be imported")));
        QVERIFY(!child<QPushButton>(*view, "runButton")->isEnabled());
        QVERIFY(child<QPushButton>(*view, "importButton")->isEnabled());
        QCOMPARE(child<QComboBox>(*view, "deviceBox")->count(), 0);
    }

    void successfulRunIsSavedAndAnnounced()
    {
        auto view = openView("cpu");
        QTRY_VERIFY_WITH_TIMEOUT(devicesListed(*view), 5000);
        const QString argsFile = dir.filePath(QStringLiteral("args.txt"));
        QFile::remove(argsFile);
        qputenv("FAKE_ARGS_FILE", argsFile.toUtf8());
        QSignalSpy saved(view.get(), &BenchmarkView::measurementsSaved);
        startRun(*view, "ok");
        QTRY_COMPARE_WITH_TIMEOUT(saved.size(), 1, 10000);

        const QString path = saved.first().first().toString();
        QCOMPARE(QFileInfo(path).absolutePath(), resultsDir());
        QVERIFY2(QFileInfo(path).fileName().startsWith(QStringLiteral("pythia-160m-cpu-")),
            qPrintable(path));
        QVERIFY(path.endsWith(QStringLiteral("Z.yaml")));
        QCOMPARE(readAll(path), readAll(kData + QStringLiteral("/results-complete.yaml")));
        QCOMPARE(savedFiles().size(), 1);

        QCOMPARE(child<QProgressBar>(*view, "progressBar")->value(), 100);
        QCOMPARE(child<QLabel>(*view, "phaseLabel")->text(), QStringLiteral("Finished."));
        const QString outcome = child<QLabel>(*view, "outcomeLabel")->text();
        QVERIFY2(outcome.startsWith(QStringLiteral("Finished in ")), qPrintable(outcome));
        QVERIFY2(outcome.endsWith(QStringLiteral("results saved to ") + path + QLatin1Char('.')),
            qPrintable(outcome));
        const QString summary = child<QLabel>(*view, "summaryLabel")->text();
        QVERIFY2(summary.contains(QStringLiteral("(micro-batch 4, accumulation 2)")),
            qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("Step time: 1.25 s")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("Validation error: 2.3%")), qPrintable(summary));
        QVERIFY(
            child<QLabel>(*view, "timeLabel")->text().startsWith(QStringLiteral("Elapsed 0:0")));
        const QString log = child<QPlainTextEdit>(*view, "logView")->toPlainText();
        QVERIFY2(log.contains(QStringLiteral(
                     "[ 20.0%] Searching the largest micro-batch: free-lunch ckpt=off "
                     "offload=off, micro-batch 4 - trying micro-batch 4")),
            qPrintable(log));
        verifyIdleControls(*view);

        const QStringList calls
            = QString::fromUtf8(readAll(argsFile)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(calls.size(), 1); // the device list was asked before FAKE_ARGS_FILE was set
        QVERIFY2(calls.first().startsWith(
                     QStringLiteral("run --model pythia-160m --device cpu --methods free-lunch "
                                    "--batch-size 8 --seq-len 128 --validate 2 "
                                    "--progress jsonl --out ")),
            qPrintable(calls.first()));
    }

    void failuresKeepWhatWasMeasured_data()
    {
        QTest::addColumn<QByteArray>("behaviour");
        QTest::addColumn<QString>("expected");
        QTest::newRow("crash") << QByteArray("crash") << "it crashed (segmentation fault";
        QTest::newRow("killed") << QByteArray(
            "killed") << "it was killed (SIGKILL), most often by the system's out-of-memory killer";
        QTest::newRow("abort") << QByteArray("abort") << "it aborted (SIGABRT)";
        QTest::newRow("out of memory")
            << QByteArray("out-of-memory")
            << "The benchmark failed (exit code 3): CPU out of memory: micro-batch 1 "
               "does not fit under the memory limit.";
        QTest::newRow("hang") << QByteArray("hang") << "stopped responding (no output for 1.5 s)";
    }
    void failuresKeepWhatWasMeasured()
    {
        QFETCH(QByteArray, behaviour);
        QFETCH(QString, expected);
        auto view = openView("cpu");
        QTRY_VERIFY_WITH_TIMEOUT(devicesListed(*view), 5000);
        // Long enough for a loaded CI machine to start bash and write the partial results.
        view->findChild<BenchmarkRunner*>(QStringLiteral("benchmarkRunner"))
            ->setStallTimeout(1500ms);
        QSignalSpy saved(view.get(), &BenchmarkView::measurementsSaved);
        const qint64 pid = startRun(*view, behaviour);
        QTRY_COMPARE_WITH_TIMEOUT(saved.size(), 1, 10000);

        const QString path = saved.first().first().toString();
        QCOMPARE(readAll(path), readAll(kData + QStringLiteral("/results-partial.yaml")));
        QCOMPARE(child<QLabel>(*view, "phaseLabel")->text(), QStringLiteral("Failed."));
        const QString outcome = child<QLabel>(*view, "outcomeLabel")->text();
        QVERIFY2(outcome.contains(expected), qPrintable(outcome));
        QVERIFY2(
            outcome.endsWith(QStringLiteral("The configurations measured before that are kept in ")
                + path + QLatin1Char('.')),
            qPrintable(outcome));
        const QString summary = child<QLabel>(*view, "summaryLabel")->text();
        QVERIFY2(summary.contains(QStringLiteral(
                     "naive mbs=2 ckpt=off offload=off (micro-batch 2, accumulation 4)")),
            qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("results file is partial")), qPrintable(summary));
        verifyIdleControls(*view);
        QVERIFY(processGone(pid));
    }

    void garbageOnStdoutIsLoggedNotFatal()
    {
        auto view = openView("cpu");
        QTRY_VERIFY_WITH_TIMEOUT(devicesListed(*view), 5000);
        QSignalSpy saved(view.get(), &BenchmarkView::measurementsSaved);
        startRun(*view, "garbage");
        QTRY_COMPARE_WITH_TIMEOUT(saved.size(), 1, 10000);
        const QString log = child<QPlainTextEdit>(*view, "logView")->toPlainText();
        QVERIFY2(
            log.contains(QStringLiteral("Unexpected output from the worker: Loading model...")),
            qPrintable(log));
        QVERIFY(log.contains(QStringLiteral("Unexpected output from the worker: {\"phase\":")));
        QVERIFY(log.contains(QStringLiteral("Unexpected output from the worker: [1, 2]")));
        QCOMPARE(child<QLabel>(*view, "phaseLabel")->text(), QStringLiteral("Finished."));
        verifyIdleControls(*view);
    }

    void unusableResultsAreNotSaved_data()
    {
        QTest::addColumn<QByteArray>("behaviour");
        QTest::addColumn<QString>("summary");
        QTest::addColumn<QString>("outcome");
        QTest::newRow("garbage results file")
            << QByteArray("bad-results")
            << "The worker's results file cannot be used, so nothing was saved:"
            << "Finished in";
        QTest::newRow("no results file")
            << QByteArray("no-results") << "No configuration was measured, so nothing was saved."
            << "The benchmark worker finished without writing";
    }
    void unusableResultsAreNotSaved()
    {
        QFETCH(QByteArray, behaviour);
        QFETCH(QString, summary);
        QFETCH(QString, outcome);
        auto view = openView("cpu");
        QTRY_VERIFY_WITH_TIMEOUT(devicesListed(*view), 5000);
        QSignalSpy saved(view.get(), &BenchmarkView::measurementsSaved);
        startRun(*view, behaviour);
        QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 10000);
        QCOMPARE(saved.size(), 0);
        QVERIFY(savedFiles().isEmpty());
        QVERIFY2(child<QLabel>(*view, "summaryLabel")->text().startsWith(summary),
            qPrintable(child<QLabel>(*view, "summaryLabel")->text()));
        QVERIFY2(child<QLabel>(*view, "outcomeLabel")->text().startsWith(outcome),
            qPrintable(child<QLabel>(*view, "outcomeLabel")->text()));
        verifyIdleControls(*view);
    }

    void cancelEndsARunWithinASecond()
    {
        auto view = openView("cpu");
        QTRY_VERIFY_WITH_TIMEOUT(devicesListed(*view), 5000);
        QSignalSpy saved(view.get(), &BenchmarkView::measurementsSaved);
        auto* runner = view->findChild<BenchmarkRunner*>(QStringLiteral("benchmarkRunner"));
        const qint64 pid = startRun(*view, "stubborn"); // ignores SIGTERM: needs the kill
        QTRY_VERIFY_WITH_TIMEOUT(runner->hasResults(), 5000);
        // What is measured shows while the run goes on.
        QTRY_VERIFY_WITH_TIMEOUT(child<QLabel>(*view, "summaryLabel")
                                     ->text()
                                     .startsWith(QStringLiteral("Measured so far")),
            3000);
        QVERIFY(child<QLabel>(*view, "summaryLabel")
                    ->text()
                    .contains(QStringLiteral("(micro-batch 2, accumulation 4)")));
        auto* cancel = child<QPushButton>(*view, "cancelButton");
        QVERIFY(cancel->isEnabled());
        QVERIFY(!child<QPushButton>(*view, "runButton")->isEnabled());
        QVERIFY(!child<QComboBox>(*view, "modelBox")->isEnabled());
        QVERIFY(view->isRunning());

        QElapsedTimer clock;
        clock.start();
        cancel->click();
        QVERIFY(!cancel->isEnabled());
        QCOMPARE(child<QLabel>(*view, "phaseLabel")->text(), QStringLiteral("Cancelling..."));
        QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 1000);
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(runner->state(), BenchmarkRunner::State::Cancelled);
        QCOMPARE(child<QLabel>(*view, "phaseLabel")->text(), QStringLiteral("Cancelled."));
        QVERIFY(child<QLabel>(*view, "outcomeLabel")
                    ->text()
                    .startsWith(QStringLiteral("Cancelled. The configurations")));
        QCOMPARE(saved.size(), 1);
        QCOMPARE(readAll(saved.first().first().toString()),
            readAll(kData + QStringLiteral("/results-partial.yaml")));
        verifyIdleControls(*view);
        QVERIFY(processGone(pid));
    }

    // What the main window does on quit: the worker (here one that ignores SIGTERM) is stopped,
    // and what it measured is saved in the user data dir before the view goes away.
    void stopAndKeepResultsSavesBeforeQuitting()
    {
        auto view = openView("cpu");
        QTRY_VERIFY_WITH_TIMEOUT(devicesListed(*view), 5000);
        auto* runner = view->findChild<BenchmarkRunner*>(QStringLiteral("benchmarkRunner"));
        const qint64 pid = startRun(*view, "stubborn");
        QTRY_VERIFY_WITH_TIMEOUT(runner->hasResults(), 5000);
        QVERIFY(savedFiles().isEmpty());

        QElapsedTimer clock;
        clock.start();
        QVERIFY(view->stopAndKeepResults(5s));
        QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(!view->isRunning());
        QCOMPARE(savedFiles().size(), 1);
        QCOMPARE(readAll(resultsDir() + QLatin1Char('/') + savedFiles().first()),
            readAll(kData + QStringLiteral("/results-partial.yaml")));
        // Validation was asked for (2 steps) but never reached: said so, not "not checked".
        const QString summary = child<QLabel>(*view, "summaryLabel")->text();
        QVERIFY2(summary.contains(QStringLiteral(
                     "Validation error: not measured (the run stopped before validation)")),
            qPrintable(summary));
        view.reset();
        QVERIFY(processGone(pid));
        QCOMPARE(savedFiles().size(), 1); // the destructor neither removed nor added one
        // Not running: nothing to stop, nothing to wait for.
        auto idle = openView("cpu");
        QVERIFY(idle->stopAndKeepResults(5s));
    }

    void elapsedAndRemainingTimeAreShown()
    {
        auto view = openView("cpu");
        QTRY_VERIFY_WITH_TIMEOUT(devicesListed(*view), 5000);
        startRun(*view, "slow");
        auto* progress = child<QProgressBar>(*view, "progressBar");
        QTRY_COMPARE_WITH_TIMEOUT(progress->value(), 20, 5000);
        // 20% done: the rest is estimated at four times the time so far.
        QTRY_VERIFY_WITH_TIMEOUT(
            child<QLabel>(*view, "timeLabel")->text().contains(QStringLiteral("left")), 3000);
        QVERIFY(
            child<QLabel>(*view, "timeLabel")->text().startsWith(QStringLiteral("Elapsed 0:0")));
        QCOMPARE(child<QLabel>(*view, "phaseLabel")->text(),
            QStringLiteral("Measuring: free-lunch ckpt=off offload=off, micro-batch 4"));
        child<QPushButton>(*view, "cancelButton")->click();
        QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 1000);
        QVERIFY(child<QLabel>(*view, "summaryLabel")
                    ->text()
                    .startsWith(QStringLiteral("No configuration was measured")));
    }

    void closingTheViewReapsTheWorker()
    {
        auto view = openView("cpu");
        QTRY_VERIFY_WITH_TIMEOUT(devicesListed(*view), 5000);
        const qint64 pid = startRun(*view, "slow");
        QVERIFY(pid > 0);
        QVERIFY(!processGone(pid));
        view.reset();
        QVERIFY(processGone(pid));
    }

    void importChecksAndSavesAFile()
    {
        auto view = openView("cpu");
        QSignalSpy saved(view.get(), &BenchmarkView::measurementsSaved);
        const QString valid = QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/measured/data/valid.yaml");
        QVERIFY(view->importResults(valid));
        QCOMPARE(saved.size(), 1);
        QCOMPARE(readAll(saved.first().first().toString()), readAll(valid));
        QVERIFY(child<QLabel>(*view, "summaryLabel")
                    ->text()
                    .startsWith(QStringLiteral("Model: Pythia-1B")));
        QVERIFY(child<QLabel>(*view, "outcomeLabel")
                    ->text()
                    .startsWith(QStringLiteral("Imported ") + valid));

        const QString broken
            = QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/measured/data/truncated/input.yaml");
        QVERIFY(!view->importResults(broken));
        QCOMPARE(saved.size(), 1);
        const QString outcome = child<QLabel>(*view, "outcomeLabel")->text();
        QVERIFY2(outcome.startsWith(broken
                     + QStringLiteral(" is not a usable gpuplan-bench results file:\n") + broken
                     + QLatin1Char(':')),
            qPrintable(outcome));
        QCOMPARE(savedFiles().size(), 1);
    }

    // Opt-in end-to-end check with the real gpuplan-bench (GPUPLAN_REAL_BENCH=path): lists the
    // devices and measures Pythia-160M's reduced recipe on the CPU, which takes minutes.
    void realBenchmarkOnTheCpu()
    {
        const QString real = qEnvironmentVariable("GPUPLAN_REAL_BENCH");
        if (real.isEmpty())
            QSKIP("set GPUPLAN_REAL_BENCH to the built gpuplan-bench to run it for real");
        qputenv("GPUPLAN_BENCH", real.toUtf8());
        auto view = openView("");
        QTRY_VERIFY_WITH_TIMEOUT(devicesListed(*view), 60000);
        qInfo().noquote() << child<QLabel>(*view, "statusBanner")->text();
        child<QComboBox>(*view, "deviceBox")
            ->setCurrentIndex(
                child<QComboBox>(*view, "deviceBox")->findData(QStringLiteral("cpu")));
        child<QSpinBox>(*view, "validationStepsBox")->setValue(1);
        QSignalSpy saved(view.get(), &BenchmarkView::measurementsSaved);
        child<QPushButton>(*view, "runButton")->click();
        QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 590000);
        qInfo().noquote() << child<QPlainTextEdit>(*view, "logView")->toPlainText();
        qInfo().noquote() << child<QLabel>(*view, "outcomeLabel")->text();
        qInfo().noquote() << child<QLabel>(*view, "summaryLabel")->text();
        QCOMPARE(saved.size(), 1);
        QCOMPARE(child<QProgressBar>(*view, "progressBar")->value(), 100);
    }

    // Not a check: with GPUPLAN_SCREENSHOT_DIR and GPUPLAN_REAL_BENCH set, run under Xvfb
    // (docs/benchmark-view.md), saves the view in its main states as the docs' screenshots. A
    // real gpuplan-bench measures Pythia-160M's reduced recipe on the CPU, so every number and
    // name shown is real; the user data dir is the default one under $HOME, as a user has it.
    // "Failed" is a real run ended by SIGKILL, as the out-of-memory killer ends one.
    void screenshots()
    {
        const QString out = qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR");
        const QString real = qEnvironmentVariable("GPUPLAN_REAL_BENCH");
        if (out.isEmpty() || real.isEmpty())
            QSKIP("set GPUPLAN_SCREENSHOT_DIR and GPUPLAN_REAL_BENCH to save the docs' "
                  "screenshots");
        qputenv("GPUPLAN_BENCH", real.toUtf8());
        qunsetenv("GPUPLAN_DATA_DIR"); // ~/.local/share/gpuplan, as a user's
        // The worker's temporary folder is named after the application, as in the planner.
        QCoreApplication::setApplicationName(QStringLiteral("gpuplan"));
        const auto save = [&](BenchmarkView& view, const char* name) {
            QTest::qWait(300); // let the labels settle
            QVERIFY(view.grab().save(
                out + QStringLiteral("/benchmark-%1.png").arg(QLatin1String(name))));
        };
        auto view = openView("");
        QTRY_VERIFY_WITH_TIMEOUT(devicesListed(*view), 60000);
        save(*view, "no-gpu");

        // Running, then finished: one measurement of the trial model the view preselects.
        auto* progress = child<QProgressBar>(*view, "progressBar");
        child<QSpinBox>(*view, "validationStepsBox")->setValue(1);
        child<QPushButton>(*view, "runButton")->click();
        QTRY_VERIFY_WITH_TIMEOUT(progress->value() >= 35 || !view->isRunning(), 300000);
        QTest::qWait(1500); // an elapsed time and an estimate worth showing
        save(*view, "running");
        QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 590000);
        QCOMPARE(progress->value(), 100);
        save(*view, "finished");

        // Failed: the same run, killed with SIGKILL part-way.
        auto* runner = view->findChild<BenchmarkRunner*>(QStringLiteral("benchmarkRunner"));
        child<QPushButton>(*view, "runButton")->click();
        QTRY_VERIFY_WITH_TIMEOUT(progress->value() >= 20 || !view->isRunning(), 300000);
        QVERIFY(view->isRunning());
        QVERIFY(::kill(static_cast<pid_t>(runner->processId()), SIGKILL) == 0);
        QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 5000);
        save(*view, "failed");
    }
};

QTEST_MAIN(TestBenchmarkView)
#include "tst_benchmark_view.moc"

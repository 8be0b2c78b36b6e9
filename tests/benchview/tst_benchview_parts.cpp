// The Benchmark view's parts without widgets: the device list of `gpuplan-bench devices`, the
// run arguments, results file names, storing into the user results dir, and the summary read
// back with the planner's reader.

#include "app/benchview/device_list.h"
#include "app/benchview/progress_text.h"
#include "app/benchview/result_summary.h"
#include "app/benchview/results_store.h"
#include "app/benchview/run_request.h"
#include "pricing/catalog_loader.h"

#include "tests/support/golden.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuplan;
using gpuplan::testing::readAll;
using namespace gpuplan::benchview;
using namespace std::chrono_literals;

namespace {
const QString kData = QStringLiteral(GPUPLAN_TEST_DATA "/data");

} // namespace

class TestBenchviewParts : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir;
    std::shared_ptr<const Catalog> catalog = loadCatalog(shippedDataFiles()).catalog;

    QString resultsDir() const { return dir.filePath(QStringLiteral("user/results")); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir.isValid());
        qputenv("GPUPLAN_DATA_DIR", dir.filePath(QStringLiteral("user")).toUtf8());
    }

    void init() { QDir(resultsDir()).removeRecursively(); }

    void deviceListWithGpus()
    {
        const DeviceListParse parse
            = parseDeviceList(readAll(kData + QStringLiteral("/devices-gpu.json")));
        QVERIFY2(parse.list.has_value(), qPrintable(parse.error));
        const DeviceList& list = *parse.list;
        QCOMPARE(list.devices.size(), 3);
        QVERIFY(list.hasGpu());
        QVERIFY(list.cudaAvailable);
        QCOMPARE(list.libtorch, QStringLiteral("2.5.1"));
        QCOMPARE(list.blas, QStringLiteral("openblas"));
        const BenchDevice* gpu = list.firstGpu();
        QVERIFY(gpu != nullptr);
        QCOMPARE(gpu->index, 0);
        QCOMPARE(gpu->gpuId, QStringLiteral("h100-80gb-sxm"));
        QCOMPARE(gpu->memoryBytes, qint64 { 85029158912 });
        QCOMPARE(gpu->computeCapability, QStringLiteral("9.0"));
        QCOMPARE(gpu->bf16PeakTflops.value_or(0.0), 989.0);
        QCOMPARE(gpu->deviceArgument(), QStringLiteral("cuda:0"));
        QCOMPARE(gpu->label(), QStringLiteral("cuda:0  NVIDIA H100 80GB HBM3, 79.2 GiB"));
        QCOMPARE(list.devices[1].deviceArgument(), QStringLiteral("cuda:1"));
        QCOMPARE(list.devices[2].deviceArgument(), QStringLiteral("cpu"));
        QVERIFY(!list.devices[2].bf16PeakTflops.has_value());
    }

    void deviceListCpuOnly()
    {
        const DeviceListParse parse
            = parseDeviceList(readAll(kData + QStringLiteral("/devices-cpu.json")));
        QVERIFY2(parse.list.has_value(), qPrintable(parse.error));
        QCOMPARE(parse.list->devices.size(), 1);
        QVERIFY(!parse.list->hasGpu());
        QVERIFY(parse.list->firstGpu() == nullptr);
        QVERIFY(!parse.list->cudaAvailable);
        QCOMPARE(
            parse.list->devices[0].label(), QStringLiteral("cpu  Test CPU (2 threads), 8.0 GiB"));
    }

    void deviceListWarningsAreKept()
    {
        const auto parse = parseDeviceList(
            R"({"devices": [{"index": -1, "kind": "cpu", "name": "cpu", "memory_bytes": 0}],
                "warnings": ["LibTorch runs on the reference BLAS", ""]})");
        QVERIFY(parse.list.has_value());
        QCOMPARE(parse.list->warnings,
            QStringList { QStringLiteral("LibTorch runs on the reference BLAS") });
        QCOMPARE(parse.list->devices[0].label(), QStringLiteral("cpu  cpu"));
    }

    void deviceListGarbage_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty output") << QByteArray() << "not JSON";
        QTest::newRow("a crash message")
            << QByteArray("Segmentation fault (core dumped)\n") << "not JSON";
        QTest::newRow("truncated") << QByteArray(R"({"devices": [{"index": 0,)") << "not JSON";
        QTest::newRow("an array") << QByteArray("[1, 2]") << "no \"devices\" array";
        QTest::newRow("devices not a list")
            << QByteArray(R"({"devices": 3})") << "no \"devices\" array";
        QTest::newRow("no devices") << QByteArray(R"({"devices": []})") << "empty";
        QTest::newRow("unknown kind")
            << QByteArray(R"({"devices": [{"index": 0, "kind": "tpu", "name": "x"}]})")
            << "device 1 of the device list is unusable: kind must be \"cuda\" or \"cpu\", not "
               "\"tpu\"";
        QTest::newRow("no name") << QByteArray(R"({"devices": [{"index": -1, "kind": "cpu"}]})")
                                 << "device 1 of the device list is unusable: it has no name";
        QTest::newRow("no index") << QByteArray(
            R"({"devices": [{"kind": "cpu", "name": "c"}, {"kind": "cpu", "name": "c"}]})")
                                  << "device 1 of the device list is unusable: it has no index";
        QTest::newRow("negative cuda index")
            << QByteArray(R"({"devices": [{"index": -1, "kind": "cpu", "name": "c"},
                                          {"index": -1, "kind": "cuda", "name": "g"}]})")
            << "device 2 of the device list is unusable: a CUDA device needs an index";
    }
    void deviceListGarbage()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        const DeviceListParse parse = parseDeviceList(json);
        QVERIFY(!parse.list.has_value());
        QVERIFY2(parse.error.contains(expected), qPrintable(parse.error));
    }

    void runArguments()
    {
        RunRequest trial;
        trial.modelId = QStringLiteral("pythia-160m");
        trial.reducedRecipe = true;
        trial.validationSteps = 2;
        QCOMPARE(benchRunArguments(trial).join(QLatin1Char(' ')),
            QStringLiteral("run --model pythia-160m --device cpu --methods free-lunch "
                           "--batch-size 8 --seq-len 128 --validate 2"));

        RunRequest own;
        own.configFile = QStringLiteral("/data/my model/config.json");
        own.methods = QStringLiteral("all");
        own.device = QStringLiteral("cuda:1");
        QCOMPARE(benchRunArguments(own),
            (QStringList { QStringLiteral("run"), QStringLiteral("--config"),
                QStringLiteral("/data/my model/config.json"), QStringLiteral("--device"),
                QStringLiteral("cuda:1"), QStringLiteral("--methods"), QStringLiteral("all") }));

        // Several GPUs: every rank takes its own, so the device is "cuda", not the one shown.
        RunRequest multi;
        multi.modelId = QStringLiteral("pythia-1b");
        multi.device = QStringLiteral("cuda:0");
        multi.processes = 4;
        multi.parallelism = QStringLiteral("all");
        QCOMPARE(benchRunArguments(multi).join(QLatin1Char(' ')),
            QStringLiteral("run --model pythia-1b --device cuda --methods free-lunch "
                           "--nproc-per-node 4 --parallelism all"));
        RunRequest cpuRanks = trial;
        cpuRanks.processes = 2;
        QVERIFY(benchRunArguments(cpuRanks)
                    .join(QLatin1Char(' '))
                    .contains(QStringLiteral("--device cpu --methods free-lunch --nproc-per-node 2 "
                                             "--parallelism ddp")));
    }

    void fileNames_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("expected");
        QTest::newRow("shipped on cpu") << "pythia-160m"
                                        << "cpu"
                                        << "pythia-160m-cpu-20261122T230512Z.yaml";
        QTest::newRow("custom on a gpu")
            << "custom:My Model/v2"
            << "NVIDIA H100 80GB HBM3"
            << "custom-my-model-v2-nvidia-h100-80gb-hbm3-20261122T230512Z.yaml";
        QTest::newRow("nothing usable") << "../.."
                                        << ""
                                        << "model-device-20261122T230512Z.yaml";
        QTest::newRow("very long")
            << QString(100, QLatin1Char('a')) << "h100-80gb-sxm"
            << QString(48, QLatin1Char('a')) + "-h100-80gb-sxm-20261122T230512Z.yaml";
    }
    void fileNames()
    {
        QFETCH(QString, model);
        QFETCH(QString, device);
        QFETCH(QString, expected);
        const QDateTime when(QDate(2026, 11, 22), QTime(23, 5, 12), Qt::UTC);
        QCOMPARE(resultsFileName(model, device, when), expected);
        // The same instant in another time zone names the same file.
        QCOMPARE(resultsFileName(model, device, when.toOffsetFromUtc(3600 * 5)), expected);
    }

    void durations()
    {
        QCOMPARE(formatDuration(0ms), QStringLiteral("0:00"));
        QCOMPARE(formatDuration(7900ms), QStringLiteral("0:07"));
        QCOMPARE(formatDuration(750s), QStringLiteral("12:30"));
        QCOMPARE(formatDuration(3723s), QStringLiteral("1:02:03"));
        QCOMPARE(formatDuration(-5s), QStringLiteral("0:00"));
    }

    void progressInWords()
    {
        benchrun::ProgressLine p;
        p.phase = ProgressPhase::Search;
        p.configuration = QStringLiteral("free-lunch ckpt=off");
        p.microBatchSize = 32;
        QCOMPARE(describeProgress(p),
            QStringLiteral(
                "Searching the largest micro-batch: free-lunch ckpt=off, micro-batch 32"));
        p = {};
        p.phase = ProgressPhase::Done;
        QCOMPARE(describeProgress(p), QStringLiteral("Done"));
        p.phase = ProgressPhase::Launch;
        QCOMPARE(describeProgress(p), QStringLiteral("Starting one process per GPU"));
        // Every phase of the protocol has words of its own.
        QSet<QString> words;
        for (ProgressPhase phase : kProgressPhases)
            words.insert(phaseText(phase));
        QCOMPARE(words.size(), static_cast<qsizetype>(kProgressPhases.size()));
        QVERIFY(!words.contains(QString()));
    }

    void storeIsAtomicAndNeverOverwrites()
    {
        const QString source = kData + QStringLiteral("/results-complete.yaml");
        const StoredResults first
            = storeResultsFile(source, QStringLiteral("pythia-160m-cpu-20261122T230512Z.yaml"));
        QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
        QCOMPARE(
            first.path, resultsDir() + QStringLiteral("/pythia-160m-cpu-20261122T230512Z.yaml"));
        QCOMPARE(readAll(first.path), readAll(source));

        const StoredResults second
            = storeResultsFile(kData + QStringLiteral("/results-partial.yaml"),
                QStringLiteral("pythia-160m-cpu-20261122T230512Z.yaml"));
        QCOMPARE(
            second.path, resultsDir() + QStringLiteral("/pythia-160m-cpu-20261122T230512Z-2.yaml"));
        QCOMPARE(readAll(first.path), readAll(source)); // untouched
        QCOMPARE(readAll(second.path), readAll(kData + QStringLiteral("/results-partial.yaml")));
        // QSaveFile leaves no temporary file behind.
        QCOMPARE(QDir(resultsDir()).entryList(QDir::Files).size(), 2);
    }

    void storeReportsAMissingSource()
    {
        const StoredResults stored
            = storeResultsFile(dir.filePath(QStringLiteral("gone.yaml")), QStringLiteral("x.yaml"));
        QVERIFY(stored.path.isEmpty());
        QVERIFY2(
            stored.error.startsWith(QStringLiteral("Could not read ")), qPrintable(stored.error));
    }

    void importChecksTheFileFirst()
    {
        const QString valid = QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/measured/data/valid.yaml");
        const StoredResults stored = importResultsFile(valid, *catalog);
        QVERIFY2(stored.error.isEmpty(), qPrintable(stored.error));
        QVERIFY2(QFileInfo(stored.path)
                     .fileName()
                     .startsWith(QStringLiteral("pythia-1b-h100-80gb-sxm-")),
            qPrintable(stored.path));
        QCOMPARE(readAll(stored.path), readAll(valid));

        const QString broken
            = QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/measured/data/nan-days/input.yaml");
        const StoredResults refused = importResultsFile(broken, *catalog);
        QVERIFY(refused.path.isEmpty());
        QVERIFY2(
            refused.error.contains(QStringLiteral("is not a usable gpuplan-bench results file")),
            qPrintable(refused.error));
        QVERIFY2(refused.error.contains(broken + QLatin1Char(':')),
            qPrintable(refused.error)); // file:line:column
        QCOMPARE(QDir(resultsDir()).entryList(QDir::Files).size(), 1);
    }

    void summaryOfACompleteRun()
    {
        const ResultSummary s
            = summarizeResultsFile(kData + QStringLiteral("/results-complete.yaml"), *catalog);
        QVERIFY2(s.readable, qPrintable(s.error));
        QCOMPARE(s.best.configuration,
            std::string("free-lunch mbs=4 ckpt=off offload=off (micro-batch 4, accumulation 2)"));
        QCOMPARE(s.best.trainingDays, 2.069);
        QCOMPARE(s.workload.globalBatch, 8);
        // Step time = training days x 86400 / steps, as gpuplan-bench computed the days.
        QVERIFY(qAbs(s.stepSeconds - 2.069 * 86400.0 / 143000.0) < 1e-12);
        const QString text = s.text();
        QVERIFY2(text.contains(
                     QStringLiteral("Best configuration: free-lunch mbs=4 ckpt=off offload=off "
                                    "(micro-batch 4, accumulation 2)")),
            qPrintable(text));
        QVERIFY2(
            text.contains(QStringLiteral("Step time: 1.25 s per optimizer step (global batch 8)")),
            qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral(
                     "Training time for 143,000 steps: 2.1 days (2.0 days to 2.2 days)")),
            qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral(
                     "Implied utilisation: unknown (no peak is known for this device)")),
            qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Validation error: 2.3%")), qPrintable(text));
        // A reduced recipe is a model of its own in the planner, and the summary says so.
        QVERIFY2(
            text.contains(QStringLiteral("recipe differs from the shipped Pythia-160M recipe")),
            qPrintable(text));
    }

    void summaryOfAPartialRunUsesWhatWasMeasured()
    {
        const ResultSummary s
            = summarizeResultsFile(kData + QStringLiteral("/results-partial.yaml"), *catalog);
        QVERIFY2(s.readable, qPrintable(s.error));
        QCOMPARE(s.best.configuration,
            std::string("naive mbs=2 ckpt=off offload=off (micro-batch 2, accumulation 4)"));
        QVERIFY(!s.warnings.filter(QStringLiteral("partial")).isEmpty());
        QVERIFY(s.text().contains(QStringLiteral("Validation error: not checked")));
    }

    // A validation error says what it compared: a block extrapolated to a step, or the whole
    // step timed again (as the planner's note says).
    void validationTextSaysWhatWasCompared()
    {
        ResultSummary s
            = summarizeResultsFile(kData + QStringLiteral("/results-partial.yaml"), *catalog);
        QVERIFY2(s.readable, qPrintable(s.error));
        s.best.validationError = 0.036;
        QCOMPARE(s.validationText(), QStringLiteral("3.6% (extrapolated vs measured step time)"));
        s.best.validationExtrapolated = false;
        QCOMPARE(s.validationText(),
            QStringLiteral("3.6% (whole steps timed: a repeat of the same work, nothing "
                           "extrapolated)"));
    }

    void validationTextSaysWhyThereIsNone_data()
    {
        QTest::addColumn<int>("asked");
        QTest::addColumn<bool>("stoppedEarly");
        QTest::addColumn<QString>("expected");
        QTest::newRow("validation off")
            << 0 << true << QStringLiteral("not checked (set validation steps above 0)");
        QTest::newRow("stopped before validating")
            << 2 << true << QStringLiteral("not measured (the run stopped before validation)");
        QTest::newRow("still running")
            << 2 << false << QStringLiteral("not measured yet (it runs after the estimate)");
    }

    void validationTextSaysWhyThereIsNone()
    {
        QFETCH(int, asked);
        QFETCH(bool, stoppedEarly);
        QFETCH(QString, expected);
        ResultSummary s
            = summarizeResultsFile(kData + QStringLiteral("/results-partial.yaml"), *catalog);
        QVERIFY2(s.readable, qPrintable(s.error));
        s.validationStepsAsked = asked;
        s.runStoppedEarly = stoppedEarly;
        QCOMPARE(s.validationText(), expected);
        QVERIFY2(s.text().contains(QStringLiteral("Validation error: ") + expected),
            qPrintable(s.text()));
    }

    void summaryOfAGpuRun()
    {
        const ResultSummary s = summarizeResultsFile(
            QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/measured/data/valid.yaml"), *catalog);
        QVERIFY2(s.readable, qPrintable(s.error));
        QVERIFY2(s.text().contains(QStringLiteral("Implied utilisation: 48% of the device's peak")),
            qPrintable(s.text()));
        QVERIFY2(s.text().contains(QStringLiteral("Validation error: 1.1%")), qPrintable(s.text()));
    }

    void summaryOfGarbage()
    {
        const QString garbage = dir.filePath(QStringLiteral("garbage.yaml"));
        QFile f(garbage);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not: [a results file\n");
        f.close();
        const ResultSummary s = summarizeResultsFile(garbage, *catalog);
        QVERIFY(!s.readable);
        QVERIFY2(s.error.startsWith(garbage + QLatin1Char(':')), qPrintable(s.error));
        QCOMPARE(s.text(), s.error);
    }
};

QTEST_GUILESS_MAIN(TestBenchviewParts)
#include "tst_benchview_parts.moc"

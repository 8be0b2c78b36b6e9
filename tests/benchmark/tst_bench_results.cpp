// Results files: what the writer produces is read back by the planner's reader
// (pricing/measured_results.h) without an issue, with the same numbers; partial files are read
// with a warning; the write is atomic; --validate compares the extrapolation with full steps.

#include "benchmark/device_clock.h"
#include "benchmark/out_of_memory.h"
#include "benchmark/report_output.h"
#include "benchmark/results_writer.h"
#include "pricing/measured_results.h"
#include "run_helpers.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <thread>

using namespace gpuplan::bench;
using namespace gpuplan::bench::testing;

namespace {
ConfigurationResult sampleConfiguration(Method method, int microBatch, double microSeconds)
{
    ConfigurationResult c;
    c.configuration = { method, false, false };
    c.microBatch = microBatch;
    c.accumulation = 1024 / microBatch;
    c.forwardBackward = { microSeconds, microSeconds * 0.99, microSeconds * 1.02 };
    c.optimizerStep = { 0.021, 0.020, 0.022 };
    const auto stepOf = [&c](double micro, double optimizer) { // micro × accumulation + update
        return micro * c.accumulation + optimizer;
    };
    c.step = { stepOf(c.forwardBackward.median, c.optimizerStep.median),
        stepOf(c.forwardBackward.min, c.optimizerStep.min),
        stepOf(c.forwardBackward.max, c.optimizerStep.max) };
    c.trainingDays = scaled(c.step, 143000.0 / 86400.0);
    // The run's mean step, narrower than single steps' min..max (statistics.h, RunRange).
    // As in real runs, where the mean lies above the median, the range starts at the median.
    c.stepRun = { c.step.median * 1.001, c.step.median, c.step.median * 1.004 };
    c.trainingDaysRun = scaled(c.stepRun, 143000.0 / 86400.0);
    c.utilization = 0.48;
    c.peakMemoryBytes = 61203234816;
    c.trialSteps = 4;
    c.timedSamples = 5;
    c.blockMicroSteps = 8;
    c.validationError = 0.011;
    c.validationSteps = 5;
    c.notes = { "CUDA graph capture fell back to eager: \"quoted\" reason: with colon" };
    return c;
}

RunReport sampleReport()
{
    RunReport r;
    r.tool = { "0.1.0", "2.11.0", "13.0", "expandable_segments:True", "" };
    r.measuredAt = "2026-11-22T18:30:00Z";
    r.host = "gpu-node-07";
    r.device.index = 0;
    r.device.kind = "cuda";
    r.device.name = "NVIDIA H100 80GB HBM3";
    attachGpuTableEntry(r.device, *shippedCatalog());
    r.device.memoryBytes = 85029158912;
    r.device.computeCapability = "9.0";
    r.model = *shippedModelSpec("pythia-1b");
    r.parameters = parameterCount(r.model);
    r.recipe = recipeFor(r.model, *shippedCatalog(), {});
    r.flopsPerStep
        = trainingFlopsPerSample(r.model, r.recipe.sequenceLength) * r.recipe.globalBatch;
    r.configurations = { sampleConfiguration(Method::Naive, 4, 0.9),
        sampleConfiguration(Method::FreeLunch, 16, 0.412) };
    ConfigurationResult infeasible;
    infeasible.configuration = { Method::FreeLunch, true, true };
    r.configurations.push_back(infeasible);
    r.complete = true;
    return r;
}
} // namespace

class TestBenchResults : public QObject {
    Q_OBJECT

private slots:
    void roundTripThroughThePlannersReader()
    {
        const RunReport report = sampleReport();
        QCOMPARE(report.device.gpuId, std::string("h100-80gb-sxm"));
        const std::string text = resultsYaml(report);
        const auto load = gpuplan::readMeasuredResults(text, "results.yaml", *shippedCatalog());
        QVERIFY2(load.issues.empty(), gpuplan::formatIssues(load.issues).c_str());
        QCOMPARE(int(load.results.size()), 1);
        const auto& m = load.results.front();
        QCOMPARE(m.modelId, std::string("pythia-1b"));
        QCOMPARE(m.gpuId, std::string("h100-80gb-sxm"));
        QCOMPARE(m.gpuCount, 1);
        QCOMPARE(m.configuration,
            std::string(
                "free-lunch mbs=16 ckpt=off offload=off (micro-batch 16, accumulation 64)"));
        const ConfigurationResult& best = report.configurations[1];
        // The planner prices the run's mean step (a run's time), in the range of that mean, not
        // single steps' min..max.
        QVERIFY(std::abs(m.trainingDays - best.trainingDaysRun.mean)
            < 1e-5 * best.trainingDaysRun.mean);
        QVERIFY(std::abs(m.trainingDaysLow - best.trainingDaysRun.low)
            < 1e-5 * best.trainingDaysRun.low);
        QVERIFY(std::abs(m.trainingDaysHigh - best.trainingDaysRun.high)
            < 1e-5 * best.trainingDaysRun.high);
        QVERIFY(best.trainingDays.min < m.trainingDaysLow);
        QVERIFY(m.trainingDaysHigh < best.trainingDays.max);
        QVERIFY(m.impliedUtilization.has_value() && std::abs(*m.impliedUtilization - 0.48) < 1e-9);
        QVERIFY(m.validationError.has_value() && std::abs(*m.validationError - 0.011) < 1e-9);
        QVERIFY(QString::fromStdString(text).contains(
            "timed_samples: 5\n    block_micro_steps: 8\n    validation_error: 0.011\n"
            "    validation_steps: 5\n"));
        QVERIFY(QString::fromStdString(text).startsWith("schema_version: 1\n"));
        QVERIFY(QString::fromStdString(text).contains(
            "cuda: \"13.0\", cuda_allocator: \"expandable_segments:True\", cpu_allocator: \"\"}"));
        QVERIFY(
            !QString::fromStdString(text).contains("ckpt=on offload=on")); // infeasible: log only
    }

    // Issue 11's fields: strategy, GPU count, peaks at several micro-batches, per-rank state and
    // communication, the interconnect; all reach the planner's MeasuredResult.
    void multiGpuFieldsRoundTrip()
    {
        RunReport report = sampleReport();
        report.gpuCount = 4;
        report.nodeCount = 1;
        // Four ranks share the global batch of 1024: each accumulates a quarter of the
        // single-GPU count (the reader warns when a run's accumulation is not the recipe's).
        for (ConfigurationResult& c : report.configurations)
            if (c.microBatch > 0) // the infeasible configuration has none
                c.accumulation = 1024 / (report.gpuCount * c.microBatch);
        ConfigurationResult& best = report.configurations[1];
        best.configuration.parallelism = Parallelism::Zero2;
        best.memorySamples = { { 8, 34359738368 }, { 16, 61203234816 } };
        best.microStepSamples = { { 16, 0.52 }, { 8, 0.27 } }; // the reader sorts them
        best.stateBytes = { 4047126528, 1011781632, 2023563264 };
        CommunicationResult comm;
        comm.computeSeconds = { 25.9, 25.8, 26.1 };
        comm.optimizerComputeSeconds = Spread { 0.42, 0.41, 0.45 };
        comm.seconds = { 0.31, 0.30, 0.33 };
        comm.bytes = 4047126528;
        comm.busBytes = 3035344896;
        comm.busBandwidth = 9.79e9;
        best.communication = comm;
        report.configurations[0].configuration.parallelism = Parallelism::Zero2;
        Interconnect ic;
        ic.backend = "nccl";
        ic.worldSize = 4;
        ic.nodeCount = 1;
        ic.samples = { { "all_reduce", 268435456, 0.00121, 2.2e11, 3.3e11 },
            { "all_gather", 268435456, 0.0008, 3.3e11, 2.5e11 } };
        report.interconnect = ic;
        report.search = { 9, 27, 2 };
        const std::string text = resultsYaml(report);
        const auto load = gpuplan::readMeasuredResults(text, "results.yaml", *shippedCatalog());
        QVERIFY2(load.issues.empty(), gpuplan::formatIssues(load.issues).c_str());
        const auto& m = load.results.front();
        QCOMPARE(m.gpuCount, 4);
        QVERIFY(m.parallelism == Parallelism::Zero2);
        QCOMPARE(m.configuration,
            std::string("free-lunch zero2 mbs=16 ckpt=off offload=off (micro-batch 16, "
                        "accumulation 16)"));
        QCOMPARE(m.microBatch, 16);
        QCOMPARE(m.accumulation, 16);
        QVERIFY(std::abs(m.stepSeconds - best.stepRun.mean) < 1e-5 * best.stepRun.mean);
        QCOMPARE(int(m.memorySamples.size()), 2);
        QCOMPARE(m.memorySamples[1].microBatch, 16);
        QCOMPARE(m.memorySamples[1].peakBytes, std::int64_t(61203234816));
        QCOMPARE(int(m.microStepSamples.size()), 2);
        QCOMPARE(m.microStepSamples[0].microBatch, 8);
        QVERIFY(std::abs(m.microStepSamples[0].seconds - 0.27) < 1e-9);
        QVERIFY(std::abs(m.microStepSamples[1].seconds - 0.52) < 1e-9);
        QCOMPARE(*m.parameterBytes, std::int64_t(4047126528));
        QCOMPARE(*m.gradientBytes, std::int64_t(1011781632));
        QCOMPARE(*m.optimizerStateBytes, std::int64_t(2023563264));
        QVERIFY(std::abs(*m.computeSeconds - 25.9) < 1e-9);
        // A ZeRO-2 close also gathers the parameters: its optimizer_compute_seconds (written
        // by builds of 2026-12-03 before the benchmark stopped writing it there) is not taken.
        QVERIFY(!m.optimizerComputeSeconds);
        // Four ZeRO-3 ranks' update comes from the local-only samples, not from
        // optimizer_step_seconds, whose close held the collectives too.
        best.configuration.parallelism = Parallelism::Zero3;
        report.configurations[0].configuration.parallelism = Parallelism::Zero3;
        const auto zero3
            = gpuplan::readMeasuredResults(resultsYaml(report), "results.yaml", *shippedCatalog());
        QVERIFY2(zero3.issues.empty(), gpuplan::formatIssues(zero3.issues).c_str());
        const auto& z = zero3.results.front();
        QVERIFY(z.optimizerComputeSeconds);
        QVERIFY(std::abs(*z.optimizerComputeSeconds - 0.42) < 1e-9);
        QVERIFY(std::abs(best.optimizerStep.median - 0.42) > 1e-3);
        QVERIFY(std::abs(*m.communicationSeconds - 0.31) < 1e-9);
        QCOMPARE(*m.communicationBytes, std::int64_t(4047126528));
        QVERIFY(std::abs(*m.busBandwidth / 9.79e9 - 1.0) < 1e-5);
        QCOMPARE(m.interconnectBackend, std::string("nccl"));
        QCOMPARE(int(m.interconnect.size()), 2);
        QCOMPARE(m.interconnect[0].collective, std::string("all_reduce"));
        QVERIFY(std::abs(m.interconnect[0].busBandwidth / 3.3e11 - 1.0) < 1e-5);

        // The bus bandwidth is bus_bytes over the communication median: one in GB/s is refused.
        const QString inGBps = QString::fromStdString(text).replace(
            QRegularExpression(QStringLiteral("bus_bandwidth_bytes_per_second: [0-9.e+]+")),
            QStringLiteral("bus_bandwidth_bytes_per_second: 9.79"));
        QVERIFY(inGBps != QString::fromStdString(text));
        const auto units
            = gpuplan::readMeasuredResults(inGBps.toStdString(), "results.yaml", *shippedCatalog());
        QVERIFY(!units.ok());
        QVERIFY2(QString::fromStdString(gpuplan::formatIssues(units.issues))
                     .contains(QStringLiteral("(9.79) is not, within 1%, its bus_bytes / "
                                              "communication_seconds median (3035344896 / 0.31 s "
                                              "= 9.79144e+09 bytes/s): in other units?")),
            gpuplan::formatIssues(units.issues).c_str());

        // A configuration's gpu_count must be the device's.
        const QString changed = QString::fromStdString(text).replace(
            QStringLiteral("gpu_count: 4\n    micro_batch_size: 16"),
            QStringLiteral("gpu_count: 2\n    micro_batch_size: 16"));
        QVERIFY(changed != QString::fromStdString(text));
        const auto mismatch = gpuplan::readMeasuredResults(
            changed.toStdString(), "results.yaml", *shippedCatalog());
        QVERIFY(!mismatch.ok());
        QVERIFY(QString::fromStdString(gpuplan::formatIssues(mismatch.issues))
                    .contains(QStringLiteral("ran on 2 GPUs, the device section says 4")));
    }

    // One rank of a multi-process run: its close (optimizer_step_seconds) is what closing a
    // step adds to a plain micro-step, not the update; the update is the local-only sample's,
    // as on several ranks. It had taken the close, whatever optimizer_compute_seconds said.
    void oneRankOfSeveralProcessesTakesItsLocalOnlyUpdate()
    {
        RunReport report = sampleReport();
        report.gpuCount = 1;
        ConfigurationResult& best = report.configurations[1];
        best.configuration.parallelism = Parallelism::Ddp;
        report.configurations[0].configuration.parallelism = Parallelism::Ddp;
        CommunicationResult comm;
        comm.computeSeconds = { 25.9, 25.8, 26.1 };
        comm.optimizerComputeSeconds = Spread { 0.42, 0.41, 0.45 };
        comm.seconds = { 0.00002, 0.00001, 0.00003 };
        comm.bytes = 4047126528;
        best.communication = comm;
        const auto load
            = gpuplan::readMeasuredResults(resultsYaml(report), "results.yaml", *shippedCatalog());
        QVERIFY2(load.issues.empty(), gpuplan::formatIssues(load.issues).c_str());
        const auto& m = load.results.front();
        QCOMPARE(m.gpuCount, 1);
        QVERIFY(m.optimizerComputeSeconds);
        QVERIFY(std::abs(*m.optimizerComputeSeconds - 0.42) < 1e-9);
        QVERIFY(std::abs(best.optimizerStep.median - 0.42) > 1e-3);
    }

    // Files written before issue 11 (the shipped H100 measurements) load as one-process runs.
    void olderFilesLoadAsBefore()
    {
        const auto load = gpuplan::loadMeasuredResultsFiles(
            { GPUPLAN_SOURCE_DIR "/benchmark/measurements/h100/pythia-1b.yaml" },
            *shippedCatalog());
        QVERIFY2(load.ok() && load.issues.empty(), gpuplan::formatIssues(load.issues).c_str());
        const auto& m = load.results.front();
        QVERIFY(m.parallelism == Parallelism::None);
        QCOMPARE(m.gpuCount, 1);
        QVERIFY(m.memorySamples.empty() && !m.communicationSeconds && m.interconnect.empty());
        QVERIFY(m.microStepSamples.empty());
        QVERIFY(m.microBatch > 0 && m.stepSeconds > 0);
        // One process's update is compute alone: the best configuration's optimizer step.
        QVERIFY(m.optimizerComputeSeconds);
        QCOMPARE(*m.optimizerComputeSeconds, 0.0141411);
    }

    // A file of the current bench as it ran on a GPU (the H200 of 2026-12-04): the state, the
    // memory and micro-step samples the planner's extrapolation fits, the mean step it prices.
    void currentGpuFileLoadsWhole()
    {
        const auto load = gpuplan::loadMeasuredResultsFiles(
            { GPUPLAN_SOURCE_DIR
                "/benchmark/measurements/h200-2026-12-04/pythia-1b-free-lunch.yaml" },
            *shippedCatalog());
        QVERIFY2(load.ok() && load.issues.empty(), gpuplan::formatIssues(load.issues).c_str());
        QCOMPARE(int(load.results.size()), 1);
        const auto& m = load.results.front();
        QCOMPARE(m.gpuId, std::string("h200-141gb-sxm"));
        QCOMPARE(m.gpuCount, 1);
        QVERIFY(m.parallelism == Parallelism::None);
        QCOMPARE(m.microBatch, 32);
        QCOMPARE(m.accumulation, 32);
        QCOMPARE(m.stepSeconds, 26.616); // the mean
        QCOMPARE(m.stepMedianSeconds, 26.6332);
        QCOMPARE(m.trainingDays, 44.052);
        QCOMPARE(int(m.memorySamples.size()), 2);
        QCOMPARE(m.memorySamples.back().peakBytes, std::int64_t { 94319136768 });
        QCOMPARE(int(m.microStepSamples.size()), 2);
        QCOMPARE(m.microStepSamples.front().seconds, 0.419592);
        QVERIFY(m.optimizerStateBytes);
        QCOMPARE(*m.optimizerStateBytes, std::int64_t { 8094253840 });
        QVERIFY(m.validationError);
        QCOMPARE(*m.validationError, 0.00204062);
        QVERIFY(m.optimizerComputeSeconds);
        QCOMPARE(*m.optimizerComputeSeconds, 0.00978893);
    }

    void partialFileIsReadWithAWarning()
    {
        RunReport report = sampleReport();
        report.complete = false;
        report.configurations.resize(1);
        const auto load
            = gpuplan::readMeasuredResults(resultsYaml(report), "partial.yaml", *shippedCatalog());
        QVERIFY(load.ok());
        QCOMPARE(int(load.results.size()), 1);
        QVERIFY(QString::fromStdString(gpuplan::formatIssues(load.issues)).contains("partial"));
    }

    void cpuRunRoundTrips()
    {
        const ModelSpec spec = tinyFromConfig("tiny-neox");
        RunOptions o = tinyRun(spec, 4, { { Method::FreeLunch, false, false } });
        o.stepsMeasured = 1;
        const auto run = runTiny(o);
        const auto load
            = gpuplan::readMeasuredResults(resultsYaml(run.report), "cpu.yaml", *shippedCatalog());
        QVERIFY2(load.ok(), gpuplan::formatIssues(load.issues).c_str());
        QCOMPARE(int(load.results.size()), 1);
        QCOMPARE(load.results.front().gpuId, std::string()); // a CPU cannot be priced
        QVERIFY(!load.results.front().impliedUtilization.has_value());
        QCOMPARE(load.workloads.front().id.rfind("custom:tiny-neox", 0), std::size_t(0));
        // One process: strategy "none", peaks at two micro-batches, state bytes, and micro-step
        // times at half the micro-batch and at it (micro-batch 4 here).
        const auto& m = load.results.front();
        QVERIFY(m.parallelism == Parallelism::None);
        QVERIFY(m.memorySamples.size() >= 2);
        QCOMPARE(m.microBatch, 4);
        QCOMPARE(int(m.microStepSamples.size()), 2);
        QCOMPARE(m.microStepSamples[0].microBatch, 2);
        QCOMPARE(m.microStepSamples[1].microBatch, 4);
        QVERIFY(m.microStepSamples[0].seconds > 0 && m.microStepSamples[1].seconds > 0);
        QVERIFY(m.parameterBytes && *m.parameterBytes > 0 && m.optimizerStateBytes);
        QVERIFY(!m.communicationSeconds);
    }

    void writeIsAtomicAndReplaces()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("results.yaml").toStdString();
        RunReport report = sampleReport();
        report.complete = false;
        QCOMPARE(writeResultsFile(report, path), std::string());
        report.complete = true;
        QCOMPARE(writeResultsFile(report, path), std::string());
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("complete: true"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // no temporary left behind
        const std::string bad = writeResultsFile(report, "/nonexistent-dir/results.yaml");
        QVERIFY(
            QString::fromStdString(bad).startsWith("/nonexistent-dir/results.yaml: cannot write"));

        // Through a link, the file it names is replaced; the link stays a link.
        QVERIFY(QDir(dir.path()).mkdir("kept"));
        const QString target = dir.filePath("kept/real.yaml");
        const QString link = dir.filePath("link.yaml");
        QVERIFY(QFile::link("kept/real.yaml", link));
        QCOMPARE(writeResultsFile(report, link.toStdString()), std::string());
        QVERIFY(QFileInfo(link).isSymLink());
        QFile real(target);
        QVERIFY(real.open(QIODevice::ReadOnly));
        QVERIFY(real.readAll().contains("complete: true"));

        // An earlier file set aside and dropped again.
        std::string movedTo;
        QCOMPARE(setAsideEarlierResults(path, &movedTo), std::string());
        QCOMPARE(movedTo, path + ".previous");
        QVERIFY(!QFile::exists(QString::fromStdString(path)));
        QVERIFY(QFile::exists(QString::fromStdString(movedTo)));
        // A failed rerun left a partial file beside the kept one: the kept one stays kept.
        QVERIFY(QFile::copy(QString::fromStdString(movedTo), QString::fromStdString(path)));
        movedTo.clear();
        QCOMPARE(setAsideEarlierResults(path, &movedTo), std::string());
        QCOMPARE(movedTo, path + ".previous");
        QVERIFY(QFile::exists(QString::fromStdString(path))); // the partial one, to be replaced
        QVERIFY(!restoreEarlierResults(path)); // this run wrote: nothing to put back
        QVERIFY(QFile::remove(QString::fromStdString(path)));
        QVERIFY(restoreEarlierResults(path)); // nothing written: the earlier file is back
        QVERIFY(QFile::exists(QString::fromStdString(path)));
        QVERIFY(!QFile::exists(QString::fromStdString(path + ".previous")));
        QCOMPARE(setAsideEarlierResults(path, &movedTo), std::string());
        dropEarlierResults(path);
        QVERIFY(!QFile::exists(QString::fromStdString(path + ".previous")));
    }

    // The host refusing memory on a CPU run is "does not fit", as a GPU's out of memory is.
    void hostMemoryRefusalIsOutOfMemory()
    {
        const std::runtime_error cpu("[enforce fail at alloc_cpu.cpp:75] err == 0. "
                                     "DefaultCPUAllocator: can't allocate memory: you tried to "
                                     "allocate 1073741824 bytes. Error code 12");
        QVERIFY(isOutOfMemory(cpu));
        QVERIFY(!isOutOfMemory(std::runtime_error("mat1 and mat2 shapes cannot be multiplied")));
    }

    // A sample's block and update are timed as one region with a mark between them: each part
    // gets its own time, in order.
    void partsAreTimedBackToBack()
    {
        const DeviceClock clock(torch::kCPU);
        const auto sleep = [](int ms) {
            return [ms] { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); };
        };
        const auto seconds = clock.timeParts({ sleep(30), sleep(10), [] {} });
        QCOMPARE(int(seconds.size()), 3);
        QVERIFY2(seconds[0] >= 0.030 && seconds[1] >= 0.010 && seconds[2] >= 0.0,
            qPrintable(QString("%1 %2 %3").arg(seconds[0]).arg(seconds[1]).arg(seconds[2])));
        QVERIFY(seconds[0] < 1.0 && seconds[1] < 1.0 && seconds[2] < 1.0);
    }

    // The same on a GPU, through CUDA events: each part's time, none thrown (an event made
    // without cudaEventDefault has no timing, and elapsed_time() on it throws).
    void partsAreTimedOnTheGpu()
    {
        if (!torch::cuda::is_available())
            QSKIP("LibTorch sees no CUDA device (a CPU-only LibTorch, or no GPU)");
        const DeviceClock clock(torch::Device(torch::kCUDA, 0));
        const auto a = torch::randn({ 2048, 2048 }, torch::Device(torch::kCUDA, 0));
        torch::Tensor c;
        const auto eight = [&] {
            for (int i = 0; i < 8; ++i)
                c = a.mm(a);
        };
        const auto one = [&] { c = a.mm(a); };
        eight(); // the first call loads cuBLAS
        const auto seconds = clock.timeParts({ eight, one });
        QCOMPARE(int(seconds.size()), 2);
        QVERIFY2(seconds[0] > seconds[1] && seconds[1] > 0.0,
            qPrintable(QString("%1 %2").arg(seconds[0]).arg(seconds[1])));
        QVERIFY(clock.time(one) > 0.0);
    }

    void validationComparesTheExtrapolationWithFullSteps()
    {
        // Whether the extrapolation lands within 5 % is a timing property of the machine, so it
        // is measured by the benchmark (docs/benchmark.md, "Validation"), not asserted here where
        // other tests share the cores. This checks the arithmetic and the wiring: N full steps
        // of `accumulation` micro-steps are timed and compared with the extrapolated step.
        ModelSpec spec = tinyFromConfig("tiny-neox");
        RunOptions o = tinyRun(spec, 32, { { Method::Naive, false, false } });
        o.microBatch = 8;
        o.stepsMeasured = 3; // three samples: a median that is not their mean
        o.warmupSteps = 1;
        o.validateSteps = 2;
        const auto run = runTiny(o);
        const auto& c = run.report.configurations.at(0);
        QCOMPARE(c.accumulation, 4);
        QVERIFY(c.validationError.has_value() && c.validatedStepSeconds.has_value());
        QVERIFY(*c.validatedStepSeconds > 0.0);
        // The means, which the planner prices: the extrapolated mean step against the mean of
        // the full steps.
        QVERIFY(c.step.median != c.stepRun.mean);
        const double expected
            = std::abs(c.stepRun.mean - *c.validatedStepSeconds) / *c.validatedStepSeconds;
        QCOMPARE(*c.validationError, expected);
        // The range of the run's mean step starts no lower than the fastest step and holds
        // the median and the mean (its high end may pass the slowest of two samples); the
        // file carries it.
        QVERIFY(c.trainingDays.min <= c.trainingDaysRun.low);
        QVERIFY(c.trainingDaysRun.low <= std::min(c.trainingDays.median, c.trainingDaysRun.mean));
        QVERIFY(std::max(c.trainingDays.median, c.trainingDaysRun.mean) <= c.trainingDaysRun.high);
        // What a real run writes, the reader takes, range included (to the file's 6 digits);
        // the JSON summary has it too.
        const auto load
            = gpuplan::readMeasuredResults(resultsYaml(run.report), "tiny.yaml", *shippedCatalog());
        QVERIFY2(load.ok(), gpuplan::formatIssues(load.issues).c_str());
        QCOMPARE(int(load.results.size()), 1);
        const auto& read = load.results.front();
        QVERIFY(
            std::abs(read.trainingDaysLow - c.trainingDaysRun.low) < 1e-5 * c.trainingDaysRun.low);
        QVERIFY(std::abs(read.trainingDaysHigh - c.trainingDaysRun.high)
            < 1e-5 * c.trainingDaysRun.high);
        const std::string json = runSummaryJson(run.report);
        QVERIFY(json.find("\"low\": ") != std::string::npos);
        QVERIFY(json.find("\"block_micro_steps\": 4") != std::string::npos);
        // The error is written to the results file, where the planner shows it.
        QVERIFY(QByteArray::fromStdString(resultsYaml(run.report)).contains("validation_error:"));
        // Its samples ran the whole step of 4 (blocks of up to 8): it extrapolated nothing, and
        // says that its validation measured noise.
        const auto noise = [](const auto& configuration) {
            return std::any_of(configuration.notes.begin(), configuration.notes.end(),
                [](const std::string& note) {
                    return note.rfind("validation times the same work", 0) == 0;
                });
        };
        QVERIFY(noise(c));
        // Blocks of 2 extrapolate the step of 4 from half of it: what the validation checks.
        o.maxBlockMicroSteps = 2;
        const auto halves = runTiny(o);
        QVERIFY(halves.report.configurations.at(0).validationError.has_value());
        QVERIFY(!noise(halves.report.configurations.at(0)));

        o.validateSteps = 0;
        const auto unvalidated = runTiny(o);
        QVERIFY(!unvalidated.report.configurations.at(0).validationError.has_value());
    }
};

QTEST_GUILESS_MAIN(TestBenchResults)
#include "tst_bench_results.moc"

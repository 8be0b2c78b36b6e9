// Results files: what the writer produces is read back by the planner's reader
// (pricing/measured_results.h) without an issue, with the same numbers; partial files are read
// with a warning; the write is atomic; --validate compares the extrapolation with full steps.

#include "benchmark/results_writer.h"
#include "pricing/measured_results.h"
#include "run_helpers.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

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
    c.step = combine(c.forwardBackward, c.accumulation, c.optimizerStep);
    c.trainingDays = scaled(c.step, 143000.0 / 86400.0);
    c.utilization = 0.48;
    c.peakMemoryBytes = 61203234816;
    c.trialSteps = 4;
    c.validationError = 0.011;
    c.notes = { "CUDA graph capture fell back to eager: \"quoted\" reason: with colon" };
    return c;
}

RunReport sampleReport()
{
    RunReport r;
    r.tool = { "0.1.0", "2.11.0", "13.0" };
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
        QVERIFY(
            std::abs(m.trainingDays - best.trainingDays.median) < 1e-5 * best.trainingDays.median);
        QVERIFY(std::abs(m.trainingDaysLow - best.trainingDays.min) < 1e-5 * best.trainingDays.min);
        QVERIFY(m.impliedUtilization.has_value() && std::abs(*m.impliedUtilization - 0.48) < 1e-9);
        QVERIFY(m.validationError.has_value() && std::abs(*m.validationError - 0.011) < 1e-9);
        QVERIFY(QString::fromStdString(text).startsWith("schema_version: 1\n"));
        QVERIFY(
            !QString::fromStdString(text).contains("ckpt=on offload=on")); // infeasible: log only
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
        o.stepsMeasured = 2;
        o.warmupSteps = 1;
        o.validateSteps = 2;
        const auto run = runTiny(o);
        const auto& c = run.report.configurations.at(0);
        QCOMPARE(c.accumulation, 4);
        QVERIFY(c.validationError.has_value() && c.validatedStepSeconds.has_value());
        QVERIFY(*c.validatedStepSeconds > 0.0);
        const double expected
            = std::abs(c.step.median - *c.validatedStepSeconds) / *c.validatedStepSeconds;
        QCOMPARE(*c.validationError, expected);
        // The error is written to the results file, where the planner shows it.
        QVERIFY(QByteArray::fromStdString(resultsYaml(run.report)).contains("validation_error:"));

        o.validateSteps = 0;
        const auto unvalidated = runTiny(o);
        QVERIFY(!unvalidated.report.configurations.at(0).validationError.has_value());
    }
};

QTEST_GUILESS_MAIN(TestBenchResults)
#include "tst_bench_results.moc"

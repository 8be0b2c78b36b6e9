// Honest failures (issue 13): a configuration whose loss or a gradient is not finite fails
// with a "failed: " reason instead of being timed. nonFiniteIn names what was not finite (and
// the fp16 loss scale where there is one); a tiny model with a poisoned weight fails every
// configuration, none is "best", and the reason reaches the notes and the JSON summary.

#include "benchmark/models/trainable_model.h"
#include "benchmark/report_output.h"
#include "benchmark/training_setup.h"
#include "run_helpers.h"

#include <QTest>

#include <limits>

using namespace gpuplan::bench;
using namespace gpuplan::bench::testing;

class TestBenchFailures : public QObject {
    Q_OBJECT

private slots:
    void finiteStepHasNoReason()
    {
        QVERIFY(!nonFiniteIn(
            torch::tensor(2.5), { torch::ones({ 3 }), torch::Tensor() }, std::nullopt));
    }

    void nonFiniteLossIsNamed()
    {
        const auto why = nonFiniteIn(torch::tensor(std::numeric_limits<float>::quiet_NaN()),
            { torch::ones({ 3 }) }, std::nullopt);
        QVERIFY(why);
        QVERIFY2(why->rfind("failed: non-finite loss", 0) == 0, why->c_str());
    }

    void overflowingScaledGradientNamesTheScale()
    {
        auto grad = torch::ones({ 4 });
        grad[2] = std::numeric_limits<float>::infinity();
        const auto why = nonFiniteIn(torch::tensor(3.0), { torch::ones({ 2 }), grad }, 65536.0);
        QVERIFY(why);
        QVERIFY2(why->rfind("failed: non-finite gradient in 1 of 2 tensors", 0) == 0, why->c_str());
        QVERIFY2(why->find("loss scale 65536") != std::string::npos, why->c_str());
    }

    void poisonedModelFailsEveryConfiguration()
    {
        const ModelSpec spec = tinyFromConfig("tiny-neox");
        RunOptions o = tinyRun(
            spec, 8, { { Method::Naive, false, false }, { Method::FreeLunch, false, false } });
        o.microBatch = 2;
        o.validateSteps = 1;
        o.prepareModel = [](TrainableModel& model) {
            torch::NoGradGuard noGrad;
            model.parameters().back().fill_(std::numeric_limits<float>::quiet_NaN());
        };
        const auto run = runTiny(o);
        QCOMPARE(run.report.configurations.size(), std::size_t { 2 });
        for (const auto& c : run.report.configurations) {
            QVERIFY(c.failure);
            QVERIFY2(c.failure->rfind("failed: non-finite loss", 0) == 0, c.failure->c_str());
            QVERIFY(!c.feasible());
            QVERIFY(!c.validationError); // not timed
            QVERIFY(std::find(c.notes.begin(), c.notes.end(), *c.failure) != c.notes.end());
        }
        QVERIFY(run.report.best() == nullptr);
        const std::string json = runSummaryJson(run.report);
        QVERIFY(json.find("\"failed\": \"failed: non-finite loss") != std::string::npos);
        QVERIFY(json.find("\"feasible\": true") == std::string::npos);
    }

    void healthyModelHasNoFailure()
    {
        const ModelSpec spec = tinyFromConfig("tiny-neox");
        RunOptions o = tinyRun(spec, 8, { { Method::Naive, false, false } });
        o.microBatch = 2;
        const auto run = runTiny(o);
        QVERIFY(!run.report.configurations.at(0).failure);
        QVERIFY(run.report.configurations.at(0).feasible());
        QVERIFY(runSummaryJson(run.report).find("\"failed\": null") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestBenchFailures)
#include "tst_bench_failures.moc"

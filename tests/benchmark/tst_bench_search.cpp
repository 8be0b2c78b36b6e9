// Micro-batch search: the binary search finds what doubling from 1 finds, in fewer trials; under
// a CPU memory cap (--memory-limit) the real search stops below the target, and a cap too small
// for anything makes the configuration infeasible instead of crashing.

#include "benchmark/batch_search.h"
#include "benchmark/cpu_memory.h"
#include "run_helpers.h"

#include <QTest>

#include <algorithm>

using namespace gpuplan::bench;
using namespace gpuplan::bench::testing;

class TestBenchSearch : public QObject {
    Q_OBJECT

private slots:
    void findsTheLargestFittingPowerOfTwo_data()
    {
        QTest::addColumn<int>("target");
        QTest::addColumn<int>("capacity"); // largest micro-batch that fits
        QTest::addColumn<int>("expected");
        QTest::newRow("target fits") << 1024 << 5000 << 1024;
        QTest::newRow("fits 16 of 1024") << 1024 << 16 << 16;
        QTest::newRow("fits 23 of 1024") << 1024 << 23 << 16;
        QTest::newRow("fits only 1") << 1024 << 1 << 1;
        QTest::newRow("nothing fits") << 1024 << 0 << 0;
        QTest::newRow("target 1 fits") << 1 << 4 << 1;
        QTest::newRow("target 1 does not") << 1 << 0 << 0;
        QTest::newRow("fits 512 of 1024") << 1024 << 1000 << 512;
        QTest::newRow("fits 8 of 4096") << 4096 << 8 << 8;
    }
    void findsTheLargestFittingPowerOfTwo()
    {
        QFETCH(int, target);
        QFETCH(int, capacity);
        QFETCH(int, expected);
        std::vector<int> tried;
        const auto result = searchMicroBatch(target, [&](int m) {
            tried.push_back(m);
            return m <= capacity;
        });
        QCOMPARE(result.microBatch, expected);
        QCOMPARE(result.trials, int(tried.size()));
        for (int m : tried)
            QVERIFY(isPowerOfTwo(m) && m <= target);
        // Never more trials than the paper's doubling from 1 needs, bar the trivial cases.
        QVERIFY(result.trials <= std::max(doublingTrials(target, expected), 4));
    }

    void fewerTrialsThanDoublingForTheUsualTargets()
    {
        int binary = 0, doubling = 0;
        for (int capacity = 1; capacity <= 1024; capacity *= 2) {
            binary += searchMicroBatch(1024, [&](int m) { return m <= capacity; }).trials;
            doubling += doublingTrials(1024, capacity);
        }
        QCOMPARE(binary, 7 * 4 + 4 * 3); // 3 or 4 trials per case: 11 exponents, 12 outcomes
        QCOMPARE(doubling, 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 11);
        QVERIFY(binary * 3 < doubling * 2); // 40 trials against 76
    }

    void memoryCapStopsTheSearchBelowTheTarget()
    {
        const ModelSpec spec = tinyFromConfig("tiny-neox");
        RunOptions o = tinyRun(spec, 64, { { Method::Naive, false, false } });
        o.stepsMeasured = 1;
        // Uncapped first, to learn what the full micro-batch of 64 needs.
        const auto uncapped = runTiny(o);
        QCOMPARE(uncapped.report.configurations.at(0).microBatch, 64);
        const std::int64_t full = uncapped.report.configurations.at(0).peakMemoryBytes;
        QVERIFY(full > 0);

        // A cap well under that: the search must stop lower, and say it searched.
        o.memoryLimitBytes = full * 2 / 3;
        const auto capped = runTiny(o);
        const auto& c = capped.report.configurations.at(0);
        QVERIFY2(c.microBatch >= 1 && c.microBatch < 64, qPrintable(QString::number(c.microBatch)));
        QVERIFY(c.peakMemoryBytes <= *o.memoryLimitBytes);
        QVERIFY(c.trialSteps >= 2 && c.trialSteps <= 4);
        QCOMPARE(c.accumulation, 64 / c.microBatch);
        cpu_memory::setLimit(std::nullopt);
    }

    // A batch the fitted micro-batch does not divide runs as equal micro-batches, as a training
    // stack splits it: 48 with 32 fitting is 2 of 24, not 32 and a last one padded to 32 (64
    // samples timed for 48). A micro-batch the user fixed is kept, and its padding said.
    void unevenBatchRunsAsEqualMicroBatches()
    {
        const ModelSpec spec = tinyFromConfig("tiny-neox");
        RunOptions o = tinyRun(spec, 48, { { Method::Naive, false, false } });
        o.stepsMeasured = 1;
        const auto even = runTiny(o).report.configurations.at(0);
        QCOMPARE(even.fittedMicroBatch, 32);
        QCOMPARE(even.microBatch, 24);
        QCOMPARE(even.accumulation, 2);
        const auto said = [](const ConfigurationResult& c, const std::string& text) {
            return std::any_of(c.notes.begin(), c.notes.end(),
                [&](const std::string& note) { return note == text; });
        };
        QVERIFY(said(even,
            "global batch 48 runs as 2 micro-batches of 24 (32 fitted; it does not "
            "divide the batch)"));

        o.recipe.globalBatch = 40; // 2 of 20
        QCOMPARE(runTiny(o).report.configurations.at(0).microBatch, 20);
        o.recipe.globalBatch = 41; // 2 of 21, one sample of the last padded
        const auto odd = runTiny(o).report.configurations.at(0);
        QCOMPARE(odd.microBatch, 21);
        QVERIFY(said(odd,
            "global batch 41 runs as 2 micro-batches of 21 (32 fitted; it does not "
            "divide the batch), 1 sample(s) of the last padded"));

        o.recipe.globalBatch = 48;
        o.microBatch = 32;
        const auto fixed = runTiny(o).report.configurations.at(0);
        QCOMPARE(fixed.microBatch, 32);
        QCOMPARE(fixed.accumulation, 2);
        QVERIFY(said(fixed,
            "global batch 48 is not a multiple of the micro-batch: the last "
            "micro-step is padded to 32 and timed so (16 samples more than "
            "training runs)"));
    }

    // A --micro-batch that runs out of memory is halved, and the halved one is no longer the
    // user's: 36 samples with 32 fixed ran as 2 x 32 (28 padded); with 16 fitting they run as
    // 3 x 12, not 16 + 16 + 4 padded to 16.
    void halvedMicroBatchIsSplitEvenly()
    {
        const ModelSpec spec = tinyFromConfig("tiny-neox");
        RunOptions o = tinyRun(spec, 36, { { Method::Naive, false, false } });
        o.stepsMeasured = 1;
        o.microBatch = 16;
        const std::int64_t at16 = runTiny(o).report.configurations.at(0).peakMemoryBytes;
        o.microBatch = 32;
        const std::int64_t at32 = runTiny(o).report.configurations.at(0).peakMemoryBytes;
        QVERIFY2(at16 > 0 && at32 > at16, qPrintable(QString("%1 %2").arg(at16).arg(at32)));

        o.memoryLimitBytes = (at16 + at32) / 2;
        const auto halved = runTiny(o).report.configurations.at(0);
        cpu_memory::setLimit(std::nullopt);
        QVERIFY(halved.feasible());
        QCOMPARE(halved.fittedMicroBatch, 16);
        QCOMPARE(halved.microBatch, 12);
        QCOMPARE(halved.accumulation, 3);
        const auto said = [&](const std::string& text) {
            return std::any_of(halved.notes.begin(), halved.notes.end(),
                [&](const std::string& note) { return note == text; });
        };
        QVERIFY(said("micro-batch 32 (--micro-batch) ran out of memory"));
        QVERIFY(said("global batch 36 runs as 3 micro-batches of 12 (16 fitted; it does not "
                     "divide the batch)"));
    }

    void capBelowTheModelMakesItInfeasible()
    {
        const ModelSpec spec = tinyFromConfig("tiny-neox");
        RunOptions o = tinyRun(spec, 8, { { Method::Naive, false, false } });
        o.memoryLimitBytes
            = cpu_memory::currentBytes() + parameterCount(spec) * 4 * 2; // weights + grads only
        const auto run = runTiny(o);
        QVERIFY(!run.report.configurations.at(0).feasible());
        QVERIFY(run.report.best() == nullptr);
        cpu_memory::setLimit(std::nullopt);
    }
};

QTEST_GUILESS_MAIN(TestBenchSearch)
#include "tst_bench_search.moc"

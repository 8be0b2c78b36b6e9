// Micro-batch search: the binary search finds what doubling from 1 finds, in fewer trials; under
// a CPU memory cap (--memory-limit) the real search stops below the target, and a cap too small
// for anything makes the configuration infeasible instead of crashing.

#include "benchmark/batch_search.h"
#include "benchmark/cpu_memory.h"
#include "run_helpers.h"

#include <QTest>

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

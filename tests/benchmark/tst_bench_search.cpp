// Micro-batch search: the binary search finds what doubling from 1 finds, in fewer trials; a
// micro-batch the memory model rules out costs no trial (ConvNeXt-XL's peaks on an H200); under
// a CPU memory cap (--memory-limit) the real search stops below the target, rules out what its
// first trial says cannot fit, and a cap too small for anything makes the configuration
// infeasible instead of crashing.

#include "benchmark/batch_search.h"
#include "benchmark/cpu_memory.h"
#include "benchmark/search_pruning.h"
#include "run_helpers.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

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

    // ConvNeXt-XL on an H200 (target 4096, 256 fitting): 1024 ruled out after the trial at 64,
    // then 512 after 256; the caller's word is taken even where it is wrong.
    void ruledOutMicroBatchesCostNoTrial()
    {
        std::vector<int> tried;
        const auto fitsUpTo256 = [&](int m) {
            tried.push_back(m);
            return m <= 256;
        };
        auto found = searchMicroBatch(4096, fitsUpTo256, [](int m) { return m >= 512; });
        QCOMPARE(found.microBatch, 256);
        QCOMPARE(tried, (std::vector<int> { 64, 256 }));
        QCOMPARE(found.trials, 2);
        QCOMPARE(found.ruledOut, (std::vector<int> { 1024, 512 }));

        tried.clear();
        found = searchMicroBatch(4096, fitsUpTo256);
        QCOMPARE(tried, (std::vector<int> { 64, 1024, 256, 512 }));
        QVERIFY(found.ruledOut.empty());

        tried.clear();
        found = searchMicroBatch(4096, fitsUpTo256, [](int m) { return m >= 128; });
        QCOMPARE(found.microBatch, 64); // 128 and 256 fit, but were ruled out
        QCOMPARE(tried, (std::vector<int> { 64 }));
    }

    // The peaks of h200-2026-12-04/convnext-xlarge-22k.yaml: micro-batch 64 36,315,909,120 bytes,
    // 128 66,141,803,008; the state (weights, gradients, AdamW) 6,286,404,208; an H200's
    // 150,109,880,320 bytes.
    void memoryModelRulesOutWhatCannotFit()
    {
        const double state = 6286404208.0;
        const std::int64_t h200 = 150109880320;
        const std::vector<MemorySample> at64 { { 64, 36315909120 } };
        const std::vector<MemorySample> at64and128 { { 64, 36315909120 }, { 128, 66141803008 } };

        // From one trial, through the state: 128 predicted within 0.4% of what it measured.
        const auto one = searchMemoryModel(at64, state);
        QVERIFY(one);
        const double predicted128 = one->fixedBytes + one->bytesPerSample * 128;
        QVERIFY2(std::abs(predicted128 / 66141803008.0 - 1.0) < 0.004,
            qPrintable(QString::number(predicted128, 'f', 0)));

        constexpr auto gpu = CapacityIs::DeviceMemory;
        const auto why = ruledOutByMemory(at64, state, h200, gpu, 1024);
        QVERIFY(why);
        QCOMPARE(QString::fromStdString(*why),
            QString("micro-batch 1024 not tried: the peaks so far (micro-batch 64: 33.82 GiB; "
                    "the state 5.85 GiB) predict 453.33 GiB, over 2.5 x the device's 139.80 GiB"));
        QVERIFY(!ruledOutByMemory(at64, state, h200, gpu, 256)); // 117.72 GiB, under 2.5 x: tried
        QVERIFY(!ruledOutByMemory(at64, state, h200, gpu, 512)); // 229.59 GiB, under 2.5 x
        // From two trials, the line through them: 1024 at 450.48 GiB, 512 at 228.26 (tried).
        QVERIFY(!ruledOutByMemory(at64and128, state, h200, gpu, 512));
        QCOMPARE(QString::fromStdString(*ruledOutByMemory(at64and128, state, h200, gpu, 1024)),
            QString("micro-batch 1024 not tried: the peaks so far (micro-batch 64: 33.82 GiB, "
                    "micro-batch 128: 61.60 GiB) predict 450.48 GiB, over 2.5 x the device's "
                    "139.80 GiB"));

        // A CPU run's capacity is its --memory-limit, and the note says so.
        QCOMPARE(QString::fromStdString(
                     *ruledOutByMemory(at64, state, h200, CapacityIs::MemoryLimit, 1024)),
            QString("micro-batch 1024 not tried: the peaks so far (micro-batch 64: 33.82 GiB; "
                    "the state 5.85 GiB) predict 453.33 GiB, over 2.5 x the --memory-limit of "
                    "139.80 GiB"));

        // Nothing to predict from: no fitted trial, peaks below the state, no memory size.
        QVERIFY(!ruledOutByMemory({}, state, h200, gpu, 1 << 20));
        QVERIFY(!ruledOutByMemory({ { 64, 5000000000 } }, state, h200, gpu, 1 << 20));
        QVERIFY(!ruledOutByMemory(at64, state, 0, gpu, 1 << 20));
        QVERIFY(!searchMemoryModel({ { 64, 9000000000 }, { 128, 8000000000 } }, state));
    }

    // Under a CPU cap just under 1/2.5 of what the trial at 8 predicts for 32 (and above 8's
    // peak): 32 is not tried, and the search finds what it finds trying every midpoint, one trial
    // sooner. 16 stays tried: the one-point line never puts it past 2.5 x a cap above 8's peak.
    void capRulesOutWhatTheFirstTrialCannotFit()
    {
        const ModelSpec spec = tinyFromConfig("tiny-neox");
        RunOptions o = tinyRun(spec, 64, { { Method::Naive, false, false } });
        o.stepsMeasured = 1;
        // 65 positions, not 17: activations well above the state, as in a real model (at 17 the
        // state is over half of micro-batch 8's peak, and no cap above that peak rules out 32).
        o.recipe.sequenceLength = 65;
        const auto uncapped = runTiny(o).report.configurations.at(0);
        const auto& samples = uncapped.memorySamples;
        const auto at8 = std::find_if(samples.begin(), samples.end(),
            [](const MemorySample& s) { return s.microBatch == 8; });
        QVERIFY(at8 != samples.end());
        const double state = static_cast<double>(uncapped.stateBytes.parameters
            + uncapped.stateBytes.gradients + uncapped.stateBytes.optimizerState);
        const double p8 = static_cast<double>(at8->peakMemoryBytes);
        const double predicted32 = state + 4.0 * (p8 - state);
        const double cap = 0.97 * predicted32 / kRuledOutMargin;
        // 8 must fit under the cap with room for the run-to-run change of its peak.
        QVERIFY2(cap > 1.1 * p8,
            qPrintable(QString("state %1, peak at 8 %2, cap %3").arg(state).arg(p8).arg(cap)));
        o.memoryLimitBytes = static_cast<std::int64_t>(cap);

        const auto ruled = runTiny(o).report.configurations.at(0);
        o.pruneSearch = false;
        const auto everyMidpoint = runTiny(o).report.configurations.at(0);
        cpu_memory::setLimit(std::nullopt);
        QVERIFY(ruled.feasible());
        QCOMPARE(ruled.fittedMicroBatch, everyMidpoint.fittedMicroBatch);
        QCOMPARE(ruled.trialSteps, everyMidpoint.trialSteps - 1);
        QVERIFY(std::any_of(ruled.notes.begin(), ruled.notes.end(), [](const std::string& n) {
            return n.rfind("micro-batch 32 not tried: the peaks so far (micro-batch 8: ", 0) == 0
                && n.find("x the --memory-limit of ") != std::string::npos; // not "the device's"
        }));
        QVERIFY(std::none_of(everyMidpoint.notes.begin(), everyMidpoint.notes.end(),
            [](const std::string& n) { return n.find("not tried") != std::string::npos; }));
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

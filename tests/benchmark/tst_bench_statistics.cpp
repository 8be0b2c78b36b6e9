// Step timing from blocks of back-to-back micro-steps (statistics.h): per-micro-step time is a
// block's time over its length, and the step's median, min and max are taken over whole-step
// samples, so one slow micro-step is not multiplied by the accumulation. Durations are given,
// not measured: the arithmetic is what is tested here; the accuracy against real steps is the
// --validate benchmark's (docs/benchmark.md). The range of a run (RunRange) is the nominal 95%
// confidence interval of the mean step (batch means from 20 samples), not below the fastest step,
// holding the median.

#include "benchmark/statistics.h"

#include <QTest>

#include <cmath>
#include <string>

using namespace gpuplan::bench;

class TestBenchStatistics : public QObject {
    Q_OBJECT

private slots:
    void blockLengthIsTheAccumulationCapped_data()
    {
        QTest::addColumn<int>("accumulation");
        QTest::addColumn<int>("cap");
        QTest::addColumn<int>("expected");
        QTest::addRow("whole step") << 4 << 8 << 4;
        QTest::addRow("capped") << 128 << 8 << 8;
        QTest::addRow("equal") << 8 << 8 << 8;
        QTest::addRow("one micro-step") << 1 << 8 << 1;
        QTest::addRow("never empty") << 0 << 8 << 1;
        QTest::addRow("cap of zero") << 4 << 0 << 1;
    }
    void blockLengthIsTheAccumulationCapped()
    {
        QFETCH(int, accumulation);
        QFETCH(int, cap);
        QFETCH(int, expected);
        QCOMPARE(blockLengthFor(accumulation, cap), expected);
    }

    void wholeStepBlocksGiveTheStepsThemselves()
    {
        // Accumulation 4, each sample a whole step: block of 4 micro-steps + optimizer.
        const std::vector<StepSample> samples
            = { { 0.40, 4, 0.10 }, { 0.44, 4, 0.12 }, { 0.36, 4, 0.08 } };
        const StepTiming t = stepTimingOf(samples, 4);
        QCOMPARE(t.step.median, 0.50);
        QCOMPARE(t.step.min, 0.44);
        QCOMPARE(t.step.max, 0.56);
        QCOMPARE(t.microStep.median, 0.10);
        QCOMPARE(t.microStep.min, 0.09);
        QCOMPARE(t.microStep.max, 0.11);
        QCOMPARE(t.optimizer.median, 0.10);
    }

    void oneSlowMicroStepMovesOneSampleByItsOwnExcess()
    {
        // Micro-steps of 0.1 s, one of them 0.6 s slower; accumulation 8 in blocks of 8. The
        // old rule (slowest micro-step x accumulation + slowest optimizer) gave 0.7 x 8 + 0.1 =
        // 5.7 s; the slowest real step is 0.8 + 0.6 + 0.1 = 1.5 s.
        const std::vector<StepSample> samples
            = { { 0.8, 8, 0.1 }, { 1.4, 8, 0.1 }, { 0.8, 8, 0.1 }, { 0.8, 8, 0.1 } };
        const StepTiming t = stepTimingOf(samples, 8);
        QCOMPARE(t.step.max, 1.5);
        QCOMPARE(t.step.median, 0.9); // mean of the middle two of four
        QCOMPARE(t.step.min, 0.9);
    }

    void partialBlocksAreScaledToTheAccumulation()
    {
        // 128 micro-steps per step timed in blocks of 8.
        const std::vector<StepSample> samples = { { 0.8, 8, 0.05 }, { 0.96, 8, 0.05 } };
        const StepTiming t = stepTimingOf(samples, 128);
        QCOMPARE(t.microStep.min, 0.1);
        QCOMPARE(t.microStep.max, 0.12);
        QCOMPARE(t.step.min, 0.1 * 128 + 0.05);
        QCOMPARE(t.step.max, 0.12 * 128 + 0.05);
        QCOMPARE(t.step.median, 0.5 * (t.step.min + t.step.max));
    }

    void stepSpreadPairsEachBlockWithItsOwnOptimizerStep()
    {
        // The fastest block with the slowest optimizer step is one sample: min and max of the
        // step are not the sums of the parts' extremes.
        const std::vector<StepSample> samples = { { 0.2, 2, 0.3 }, { 0.4, 2, 0.1 } };
        const StepTiming t = stepTimingOf(samples, 2);
        QCOMPARE(t.step.min, 0.5);
        QCOMPARE(t.step.max, 0.5);
        QCOMPARE(t.microStep.min, 0.1);
        QCOMPARE(t.optimizer.max, 0.3);
    }

    // A multi-process close less a plain micro-step that timed below zero: the step keeps the
    // noise (clipping it only ever added time), the optimizer's spread shows no negative time.
    // Blocks of 1 of 4 micro-steps: 4 x 0.10 - 0.02 = 0.38 and 4 x 0.10 + 0.06 = 0.46.
    void aNegativeCloseStaysInTheStep()
    {
        const std::vector<StepSample> samples = { { 0.10, 1, -0.02 }, { 0.10, 1, 0.06 } };
        const StepTiming t = stepTimingOf(samples, 4);
        QVERIFY(qFuzzyCompare(t.step.min, 0.38));
        QVERIFY(qFuzzyCompare(t.step.max, 0.46));
        QVERIFY(qFuzzyCompare(t.stepRun.mean, 0.42));
        QCOMPARE(t.optimizer.min, 0.0);
        QCOMPARE(t.optimizer.max, 0.06);
    }

    void studentTQuantilesMatchTheTable()
    {
        // The two-sided 95% critical values of any t table, 1 to 30 degrees of freedom.
        const std::vector<double> table { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
            2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
            2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
        for (std::size_t i = 0; i < table.size(); ++i)
            QCOMPARE(studentT975(static_cast<int>(i) + 1), table[i]);
        // Beyond the table: the expansion, against published quantiles (2.040, 1.984, 1.962).
        QVERIFY(std::abs(studentT975(31) - 2.040) < 0.001);
        QVERIFY(std::abs(studentT975(99) - 1.984) < 0.001);
        QVERIFY(std::abs(studentT975(1000) - 1.962) < 0.001);
        QCOMPARE(studentT975(0), studentT975(1)); // never undefined
        for (int dof = 1; dof < 300; ++dof)
            QVERIFY2(studentT975(dof + 1) < studentT975(dof), std::to_string(dof).c_str());
    }

    void runRangeIsTheMeansConfidenceInterval()
    {
        // Fewer than 20 samples: from the samples. Mean 3, standard deviation sqrt(2.5),
        // standard error sqrt(0.5), t(4) = 2.776.
        const RunRange r = runRangeOf({ 1.0, 2.0, 3.0, 4.0, 5.0 });
        QCOMPARE(r.mean, 3.0);
        const double half = 2.776 * std::sqrt(0.5);
        QVERIFY(std::abs(r.low - (3.0 - half)) < 1e-12);
        QVERIFY(std::abs(r.high - (3.0 + half)) < 1e-12);
    }

    void oneDisturbedStepAmongManyDoesNotBecomeTheRunsRange()
    {
        // 19 steps of 1 s and, last, one of 8 s (another process on the CPU): min..max x N said
        // a run could take 8x the median. Ten batches of two: nine of mean 1, one of 4.5; their
        // standard deviation sqrt(11.025 / 9), over sqrt(10); t(9) = 2.262.
        std::vector<double> steps(19, 1.0);
        steps.push_back(8.0);
        const RunRange r = runRangeOf(steps);
        QCOMPARE(r.mean, 1.35);
        QCOMPARE(r.low, 1.0); // the interval's low end (0.56) lies below the fastest step
        const double half = 2.262 * std::sqrt(11.025 / 9.0 / 10.0);
        QVERIFY(std::abs(r.high - (1.35 + half)) < 1e-12);
        QVERIFY(r.high < 2.2);
    }

    void driftBetweenBatchesWidensTheRange()
    {
        // 60 steps of 1 s, then 40 of 2 s (the machine slowed): the batch means (six of 1, four
        // of 2) carry the drift, where independent samples would say 1.30..1.50 s.
        std::vector<double> drifting(60, 1.0);
        drifting.insert(drifting.end(), 40, 2.0);
        const RunRange r = runRangeOf(drifting);
        const double half = 2.262 * std::sqrt(2.4 / 9.0 / 10.0);
        QVERIFY(std::abs(r.high - (1.4 + half)) < 1e-12); // 1.77
        QCOMPARE(r.low, 1.0); // the median: the interval's 1.03 reaches down to it
        // The same steps mixed evenly (six of 1 and four of 2 in every batch): no drift, and
        // every batch mean is 1.4.
        std::vector<double> mixed;
        for (int batch = 0; batch < 10; ++batch) {
            mixed.insert(mixed.end(), 6, 1.0);
            mixed.insert(mixed.end(), 4, 2.0);
        }
        const RunRange m = runRangeOf(mixed);
        QVERIFY(std::abs(m.high - 1.4) < 1e-12);
        QCOMPARE(m.low, 1.0); // the median the estimate uses, below the mean
    }

    void fewSamplesMayReachPastTheSlowest()
    {
        // Three samples: mean 1.0667, standard error 0.1202, t(2) = 4.303. The low end stops at
        // the fastest step; the high end passes the slowest, as little as three samples say.
        const RunRange r = runRangeOf({ 0.9, 1.0, 1.3 });
        QCOMPARE(r.low, 0.9);
        const double mean = 3.2 / 3.0;
        const double se = std::sqrt(
            (std::pow(0.9 - mean, 2) + std::pow(1.0 - mean, 2) + std::pow(1.3 - mean, 2)) / 2.0
            / 3.0);
        QVERIFY(std::abs(r.high - (mean + 4.303 * se)) < 1e-12);
        QVERIFY(r.high > 1.5);
        const RunRange one = runRangeOf({ 2.5 });
        QCOMPARE(one.mean, 2.5);
        QCOMPARE(one.low, 2.5);
        QCOMPARE(one.high, 2.5);
    }

    void equalSamplesGiveThatValueExactly()
    {
        // 0.7 summed 100 times and divided lands an ulp above 0.7; the range must not.
        const RunRange r = runRangeOf(std::vector<double>(100, 0.7));
        QVERIFY(r.mean == 0.7);
        QVERIFY(r.low == 0.7);
        QVERIFY(r.high == 0.7);
    }

    void stepTimingRangesWholeSteps()
    {
        // The run range is taken over the whole-step samples, like the step's spread.
        const std::vector<StepSample> samples = { { 0.40, 4, 0.10 }, { 0.44, 4, 0.12 },
            { 0.40, 4, 0.10 }, { 0.36, 4, 0.08 }, { 0.40, 4, 0.10 }, { 0.40, 4, 0.10 } };
        const StepTiming t = stepTimingOf(samples, 4);
        const RunRange direct = runRangeOf({ 0.50, 0.56, 0.50, 0.44, 0.50, 0.50 });
        QCOMPARE(t.stepRun.mean, direct.mean);
        QCOMPARE(t.stepRun.low, direct.low);
        QCOMPARE(t.stepRun.high, direct.high);
        QVERIFY(t.stepRun.low > t.step.min && t.stepRun.high < t.step.max);
    }
};

QTEST_GUILESS_MAIN(TestBenchStatistics)
#include "tst_bench_statistics.moc"

// Step timing from blocks of back-to-back micro-steps (statistics.h): per-micro-step time is a
// block's time over its length, and the step's median, min and max are taken over whole-step
// samples, so one slow micro-step is not multiplied by the accumulation. Durations are given,
// not measured: the arithmetic is what is tested here; the accuracy against real steps is the
// --validate benchmark's (docs/benchmark.md). The range of a run (RunRange) is the 95% confidence
// interval of the mean step within min..max, holding the median.

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

    void studentTQuantilesMatchTheTable()
    {
        QCOMPARE(studentT975(1), 12.706);
        QCOMPARE(studentT975(2), 4.303);
        QCOMPARE(studentT975(30), 2.042);
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
        // Mean 3, standard deviation sqrt(2.5), standard error sqrt(0.5), t(4) = 2.776.
        const RunRange r = runRangeOf({ 1.0, 2.0, 3.0, 4.0, 5.0 });
        QCOMPARE(r.mean, 3.0);
        const double half = 2.776 * std::sqrt(0.5);
        QVERIFY(std::abs(r.low - (3.0 - half)) < 1e-12);
        QVERIFY(std::abs(r.high - (3.0 + half)) < 1e-12);
    }

    void oneDisturbedStepAmongManyDoesNotBecomeTheRunsRange()
    {
        // 19 steps of 1 s and one of 8 s (another process on the CPU): min..max x N said a run
        // could take 8x the median; its mean step lies within 1.0..2.08 s at 95%.
        std::vector<double> steps(19, 1.0);
        steps.push_back(8.0);
        const RunRange r = runRangeOf(steps);
        QCOMPARE(r.mean, 1.35);
        QCOMPARE(r.low, 1.0); // the interval's low end (0.62) lies below the fastest step
        const double half = 2.093 * std::sqrt(46.55 / 19.0 / 20.0);
        QVERIFY(std::abs(r.high - (1.35 + half)) < 1e-12);
        QVERIFY(r.high < 2.1);
    }

    void runRangeHoldsTheMedianTheEstimateUses()
    {
        // 60 steps of 1 s and 40 of 2 s: the median is 1 s, the mean's interval 1.30..1.50 s;
        // the range reaches down to the median.
        std::vector<double> steps(60, 1.0);
        steps.insert(steps.end(), 40, 2.0);
        const RunRange r = runRangeOf(steps);
        QCOMPARE(r.low, 1.0);
        const double half = studentT975(99) * std::sqrt(0.24 * 100.0 / 99.0 / 100.0);
        QVERIFY(std::abs(r.high - (1.4 + half)) < 1e-12);
        QVERIFY(r.high < 1.5);
    }

    void fewScatteredSamplesKeepMinToMax()
    {
        // Three samples: t(2) = 4.303 reaches past both ends, which bound any mean.
        const RunRange r = runRangeOf({ 0.9, 1.0, 1.3 });
        QCOMPARE(r.low, 0.9);
        QCOMPARE(r.high, 1.3);
        const RunRange one = runRangeOf({ 2.5 });
        QCOMPARE(one.mean, 2.5);
        QCOMPARE(one.low, 2.5);
        QCOMPARE(one.high, 2.5);
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

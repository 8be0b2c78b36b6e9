// Step timing from blocks of back-to-back micro-steps (statistics.h): per-micro-step time is a
// block's time over its length, and the step's median, min and max are taken over whole-step
// samples, so one slow micro-step is not multiplied by the accumulation. Durations are given,
// not measured: the arithmetic is what is tested here; the accuracy against real steps is the
// --validate benchmark's (docs/benchmark.md).

#include "benchmark/statistics.h"

#include <QTest>

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
};

QTEST_GUILESS_MAIN(TestBenchStatistics)
#include "tst_bench_statistics.moc"

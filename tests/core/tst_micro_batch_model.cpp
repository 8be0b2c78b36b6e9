// The micro-batch model the benchmark's pruning and the planner's extrapolation share: the
// least-squares line, the largest fitting power of two, and the choices N GPUs offer once the
// states are sharded, all on round figures that can be checked by hand.

#include "core/micro_batch_model.h"

#include <QTest>

using namespace gpuplan;

namespace {

// 1 GPU, micro-batch 8 of a 1,024-sample batch (accumulation 128). Peak memory 60 GB at
// micro-batch 4 and 70 GB at 8: 50 GB fixed, 2.5 GB per sample. States: 8 GB parameters,
// 8 GB gradients, 24 GB optimizer. Micro-steps: 0.5 s at 4, 0.9 s at 8 (0.1 s + 0.1 s/sample).
MeasuredResult oneGpu()
{
    MeasuredResult m;
    m.gpuCount = 1;
    m.parallelism = Parallelism::None;
    m.microBatch = 8;
    m.accumulation = 128;
    m.memorySamples = { { 4, 60'000'000'000 }, { 8, 70'000'000'000 } };
    m.parameterBytes = 8'000'000'000;
    m.gradientBytes = 8'000'000'000;
    m.optimizerStateBytes = 24'000'000'000;
    m.microStepSamples = { { 4, 0.5 }, { 8, 0.9 } };
    return m;
}

constexpr double k80GB = 80e9;

const MicroBatchAtCount* find(const std::vector<MicroBatchAtCount>& choices, Parallelism strategy)
{
    for (const auto& c : choices)
        if (c.strategy == strategy)
            return &c;
    return nullptr;
}

// ddp and ZeRO-1, -2 and -3 among the choices; all null unless there are exactly those four.
struct Strategies {
    const MicroBatchAtCount* ddp = nullptr;
    const MicroBatchAtCount* zero1 = nullptr;
    const MicroBatchAtCount* zero2 = nullptr;
    const MicroBatchAtCount* zero3 = nullptr;
};
Strategies strategiesOf(const std::vector<MicroBatchAtCount>& choices)
{
    if (choices.size() != 4)
        return {};
    return { find(choices, Parallelism::Ddp), find(choices, Parallelism::Zero1),
        find(choices, Parallelism::Zero2), find(choices, Parallelism::Zero3) };
}

} // namespace

class TestMicroBatchModel : public QObject {
    Q_OBJECT

private slots:
    // One definition of the strategies for the benchmark, the results files and this model.
    void parallelismNamesAndSharding()
    {
        const std::pair<Parallelism, int> levels[]
            = { { Parallelism::None, 0 }, { Parallelism::Ddp, 0 }, { Parallelism::Zero1, 1 },
                  { Parallelism::Zero2, 2 }, { Parallelism::Zero3, 3 } };
        for (const auto& [p, level] : levels) {
            QCOMPARE(shardingLevel(p), level);
            QVERIFY(parallelismFromString(toString(p)) == p);
        }
        QCOMPARE(std::string(toString(Parallelism::Zero1)), std::string("zero1"));
        QVERIFY(!parallelismFromString("zero4"));
        QVERIFY(!parallelismFromString("DDP"));
    }

    void leastSquaresThroughTwoAndThreePoints()
    {
        const auto two = leastSquaresLine({ { 4, 60e9 }, { 8, 70e9 } });
        QVERIFY(two);
        QCOMPARE(two->slope, 2.5e9);
        QCOMPARE(two->intercept, 50e9);
        // Three points on y = 2 + x.
        const auto three = leastSquaresLine({ { 0, 2 }, { 1, 3 }, { 2, 4 } });
        QVERIFY(qAbs(three->slope - 1.0) < 1e-12);
        QVERIFY(qAbs(three->intercept - 2.0) < 1e-12);
        QVERIFY(!leastSquaresLine({ { 4, 1 } }));
        QVERIFY(!leastSquaresLine({ { 4, 1 }, { 4, 2 } })); // one distinct x
    }

    void powersOfTwo()
    {
        const Line peak { 50e9, 2.5e9 };
        QCOMPARE(largestFittingPowerOfTwo(peak, k80GB, 256), 8); // 12 samples would fit
        QCOMPARE(largestFittingPowerOfTwo(peak, k80GB, 4), 4); // the ceiling
        QCOMPARE(largestFittingPowerOfTwo(peak, 40e9, 256), 0); // not even one sample
        QCOMPARE(largestPowerOfTwoAtMost(0), 1);
        QCOMPARE(largestPowerOfTwoAtMost(1), 1);
        QCOMPARE(largestPowerOfTwoAtMost(5), 4);
        QCOMPARE(largestPowerOfTwoAtMost(8), 8);
        QCOMPARE(largestPowerOfTwoAtMost(1023), 512);
    }

    // Four GPUs: ZeRO-1 leaves 8 + 8 + 6 = 22 GB of states (18 GB freed), so 32 + 2.5 m <= 80
    // fits 16; ZeRO-2 leaves 16 GB, 26 + 2.5 m fits 21, also 16; ZeRO-3 leaves 10 GB, 20 + 2.5 m
    // fits 24, 16 again. ddp stays at 8.
    void shardingFreesRoomOnFourGpus()
    {
        const auto choices = microBatchChoices(oneGpu(), 1024, 4, k80GB);
        const auto [ddp, zero1, zero2, zero3] = strategiesOf(choices);
        QVERIFY(ddp && zero1 && zero2 && zero3);
        QCOMPARE(zero3->microBatch, 16);
        QCOMPARE(ddp->microBatch, 8);
        QCOMPARE(ddp->accumulation, 32); // 256 samples per GPU
        QCOMPARE(zero1->microBatch, 16);
        QCOMPARE(zero1->accumulation, 16);
        QCOMPARE(zero2->microBatch, 16);
        QVERIFY(zero1->memoryFitted && zero1->timed);
        // Per-sample time 0.9 / 8 = 0.1125 s measured; 16 x t(16) = 16 x 1.7 = 27.2 s for the
        // 256 samples that took 28.8 s: x0.9444.
        QVERIFY(qAbs(ddp->computeRatio - 1.0) < 1e-12);
        QVERIFY(qAbs(zero1->computeRatio - 27.2 / 28.8) < 1e-12);
        // Micro-batch 16 is past the 8 timed: the slow end keeps the rate timed at 8 (x1), ddp,
        // at a micro-batch timed, has no other.
        QVERIFY(qAbs(zero1->computeRatioHigh - 1.0) < 1e-12);
        QCOMPARE(ddp->computeRatioHigh, ddp->computeRatio);
        // Per step, in all-reduces of the gradients' bytes (core/step_communication.h): ddp one,
        // in the last of its 32 micro-steps' backward; ZeRO-1 a reduce-scatter there and an
        // all-gather waited for; ZeRO-2 16 reduce-scatters + that all-gather; ZeRO-3 16
        // reduce-scatters and 32 gathers of the parameters (as many bytes as the gradients).
        QCOMPARE(ddp->communication.overlappable, 1.0);
        QCOMPARE(ddp->communication.exposed, 0.0);
        QVERIFY(qAbs(ddp->communication.overlapWindow - 2.0 / 3 / 32) < 1e-15);
        QCOMPARE(zero1->communication.total(), 1.0);
        QCOMPARE(zero1->communication.exposed, 0.5);
        QCOMPARE(zero2->communication.total(), 8.5);
        QCOMPARE(zero2->communication.exposed, 0.5);
        QCOMPARE(zero3->communication.overlappable, 8.0);
        QCOMPARE(zero3->communication.exposed, 16.0);
    }

    // A ZeRO-3 run of 4 GPUs holds a quarter of every state: 10 + 10 + 20 GB of the 40 + 40 +
    // 80 GB, and 2 GB and 0.25 GB a sample beside them (43 GB at micro-batch 4, 44 GB at 8).
    // On 8 GPUs of 48 GB, ddp (160 GB of states), ZeRO-1 (90 GB) and ZeRO-2 (55 GB) cannot hold
    // them; ZeRO-3 (20 GB) fits 64 samples (20 + 2 + 0.25 x 104 <= 48). Until this review a
    // run that nothing else could hold was extrapolated as ddp, one all-reduce a step.
    void aZero3RunIsExtrapolatedAsZero3()
    {
        MeasuredResult m = oneGpu();
        m.gpuCount = 4;
        m.parallelism = Parallelism::Zero3;
        m.parameterBytes = 10'000'000'000;
        m.gradientBytes = 10'000'000'000;
        m.optimizerStateBytes = 20'000'000'000;
        m.memorySamples = { { 4, 43'000'000'000 }, { 8, 44'000'000'000 } };
        const auto choices = microBatchChoices(m, 1024, 8, 48e9);
        QCOMPARE(choices.size(), std::size_t(1));
        QVERIFY(choices[0].strategy == Parallelism::Zero3);
        QCOMPARE(choices[0].microBatch, 64);
        QCOMPARE(choices[0].accumulation, 2); // 128 samples a GPU
        // Two micro-steps: two reduce-scatters (1 all-reduce's bytes) beside the backward, and
        // four gathers of the parameters (as many bytes as the gradients), waited for.
        QCOMPARE(choices[0].communication.overlappable, 1.0);
        QCOMPARE(choices[0].communication.exposed, 2.0);
        // Without peaks to fit, the run's own strategy at its own micro-batch: more GPUs hold
        // less of its states than the run did.
        m.memorySamples.resize(1);
        const auto unfitted = microBatchChoices(m, 1024, 8, 48e9);
        QCOMPARE(unfitted.size(), std::size_t(1));
        QVERIFY(unfitted[0].strategy == Parallelism::Zero3);
        QCOMPARE(unfitted[0].microBatch, 8);
        QCOMPARE(unfitted[0].communication.exposed, 16.0);
        // Nor with peaks but without the parameters' bytes: missing, they had counted as none,
        // and ddp, ZeRO-1 and ZeRO-2 seemed to need no room for the parameters they hold whole.
        m.memorySamples = { { 4, 43'000'000'000 }, { 8, 44'000'000'000 } };
        m.parameterBytes.reset();
        const auto noParameters = microBatchChoices(m, 1024, 8, 48e9);
        QCOMPARE(noParameters.size(), std::size_t(1));
        QVERIFY(noParameters[0].strategy == Parallelism::Zero3);
        QVERIFY(!noParameters[0].memoryFitted);
    }

    void fewerSamplesPerGpuThanTheMicroBatch()
    {
        // 16 samples over 4 GPUs: 4 each, so micro-batch 4, one micro-step: 0.5 s for 4
        // samples against 0.45 s at the measured rate.
        const auto choices = microBatchChoices(oneGpu(), 16, 4, k80GB);
        for (const auto& c : choices) {
            QCOMPARE(c.microBatch, 4);
            QCOMPARE(c.accumulation, 1);
            QVERIFY(qAbs(c.computeRatio - 0.5 / 0.45) < 1e-12);
        }
        // One micro-step: one reduce-scatter and the all-gather.
        QCOMPARE(find(choices, Parallelism::Zero2)->communication.total(), 1.0);
    }

    void withoutPeaksOrTimesOnlyTheMeasuredMicroBatch()
    {
        MeasuredResult m = oneGpu();
        m.memorySamples.resize(1);
        m.microStepSamples.clear();
        auto choices = microBatchChoices(m, 1000, 8, k80GB);
        QCOMPARE(choices.size(), std::size_t(1));
        QVERIFY(choices[0].strategy == Parallelism::Ddp);
        QCOMPARE(choices[0].microBatch, 8);
        QVERIFY(!choices[0].memoryFitted && !choices[0].timed);
        // 125 samples per GPU in 16 micro-steps of 8: the last one padded, 128 / 125.
        QCOMPARE(choices[0].accumulation, 16);
        QVERIFY(qAbs(choices[0].computeRatio - 128.0 / 125) < 1e-12);

        // A micro-step time that falls with the micro-batch is noise: not fitted.
        m = oneGpu();
        m.microStepSamples = { { 4, 0.9 }, { 8, 0.5 } };
        choices = microBatchChoices(m, 1024, 4, k80GB);
        QVERIFY(!choices.empty() && !choices[0].timed);

        // Peak memory that does not grow with the micro-batch is noise too: not fitted (a flat
        // 60 GB had let every micro-batch to 256 fit in 80 GB).
        m = oneGpu();
        m.memorySamples = { { 4, 60'000'000'000 }, { 8, 60'000'000'000 } };
        choices = microBatchChoices(m, 1024, 4, k80GB);
        QVERIFY(!choices.empty());
        for (const auto& c : choices)
            QVERIFY(!c.memoryFitted && c.microBatch == 8);

        // No micro-batch in the file (older results): nothing to choose from.
        m.microBatch = 0;
        QVERIFY(microBatchChoices(m, 1024, 4, k80GB).empty());
    }

    // A per-GPU share the fitted micro-batch does not divide is split evenly, as gpuplan-bench
    // runs it: measured as 2 x 48 of 96 on one GPU, two GPUs run their 48 in one micro-step of
    // 48 (it ran); padded to powers of two they were priced as 2 x 32, 64 samples for 48.
    void anUnevenShareIsSplitEvenly()
    {
        MeasuredResult m = oneGpu();
        m.microBatch = 48;
        m.accumulation = 2;
        m.memorySamples.resize(1);
        m.microStepSamples.clear();
        auto choices = microBatchChoices(m, 96, 2, k80GB);
        QCOMPARE(choices.size(), std::size_t(1));
        QCOMPARE(choices[0].microBatch, 48);
        QCOMPARE(choices[0].accumulation, 1);
        QCOMPARE(choices[0].computeRatio, 1.0);
        // 40 a GPU with 32 fitting (measured at 32): 2 x 20, not 32 and 8 padded to 32.
        m.microBatch = 32;
        choices = microBatchChoices(m, 80, 2, k80GB);
        QCOMPARE(choices[0].microBatch, 20);
        QCOMPARE(choices[0].accumulation, 2);
        QCOMPARE(choices[0].computeRatio, 1.0);
    }

    // The same even split where the memory model chose the micro-batch: 160 samples on 4 GPUs
    // are 40 a GPU. ddp keeps 8 (5 x 8, already even); ZeRO-1, -2 and -3 fit 16 (as in
    // shardingFreesRoomOnFourGpus), which 40 splits into 3 x 14, not 16 + 16 + 8 padded to 16.
    void anUnevenShareIsSplitEvenlyWhereMemoryChose()
    {
        const auto choices = microBatchChoices(oneGpu(), 160, 4, k80GB);
        const auto [ddp, zero1, zero2, zero3] = strategiesOf(choices);
        QVERIFY(ddp && zero1 && zero2 && zero3);
        QCOMPARE(zero3->microBatch, 14);
        QCOMPARE(ddp->microBatch, 8);
        QCOMPARE(ddp->accumulation, 5);
        QVERIFY(zero1->memoryFitted);
        QCOMPARE(zero1->microBatch, 14);
        QCOMPARE(zero1->accumulation, 3);
        QCOMPARE(zero2->microBatch, 14);
        QCOMPARE(zero2->accumulation, 3);
        // 3 x t(14) = 3 x (0.1 + 1.4) = 4.5 s for 40 samples that take 40 x 0.1125 = 4.5 s at
        // the measured rate; padded, 3 x t(16) = 5.1 s would have priced 13 % more.
        QVERIFY(qAbs(zero1->computeRatio - 1.0) < 1e-12);
        QCOMPARE(zero2->communication.total(), 2.0); // 3 reduce-scatters + 1 all-gather
    }

    void theRunVouchesForItsOwnMicroBatch()
    {
        // A capacity the fitted line says even one sample overflows: the measured micro-batch
        // ran, so ddp (the same states) keeps it, and nothing larger is offered.
        const auto choices = microBatchChoices(oneGpu(), 1024, 4, 45e9);
        QVERIFY(!choices.empty());
        for (const auto& c : choices)
            QCOMPARE(c.microBatch, 8);
    }
};

QTEST_GUILESS_MAIN(TestMicroBatchModel)
#include "tst_micro_batch_model.moc"

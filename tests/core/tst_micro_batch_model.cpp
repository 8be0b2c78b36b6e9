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

// ddp, ZeRO-1 and ZeRO-2 among the choices; all null unless there are exactly those three.
struct Strategies {
    const MicroBatchAtCount* ddp = nullptr;
    const MicroBatchAtCount* zero1 = nullptr;
    const MicroBatchAtCount* zero2 = nullptr;
};
Strategies strategiesOf(const std::vector<MicroBatchAtCount>& choices)
{
    if (choices.size() != 3)
        return {};
    return { find(choices, Parallelism::Ddp), find(choices, Parallelism::Zero1),
        find(choices, Parallelism::Zero2) };
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
    // fits 16; ZeRO-2 leaves 16 GB, 26 + 2.5 m fits 21, also 16. ddp stays at 8.
    void shardingFreesRoomOnFourGpus()
    {
        const auto choices = microBatchChoices(oneGpu(), 1024, 4, k80GB);
        const auto [ddp, zero1, zero2] = strategiesOf(choices);
        QVERIFY(ddp && zero1 && zero2);
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
        QCOMPARE(ddp->allReduces, 1.0);
        QCOMPARE(zero1->allReduces, 1.0);
        QCOMPARE(zero2->allReduces, 8.5); // 16 reduce-scatters + 1 all-gather
    }

    // A ZeRO-2 run on 2 GPUs holds half the gradients and optimizer state: the model rebuilds
    // the whole states (8 + 8 + 24 GB) before sharding them over 8 GPUs of 64 GB.
    void shardedMeasurementIsUnsharded()
    {
        MeasuredResult m = oneGpu();
        m.gpuCount = 2;
        m.parallelism = Parallelism::Zero2;
        m.gradientBytes = 4'000'000'000;
        m.optimizerStateBytes = 12'000'000'000;
        // The same activations as oneGpu(): 10 GB fixed + 24 GB of states, 2.5 GB per sample.
        m.memorySamples = { { 4, 44'000'000'000 }, { 8, 54'000'000'000 } };
        const auto choices = microBatchChoices(m, 1024, 8, 64e9);
        // ddp holds all 40 GB: 50 + 2.5 m <= 64 fits 5.6 -> 4; the run's own micro-batch does
        // not vouch for it, ddp holding more than the run did. (Taking the run's 24 GB as
        // whole would have said 8.)
        QCOMPARE(find(choices, Parallelism::Ddp)->microBatch, 4);
        // ZeRO-1 on 8: 8 + 8 + 3 = 19 GB, 29 + 2.5 m fits 14 -> 8; ZeRO-2: 8 + 1 + 3 = 12 GB,
        // 22 + 2.5 m fits 16.8 -> 16.
        QCOMPARE(find(choices, Parallelism::Zero1)->microBatch, 8);
        QCOMPARE(find(choices, Parallelism::Zero2)->microBatch, 16);
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
        QCOMPARE(find(choices, Parallelism::Zero2)->allReduces,
            1.0); // one micro-step, one reduce-scatter
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
    // are 40 a GPU. ddp keeps 8 (5 x 8, already even); ZeRO-1 and ZeRO-2 fit 16 (as in
    // shardingFreesRoomOnFourGpus), which 40 splits into 3 x 14, not 16 + 16 + 8 padded to 16.
    void anUnevenShareIsSplitEvenlyWhereMemoryChose()
    {
        const auto choices = microBatchChoices(oneGpu(), 160, 4, k80GB);
        const auto [ddp, zero1, zero2] = strategiesOf(choices);
        QVERIFY(ddp && zero1 && zero2);
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
        QCOMPARE(zero2->allReduces, 2.0); // 3 reduce-scatters + 1 all-gather
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

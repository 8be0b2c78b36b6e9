// What each data-parallel strategy exchanges per optimizer step, and how much of it the
// backward pass can hide (core/step_communication.h), on round figures checked by hand.

#include "core/step_communication.h"

#include <QTest>

using namespace gpuplan;

class TestStepCommunication : public QObject {
    Q_OBJECT

private slots:
    // In all-reduces of the gradients' bytes per step of 8 micro-steps, parameters as large
    // as the gradients (both fp32).
    void volumesPerStrategy_data()
    {
        QTest::addColumn<int>("strategy");
        QTest::addColumn<double>("overlappable");
        QTest::addColumn<double>("exposed");
        QTest::addColumn<double>("window");
        // One all-reduce, in the last micro-step's backward (2/3 of its compute).
        QTest::addRow("ddp") << static_cast<int>(Parallelism::Ddp) << 1.0 << 0.0 << 2.0 / 3 / 8;
        QTest::addRow("one process on several GPUs is ddp")
            << static_cast<int>(Parallelism::None) << 1.0 << 0.0 << 2.0 / 3 / 8;
        // Half an all-reduce each: the reduce-scatter, and the all-gather the next step awaits.
        QTest::addRow("zero1") << static_cast<int>(Parallelism::Zero1) << 0.5 << 0.5 << 2.0 / 3 / 8;
        // A reduce-scatter in every micro-step's backward.
        QTest::addRow("zero2") << static_cast<int>(Parallelism::Zero2) << 4.0 << 0.5 << 2.0 / 3;
        // And two gathers of the parameters every micro-step, waited for (no prefetch).
        QTest::addRow("zero3") << static_cast<int>(Parallelism::Zero3) << 4.0 << 8.0 << 2.0 / 3;
    }
    void volumesPerStrategy()
    {
        QFETCH(int, strategy);
        QFETCH(double, overlappable);
        QFETCH(double, exposed);
        QFETCH(double, window);
        const StepCommunication c
            = stepCommunication(static_cast<Parallelism>(strategy), /*accumulation=*/8, 1.0);
        QCOMPARE(c.overlappable, overlappable);
        QCOMPARE(c.exposed, exposed);
        QVERIFY(qAbs(c.overlapWindow - window) < 1e-15);
        QCOMPARE(c.total(), overlappable + exposed);
    }

    // 16-bit parameters beside fp32 gradients: the gathers move half as much.
    void gathersMoveTheParametersBytes()
    {
        QCOMPARE(stepCommunication(Parallelism::Zero1, 8, 0.5).exposed, 0.25);
        QCOMPARE(stepCommunication(Parallelism::Zero3, 8, 0.5).exposed, 4.0);
        // No accumulation is one micro-step.
        QCOMPARE(stepCommunication(Parallelism::Zero2, 0, 1.0).overlappable, 0.5);
    }

    // 100 days of compute; one all-reduce a step adds 6 days over the run.
    void whatTheBackwardPassHides()
    {
        // ddp in one micro-step: 66.7 days of backward hide all 6.
        RunDays ddp { 100.0, 6.0, stepCommunication(Parallelism::Ddp, 1, 1.0) };
        QCOMPARE(ddp.best(), 100.0);
        QCOMPARE(ddp.worst(), 106.0);
        QCOMPARE(ddp.middle(), 103.0);
        // In 64 micro-steps the last backward is 100 x 2/3 / 64 = 1.04 days: 4.96 days show.
        ddp.exchange = stepCommunication(Parallelism::Ddp, 64, 1.0);
        QVERIFY(qAbs(ddp.best() - (100.0 + 6.0 - 100.0 * 2 / 3 / 64)) < 1e-12);
        // ZeRO-1: the all-gather (3 days) always shows, the reduce-scatter hides.
        const RunDays zero1 { 100.0, 6.0, stepCommunication(Parallelism::Zero1, 1, 1.0) };
        QCOMPARE(zero1.best(), 103.0);
        QCOMPARE(zero1.worst(), 106.0);
        // ZeRO-3 over 4 micro-steps: 8 gathers (24 days) show; 2 all-reduces' worth of
        // reduce-scatters (12 days) hide behind 66.7 days of backward.
        const RunDays zero3 { 100.0, 6.0, stepCommunication(Parallelism::Zero3, 4, 1.0) };
        QCOMPARE(zero3.communication(), 36.0);
        QCOMPARE(zero3.best(), 124.0);
        QCOMPARE(zero3.worst(), 136.0);
        // Communication longer than the window: only the window hides.
        const RunDays slow { 10.0, 60.0, stepCommunication(Parallelism::Ddp, 1, 1.0) };
        QVERIFY(qAbs(slow.best() - (10.0 + 60.0 - 10.0 * 2 / 3)) < 1e-12);
    }

    // The inverse of middle(): the compute behind a measured step that timed its exchange.
    void computeBesideAMeasuredExchange()
    {
        // ddp, 6 days of all-reduce, all hidden at the centre's half: 103 days hold 100 of
        // compute (the case above, backwards).
        const StepCommunication ddp = stepCommunication(Parallelism::Ddp, 1, 1.0);
        QVERIFY(qAbs(computeDaysBeside(103.0, 6.0, ddp, 0.0) - 100.0) < 1e-9);
        // The window too short to hide it: 10 days of compute beside 60 of exchange take
        // 10 + 60 - 10/3 = 66.67 at the centre.
        const double slow = 10.0 + 60.0 - 10.0 / 3;
        QVERIFY(qAbs(computeDaysBeside(slow, 60.0, ddp, 0.0) - 10.0) < 1e-9);
        // An update waits for nothing and hides nothing: it comes off whole.
        QVERIFY(qAbs(computeDaysBeside(113.0, 6.0, ddp, 10.0) - 100.0) < 1e-9);
        // ZeRO-3's exposed gathers (24 days over 4 micro-steps) come off whole too.
        const StepCommunication zero3 = stepCommunication(Parallelism::Zero3, 4, 1.0);
        QVERIFY(qAbs(computeDaysBeside(130.0, 6.0, zero3, 0.0) - 100.0) < 1e-9);
        // Faster than the exchange alone, as modelled: no compute left, never a negative one.
        QCOMPARE(computeDaysBeside(2.0, 6.0, ddp, 0.0), 0.0);
        QCOMPARE(computeDaysBeside(0.0, 6.0, ddp, 0.0), 0.0);
    }

    void descriptions()
    {
        QCOMPARE(exchangeDescription(Parallelism::Ddp),
            std::string_view("an all-reduce of the gradients per step"));
        QVERIFY(exchangeDescription(Parallelism::Zero3).find("each gather waited for")
            != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestStepCommunication)
#include "tst_step_communication.moc"

// The attention choice (benchmark/models/attention_choice.h): of the fused kernel and the
// spelled-out products, the one the trial timed faster runs, once per shape, and where our
// short-sequence kernels are offered, the faster of that one and ours; the trial leaves
// no gradient behind and runs with gradients on inside no-grad code; scores too large are not
// tried, a trial out of memory keeps the fused kernel; the notes say what was chosen and why.
// The timer is a stand-in (the real one times on a GPU); the paths compute the same.

#include "benchmark/kernels/short_attention_op.h"
#include "benchmark/models/attention.h"
#include "benchmark/models/attention_choice.h"

#include <QTest>

#include <deque>

using namespace gpuplan::bench;

namespace {

// Runs the work and answers the next of `seconds`: the trial times the fused path three times,
// then the spelled-out one three times.
struct ScriptedTimer {
    std::deque<double> seconds;
    int calls = 0;

    AttentionTimer timer()
    {
        return [this](const torch::Device&, const std::function<void()>& work) {
            work();
            ++calls;
            const double s = seconds.front();
            seconds.pop_front();
            return s;
        };
    }
};

torch::Tensor inputs(int batch, int positions = 5)
{
    return torch::randn({ batch, 2, positions, 8 });
}

} // namespace

class TestBenchAttentionChoice : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { torch::manual_seed(7); }

    void fasterPathRunsAndIsTimedOncePerShape()
    {
        ScriptedTimer scripted { { 0.004, 0.005, 0.004, 0.0016, 0.0015, 0.0017, 0.001, 0.001, 0.001,
            0.002, 0.002, 0.002 } };
        AttentionChooser chooser(scripted.timer());
        const auto q = inputs(2), k = inputs(2), v = inputs(2);
        QVERIFY(chooser.choose(q, k, v, false) == AttentionPath::Explicit);
        QCOMPARE(scripted.calls, 6);
        QVERIFY(chooser.choose(q, k, v, false) == AttentionPath::Explicit); // cached
        QCOMPARE(scripted.calls, 6);
        // Another micro-batch is another shape: timed again, and there the fused one wins.
        const auto q4 = inputs(4), k4 = inputs(4), v4 = inputs(4);
        QVERIFY(chooser.choose(q4, k4, v4, false) == AttentionPath::Fused);
        QCOMPARE(scripted.calls, 12);

        const auto notes = chooser.takeNotes(2);
        QCOMPARE(int(notes.size()), 1); // the other micro-batch is left out
        QCOMPARE(notes.front(),
            std::string("attention 2x2x5x8 Float: spelled-out products, 1.600 ms "
                        "forward+backward against 4.000 ms fused"));
        QVERIFY(chooser.takeNotes(4).empty()); // forgotten which were used, not the choices
        QVERIFY(chooser.choose(q4, k4, v4, false) == AttentionPath::Fused);
        QCOMPARE(chooser.takeNotes(4).front(),
            std::string("attention 4x2x5x8 Float: fused kernel, 1.000 ms forward+backward "
                        "against 2.000 ms spelled out"));
        QCOMPARE(scripted.calls, 12);
    }

    // A step that ran out of memory at a micro-batch overrules the spelled-out choices there,
    // once, and says so; other micro-batches keep theirs.
    void outOfMemoryInTheStepOverrulesTheSpelledOutPath()
    {
        ScriptedTimer scripted { { 0.004, 0.004, 0.004, 0.001, 0.001, 0.001 } };
        AttentionChooser chooser(scripted.timer());
        const auto q = inputs(2), k = inputs(2), v = inputs(2);
        QVERIFY(chooser.choose(q, k, v, false) == AttentionPath::Explicit);
        QVERIFY(!chooser.preferFusedAt(4));
        QVERIFY(chooser.preferFusedAt(2));
        QVERIFY(!chooser.preferFusedAt(2)); // nothing left to change
        QVERIFY(chooser.choose(q, k, v, false) == AttentionPath::Fused);
        QCOMPARE(scripted.calls, 6); // not timed again
        QCOMPARE(chooser.takeNotes(2).front(),
            std::string("attention 2x2x5x8 Float: fused kernel (spelled-out products, 1.000 ms "
                        "against 4.000 ms fused, ran out of memory in the step)"));
    }

    // Attention met inside a trial (the timer runs the work) takes the fused path at once, on
    // the same thread, without waiting for a lock.
    void attentionInsideATrialIsNotTimed()
    {
        AttentionChooser* self = nullptr;
        int calls = 0;
        AttentionChooser chooser([&](const torch::Device&, const std::function<void()>& work) {
            work();
            const auto q = inputs(3);
            if (self->choose(q, q, q, true) != AttentionPath::Fused)
                throw std::logic_error("a nested choice was timed");
            ++calls;
            return 0.001;
        });
        self = &chooser;
        const auto q = inputs(2);
        chooser.choose(q, q, q, false);
        QCOMPARE(calls, 6);
        QVERIFY(chooser.takeNotes(3).empty()); // the nested shape was neither timed nor noted
        chooser.choose(q, q, q, false);
        chooser.forgetUse();
        QVERIFY(chooser.takeNotes(2).empty()); // forgotten which were used
    }

    // Where our short-sequence kernels are offered, the winner of the first two is timed against
    // them (its own case, noted apart), and the faster runs; an out-of-memory overrule of the
    // spelled-out path makes the fused kernel the one ours are timed against, anew.
    void ourKernelsAreTimedAgainstTheWinner()
    {
        ScriptedTimer scripted { { 0.004, 0.004, 0.004, 0.0016, 0.0016, 0.0016, 0.0015, 0.0015,
            0.0015, 0.0005, 0.0005, 0.0005, 0.001, 0.001, 0.001, 0.002, 0.002, 0.002 } };
        int offers = 0;
        AttentionChooser chooser(scripted.timer(),
            [&](const torch::Tensor&, const torch::Tensor&, const torch::Tensor&, bool) {
                ++offers;
                return true;
            });
        const auto q = inputs(2), k = inputs(2), v = inputs(2);
        QVERIFY(chooser.choose(q, k, v, false) == AttentionPath::ShortKernel);
        QCOMPARE(scripted.calls, 12);
        QVERIFY(chooser.choose(q, k, v, false) == AttentionPath::ShortKernel); // cached
        QCOMPARE(scripted.calls, 12);
        QCOMPARE(offers, 2);
        const auto notes = chooser.takeNotes(2);
        QCOMPARE(int(notes.size()), 2);
        QCOMPARE(notes[0],
            std::string("attention 2x2x5x8 Float: spelled-out products, 1.600 ms "
                        "forward+backward against 4.000 ms fused"));
        QCOMPARE(notes[1],
            std::string("attention 2x2x5x8 Float: our TF32 attention kernels, 0.500 ms "
                        "forward+backward against 1.500 ms spelled out"));

        QVERIFY(chooser.preferFusedAt(2));
        QVERIFY(chooser.choose(q, k, v, false) == AttentionPath::Fused); // 1 ms against ours' 2
        QCOMPARE(scripted.calls, 18);
        QCOMPARE(chooser.takeNotes(2).back(),
            std::string("attention 2x2x5x8 Float: fused kernel, 1.000 ms forward+backward "
                        "against 2.000 ms ours"));
    }

    // Ours compute what the other two do (here through the node's LibTorch ops, on a CPU).
    void ourKernelsPathComputesTheSameAttention()
    {
        const auto q = inputs(2), k = inputs(2), v = inputs(2);
        QVERIFY(
            torch::allclose(shortAttention(q, k, v), attendExplicit(q, k, v, false), 1e-5, 1e-6));
    }

    void causalIsItsOwnShape()
    {
        ScriptedTimer scripted { std::deque<double>(12, 0.001) };
        AttentionChooser chooser(scripted.timer());
        const auto q = inputs(2), k = inputs(2), v = inputs(2);
        chooser.choose(q, k, v, false);
        chooser.choose(q, k, v, true);
        QCOMPARE(scripted.calls, 12);
        QVERIFY(chooser.takeNotes(2).back().find(" causal: fused kernel") != std::string::npos);
    }

    // The trial runs on copies: the model's inputs get no gradient, and inside no-grad code (a
    // checkpointed block's forward) it still times forward and backward.
    void trialLeavesNoTraceAndRunsUnderNoGrad()
    {
        ScriptedTimer scripted { std::deque<double>(6, 0.001) };
        AttentionChooser chooser(scripted.timer());
        const auto q = inputs(3).requires_grad_(), k = inputs(3).requires_grad_(),
                   v = inputs(3).requires_grad_();
        {
            torch::NoGradGuard noGrad;
            chooser.choose(q, k, v, true);
        }
        QCOMPARE(scripted.calls, 6);
        QVERIFY(!q.grad().defined() && !k.grad().defined() && !v.grad().defined());
    }

    void largeScoresAreNotTried()
    {
        ScriptedTimer scripted;
        AttentionChooser chooser(scripted.timer());
        // 16,385 x 16,385 fp32 scores: just over 1 GiB.
        const auto q = torch::randn({ 1, 1, 16385, 1 }), k = torch::randn({ 1, 1, 16385, 1 });
        QVERIFY(chooser.choose(q, k, k, true) == AttentionPath::Fused);
        QCOMPARE(scripted.calls, 0);
        QCOMPARE(chooser.takeNotes(1).front(),
            std::string("attention 1x1x16385x1 Float causal: fused kernel (spelled out, its "
                        "scores would take 1024 MiB a layer)"));
    }

    void trialOutOfMemoryKeepsTheFusedKernel()
    {
        AttentionChooser chooser([](const torch::Device&, const std::function<void()>&) -> double {
            TORCH_CHECK_WITH(OutOfMemoryError, false, "CUDA out of memory. Tried to allocate");
            return 0.0;
        });
        const auto q = inputs(2), k = inputs(2), v = inputs(2);
        QVERIFY(chooser.choose(q, k, v, false) == AttentionPath::Fused);
        QCOMPARE(chooser.takeNotes(2).front(),
            std::string("attention 2x2x5x8 Float: fused kernel (the trial ran out of memory)"));
    }

    void otherErrorsPropagate()
    {
        AttentionChooser chooser([](const torch::Device&, const std::function<void()>&) -> double {
            throw std::runtime_error("a broken device");
        });
        const auto q = inputs(2);
        QVERIFY_EXCEPTION_THROWN(chooser.choose(q, q, q, false), std::runtime_error);
    }

    // Either path may run: they compute the same.
    void bothPathsAgree()
    {
        const auto q = inputs(2, 9), k = inputs(2, 9), v = inputs(2, 9);
        for (const bool causal : { false, true })
            QVERIFY(torch::allclose(attendFused(q, k, v, causal), attendExplicit(q, k, v, causal),
                /*rtol=*/1e-5, /*atol=*/1e-6));
    }

    // On a CPU the fused path runs without a trial, and there is nothing to note.
    void cpuInputsTakeTheFusedPath()
    {
        const auto q = inputs(2);
        QVERIFY(chooseAttention(q, q, q, false) == AttentionPath::Fused);
        QVERIFY(takeTimedChoiceNotes(2).empty());
    }
};

QTEST_GUILESS_MAIN(TestBenchAttentionChoice)
#include "tst_bench_attention_choice.moc"

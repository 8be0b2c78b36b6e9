// TimedChoice (benchmark/timed_choice.h) apart from attention, which tst_bench_attention_choice
// covers: a choice between two paths by their trial times, its note naming the paths as the
// caller does, a check that keeps a wrong alternative from running, the comparison of two paths
// on copies it is made with, and the runner's view of every choice of the process
// (takeTimedChoiceNotes), from which a choice leaves when it is destroyed. The timer is a stand-in
// that runs the work.

#include "benchmark/timed_choice.h"

#include <QTest>

#include <deque>
#include <memory>
#include <stdexcept>

using namespace gpuplan::bench;

namespace {

// Answers the next of `seconds` for each timed run: the default path's three, then the
// alternative's three.
DeviceTimer scripted(std::shared_ptr<std::deque<double>> seconds)
{
    return [seconds](const torch::Device&, const std::function<void()>& work) {
        work();
        const double s = seconds->front();
        seconds->pop_front();
        return s;
    };
}

ChoiceCase caseAt(const std::string& label, int microBatch)
{
    return { label + "|key", label, microBatch, torch::kCPU };
}

const ChoicePaths kPaths { "the library's kernel", "library", "our kernel", "ours" };

} // namespace

class TestBenchTimedChoice : public QObject {
    Q_OBJECT

private slots:
    // A check that finds the alternative wrong keeps the default untimed, and the note says why;
    // one that finds nothing lets the trials decide as before. Each runs once per case.
    void checkThatFindsFaultKeepsTheDefaultUntimed()
    {
        auto seconds = std::make_shared<std::deque<double>>(
            std::deque<double> { 0.003, 0.003, 0.003, 0.001, 0.001, 0.001 });
        TimedChoice choice(scripted(seconds));
        int checks = 0;
        const auto prepare = [](bool) -> std::function<void()> { return [] {}; };
        const auto faulty = [&] {
            ++checks;
            return std::string("its output differs by 0.5 of the largest value, 0.01 allowed");
        };
        QVERIFY(!choice.useAlternative(caseAt("convolution 2x8", 2), kPaths, "", prepare, faulty));
        QVERIFY(!choice.useAlternative(caseAt("convolution 2x8", 2), kPaths, "", prepare, faulty));
        QCOMPARE(checks, 1);
        QCOMPARE(int(seconds->size()), 6); // nothing timed
        QCOMPARE(choice.takeNotes(2),
            std::vector<std::string> { "convolution 2x8: the library's kernel (our kernel not "
                                       "run: its output differs by 0.5 of the largest value, "
                                       "0.01 allowed)" });
        // A check that throws (a kernel that cannot launch here) keeps the default, its message
        // the reason.
        const auto throwing = [&]() -> std::string {
            ++checks;
            throw std::runtime_error("no kernel image is available for execution on the device\n"
                                     "CUDA kernel errors might be reported asynchronously");
        };
        QVERIFY(
            !choice.useAlternative(caseAt("convolution 3x8", 3), kPaths, "", prepare, throwing));
        QCOMPARE(choice.takeNotes(3),
            std::vector<std::string> { "convolution 3x8: the library's kernel (our kernel not "
                                       "run: its check failed: no kernel image is available for "
                                       "execution on the device)" });
        QCOMPARE(int(seconds->size()), 6);
        const auto sound = [&] {
            ++checks;
            return std::string();
        };
        QVERIFY(choice.useAlternative(caseAt("convolution 4x8", 4), kPaths, "", prepare, sound));
        QCOMPARE(checks, 3);
        QVERIFY(seconds->empty());
    }

    // The check of two paths on copies: the output and every input's gradient, each against the
    // default's largest magnitude; the inputs themselves untouched.
    void disagreementOnCopiesNamesWhatStrays()
    {
        const auto x = torch::tensor({ 1.0, -2.0, 4.0 }), w = torch::tensor({ 0.5, 0.5, 0.5 });
        const PathForward product
            = [](const std::vector<torch::Tensor>& in) { return in[0] * in[1]; };
        QCOMPARE(disagreementOnCopies({ x, w }, product, product, 1e-12), std::string());
        QVERIFY(!x.requires_grad() && !x.grad().defined());
        const PathForward scaled
            = [](const std::vector<torch::Tensor>& in) { return in[0] * in[1] * 1.25; };
        QCOMPARE(disagreementOnCopies({ x, w }, product, scaled, 0.01),
            std::string("its output differs by 0.25 of the largest value, 0.01 allowed"));
        QVERIFY(disagreementOnCopies({ x, w }, product, scaled, 0.3).empty());
        // The same output, a wrong gradient for the second input (w's is x times the output).
        const PathForward blind = [](const std::vector<torch::Tensor>& in) {
            return in[0] * in[1].detach() + 0.0 * in[1];
        };
        QCOMPARE(disagreementOnCopies({ x, w }, product, blind, 0.01),
            std::string("its gradient of input 2 differs by 1 of the largest value, 0.01 allowed"));
        const PathForward broken
            = [](const std::vector<torch::Tensor>& in) { return in[0] * std::nan(""); };
        QCOMPARE(QString::fromStdString(disagreementOnCopies({ x, w }, product, broken, 0.01)),
            QString("its output differs by NaN of the largest value, 0.01 allowed"));
        // A gradient the default has and the alternative lacks.
        const PathForward constant
            = [](const std::vector<torch::Tensor>& in) { return in[0] * in[1].detach(); };
        QCOMPARE(disagreementOnCopies({ x, w }, product, constant, 0.01),
            std::string("its gradient of input 2 is missing"));
        // The default's own NaN is not held against the alternative.
        QCOMPARE(disagreementOnCopies({ x, w }, broken, product, 0.01), std::string());
        // Gradients on under a caller's no-grad mode (an activation-checkpointed forward).
        {
            const torch::NoGradGuard noGradients;
            QCOMPARE(disagreementOnCopies({ x, w }, product, scaled, 0.01),
                std::string("its output differs by 0.25 of the largest value, 0.01 allowed"));
        }
        QVERIFY(disagreementOnCopies(
            { x, torch::Tensor() },
            [](const std::vector<torch::Tensor>& in) { return in[0] * 2.0; },
            [](const std::vector<torch::Tensor>& in) { return in[0] + in[0]; }, 0.0)
                    .empty()); // an undefined input has no gradient to compare
    }

    void fasterPathIsChosenAndNamed()
    {
        auto seconds = std::make_shared<std::deque<double>>(
            std::deque<double> { 0.003, 0.003, 0.009, 0.001, 0.002, 0.001 });
        TimedChoice choice(scripted(seconds));
        int runs[2] = { 0, 0 };
        const auto prepare = [&](bool alternative) -> std::function<void()> {
            return [&runs, alternative] { ++runs[alternative]; };
        };
        QVERIFY(choice.useAlternative(caseAt("convolution 2x8", 2), kPaths, "", prepare));
        QCOMPARE(runs[0], 4); // one untimed run, three timed
        QCOMPARE(runs[1], 4);
        QVERIFY(choice.useAlternative(caseAt("convolution 2x8", 2), kPaths, "", prepare));
        QCOMPARE(runs[1], 4); // kept, not timed again
        QCOMPARE(choice.takeNotes(2),
            std::vector<std::string> { "convolution 2x8: our kernel, 1.000 ms forward+backward "
                                       "against 3.000 ms library" });
    }

    void refusalKeepsTheDefaultUntimed()
    {
        auto seconds = std::make_shared<std::deque<double>>();
        TimedChoice choice(scripted(seconds));
        QVERIFY(!choice.useAlternative(caseAt("convolution 4x8", 4), kPaths, "too large",
            [](bool) -> std::function<void()> { throw std::logic_error("prepared"); }));
        QCOMPARE(choice.takeNotes(4),
            std::vector<std::string> { "convolution 4x8: the library's kernel (too large)" });
    }

    // The runner takes the notes of every choice at once, in the order the choices were made;
    // a destroyed choice is no longer asked.
    void everyChoiceOfTheProcessIsAsked()
    {
        const auto prepare = [](bool) -> std::function<void()> { return [] {}; };
        auto first = std::make_unique<TimedChoice>(scripted(
            std::make_shared<std::deque<double>>(std::deque<double> { 1, 1, 1, 2, 2, 2 })));
        TimedChoice second(scripted(
            std::make_shared<std::deque<double>>(std::deque<double> { 2, 2, 2, 1, 1, 1 })));
        QVERIFY(!first->useAlternative(caseAt("first", 8), kPaths, "", prepare));
        QVERIFY(second.useAlternative(caseAt("second", 8), kPaths, "", prepare));
        const auto notes = takeTimedChoiceNotes(8);
        QCOMPARE(int(notes.size()), 2);
        QVERIFY(notes[0].starts_with("first: the library's kernel, 1000.000 ms"));
        QVERIFY(notes[1].starts_with("second: our kernel, 1000.000 ms"));
        QVERIFY(takeTimedChoiceNotes(8).empty()); // taken

        first->useAlternative(caseAt("first", 8), kPaths, "", prepare);
        second.useAlternative(caseAt("second", 8), kPaths, "", prepare);
        forgetTimedChoiceUse();
        QVERIFY(takeTimedChoiceNotes(8).empty());

        first->useAlternative(caseAt("first", 8), kPaths, "", prepare);
        second.useAlternative(caseAt("second", 8), kPaths, "", prepare);
        first.reset();
        const auto left = takeTimedChoiceNotes(8);
        QCOMPARE(int(left.size()), 1);
        QVERIFY(left.front().starts_with("second: "));
    }

    // A choice met inside another choice's trial (on the same thread) takes its default at once,
    // untimed and not kept: met again outside, it is timed then.
    void choiceInsideATrialIsNotTimed()
    {
        auto innerSeconds
            = std::make_shared<std::deque<double>>(std::deque<double> { 2, 2, 2, 1, 1, 1 });
        TimedChoice inner(scripted(innerSeconds));
        int innerRuns = 0;
        const auto innerPrepare
            = [&](bool) -> std::function<void()> { return [&innerRuns] { ++innerRuns; }; };
        std::vector<bool> innerAnswers;
        TimedChoice outer(scripted(
            std::make_shared<std::deque<double>>(std::deque<double> { 1, 1, 1, 2, 2, 2 })));
        QVERIFY(!outer.useAlternative(
            caseAt("outer", 2), kPaths, "", [&](bool) -> std::function<void()> {
                return [&] {
                    innerAnswers.push_back(
                        inner.useAlternative(caseAt("inner", 2), kPaths, "", innerPrepare));
                };
            }));
        QCOMPARE(int(innerAnswers.size()), 8); // each of the outer trial's runs met it
        for (const bool answer : innerAnswers)
            QVERIFY(!answer);
        QCOMPARE(innerRuns, 0);
        QVERIFY(inner.takeNotes(2).empty()); // nothing kept
        QVERIFY(inner.useAlternative(caseAt("inner", 2), kPaths, "", innerPrepare));
        QCOMPARE(innerRuns, 8);
    }
};

QTEST_GUILESS_MAIN(TestBenchTimedChoice)
#include "tst_bench_timed_choice.moc"

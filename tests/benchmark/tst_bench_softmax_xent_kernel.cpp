// The softmax-cross-entropy gradient kernel (benchmark/kernels/softmax_xent.h) against the same
// function in fp64 on the same rounded logits: each row's target log-probability, and the
// gradient written over the logits (softmax, the target's entry less 1 through expm1), for fp32,
// fp16 and bf16, within a tolerance per element scaled by the type's precision. Rows shorter and
// longer than the block, not a multiple of it, targets at both ends, and a row whose target
// takes nearly all the probability. Also the LibTorch reference path the kernel replaces, against
// the same fp64 function.
//
// The kernel runs on the CPU (kernel_emulation.h: its threads meet at a barrier and in warp
// shuffles) everywhere the CUDA headers are, so CI executes its reductions and indexing; and on
// the GPU through the LibTorch operation, skipped with the reason when there is none.

#include "kernel_emulation.h" // first: it defines what the CUDA headers then keep

#include "benchmark/kernels/softmax_xent_kernels.cuh"

#include "cuda_test_support.h"

#include "benchmark/kernels/softmax_xent.h"
#include "benchmark/kernels/softmax_xent_op.h"

#include <QTest>

#include <limits>

using namespace gpuplan::bench;
using namespace gpuplan::bench::kernels;
using namespace gpuplan::bench::testing;

Q_DECLARE_METATYPE(c10::ScalarType)

namespace {

struct Case {
    torch::Tensor logits; // [rows, vocabulary] of the case's type
    torch::Tensor targets; // [rows] int64
};

Case makeCase(int rows, int vocabulary, at::ScalarType type)
{
    torch::manual_seed(41);
    auto logits = (torch::randn({ rows, vocabulary }) * 3.0).to(type);
    std::vector<std::int64_t> targets;
    for (int r = 0; r < rows; ++r)
        targets.push_back(r == 0 ? 0 : r == 1 ? vocabulary - 1 : (r * 7919) % vocabulary);
    if (rows > 2) // the target takes nearly all the probability
        logits[2][targets[2]] = 30.0;
    // -inf has probability 0: in the first values a thread reads (before any finite one), later,
    // and a whole row but its target.
    logits[0][5] = -std::numeric_limits<float>::infinity();
    logits[1][vocabulary / 2] = -std::numeric_limits<float>::infinity();
    if (rows > 3) {
        logits[3].fill_(-std::numeric_limits<float>::infinity());
        logits[3][targets[3]] = 1.0;
    }
    return { logits, torch::tensor(targets) };
}

// picked [rows] and the gradient [rows, vocabulary] in fp64 from the rounded logits.
std::pair<torch::Tensor, torch::Tensor> reference(const Case& c)
{
    auto gradient = c.logits.to(torch::kDouble);
    const auto picked = softmaxCrossEntropyGradientReference(gradient, c.targets);
    return { picked, gradient };
}

// fp32 arithmetic puts an absolute error of about its epsilon x the largest logit (30 here) on
// the log-sum-exp, so on each picked log-probability and, relatively, on each probability.
constexpr double kSumError = 4 * 1.2e-7 * 30;

// Per element: |got - expected| <= (relative + kSumError) x |expected| + absolute, with
// `absolute` kSumError at the targets' entries (softmax - 1 there: the log-sum-exp's absolute
// error) and otherwise fp16's subnormal spacing (small probabilities are subnormal there).
void compare(const torch::Tensor& got, const torch::Tensor& expected, at::ScalarType type,
    const char* what, const torch::Tensor& targets = {})
{
    const double relative = type == torch::kHalf ? 1.0 / 1024
        : type == torch::kBFloat16               ? 1.0 / 128
                                                 : 2e-7;
    auto absolute = torch::full_like(expected, type == torch::kHalf ? 1e-7 : 0.0);
    if (targets.defined())
        absolute.scatter_(1, targets.unsqueeze(1), kSumError);
    else
        absolute.fill_(kSumError); // picked log-probabilities
    const auto error = (got.to(torch::kDouble) - expected).abs();
    const auto allowed = expected.abs() * (relative + kSumError) + absolute;
    const auto worst = (error - allowed).max().item<double>();
    const auto at = (error - allowed).argmax().item<std::int64_t>();
    QVERIFY2(worst <= 0.0,
        qPrintable(QString("%1 (%2): element %3 off by %4, %5 allowed (expected %6)")
                       .arg(what)
                       .arg(c10::toString(type))
                       .arg(at)
                       .arg(error.flatten()[at].item<double>())
                       .arg(allowed.flatten()[at].item<double>())
                       .arg(expected.flatten()[at].item<double>())));
}

template <typename T> void emulate(Case& c, torch::Tensor& picked)
{
    LogitRows shape;
    shape.rows = static_cast<int>(c.logits.size(0));
    shape.vocabulary = static_cast<int>(c.logits.size(1));
    auto* logits = static_cast<T*>(c.logits.data_ptr());
    const auto* targets = c.targets.data_ptr<std::int64_t>();
    auto* out = picked.data_ptr<float>();
    emulation::launch(dim3(static_cast<unsigned>(shape.rows)), kSoftmaxThreads,
        [&] { softmaxCrossEntropyGradientKernel<T>(shape, logits, targets, out); });
}

void addCases()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("vocabulary");
    QTest::addColumn<c10::ScalarType>("type");
    for (const auto type : { torch::kFloat, torch::kHalf, torch::kBFloat16 }) {
        // addRow's format, not QByteArray arithmetic: Debian's LibTorch brings Qt 5 into the
        // process, whose initialisers bind to a Qt 6 QByteArray::append emitted here (a crash
        // under ASan before main).
        const char* name = c10::toString(type);
        QTest::addRow("%s, 4 rows of 1,000 (not a multiple of the block)", name)
            << 4 << 1000 << type;
        QTest::addRow("%s, 3 rows of 50 (fewer than the block's threads)", name) << 3 << 50 << type;
    }
    QTest::newRow("Float, 3 rows of 2,048") << 3 << 2048 << torch::kFloat;
}

} // namespace

class TestBenchSoftmaxXentKernel : public QObject {
    Q_OBJECT

private slots:
    void emulatedKernelMatchesFp64_data() { addCases(); }
    void emulatedKernelMatchesFp64()
    {
        QFETCH(int, rows);
        QFETCH(int, vocabulary);
        QFETCH(c10::ScalarType, type);
        Case c = makeCase(rows, vocabulary, type);
        const auto [expectedPicked, expectedGradient] = reference(c);
        auto picked = torch::full({ rows }, std::nanf(""));
        if (type == torch::kHalf)
            emulate<__half>(c, picked);
        else if (type == torch::kBFloat16)
            emulate<__nv_bfloat16>(c, picked);
        else
            emulate<float>(c, picked);
        compare(picked, expectedPicked, torch::kFloat, "picked log-probabilities");
        compare(c.logits, expectedGradient, type, "gradient", c.targets);
    }

    // The LibTorch path (CPU, and a GPU where the kernel does not take the tensors) against the
    // same fp64 function.
    void referencePathMatchesFp64_data() { addCases(); }
    void referencePathMatchesFp64()
    {
        QFETCH(int, rows);
        QFETCH(int, vocabulary);
        QFETCH(c10::ScalarType, type);
        if (type != torch::kFloat && !torch::cuda::is_available())
            QSKIP("LibTorch 1.13's CPU log_softmax takes no fp16 or bf16 to fp32");
        Case c = makeCase(rows, vocabulary, type);
        const auto [expectedPicked, expectedGradient] = reference(c);
        const auto picked = softmaxCrossEntropyGradientReference(c.logits, c.targets);
        compare(picked, expectedPicked, torch::kFloat, "picked log-probabilities");
        compare(c.logits, expectedGradient, type, "gradient", c.targets);
    }

    void kernelOnTheGpu_data() { addCases(); }
    void kernelOnTheGpu()
    {
        QFETCH(int, rows);
        QFETCH(int, vocabulary);
        QFETCH(c10::ScalarType, type);
        QString why;
        if (!softmaxXentKernelCompiledIn())
            QSKIP("this build has no softmax cross-entropy CUDA kernel (a CPU-only LibTorch)");
        if (!haveGpu(&why) || !torch::cuda::is_available())
            QSKIP(qPrintable(why.isEmpty() ? QString("LibTorch sees no GPU") : why));
        Case c = makeCase(rows, vocabulary, type);
        const auto [expectedPicked, expectedGradient] = reference(c);
        auto logits = c.logits.cuda();
        const auto picked = softmaxCrossEntropyGradient(logits, c.targets.cuda());
        compare(picked.cpu(), expectedPicked, torch::kFloat, "picked log-probabilities");
        compare(logits.cpu(), expectedGradient, type, "gradient", c.targets);
    }

    // A target outside the vocabulary: NaN for the row (the step's finiteness check reports it),
    // not a read out of bounds; the other rows as before.
    void targetOutsideTheVocabularyGivesNaN()
    {
        Case c = makeCase(3, 100, torch::kFloat);
        c.targets[1] = -100;
        auto picked = torch::zeros({ 3 });
        emulate<float>(c, picked);
        QVERIFY(
            std::isnan(picked[1].item<float>()) && torch::isnan(c.logits[1]).all().item<bool>());
        QVERIFY(std::isfinite(picked[0].item<float>())
            && torch::isfinite(c.logits[0]).all().item<bool>());
    }

    void emptyLogitsAreRefused()
    {
        QVERIFY_EXCEPTION_THROWN(softmaxCrossEntropyGradient({ 0, 10, LogitType::Float32 }, nullptr,
                                     nullptr, nullptr, nullptr),
            std::invalid_argument);
    }
};

QTEST_GUILESS_MAIN(TestBenchSoftmaxXentKernel)
#include "tst_bench_softmax_xent_kernel.moc"

// What a configuration's method switches on (benchmark/training_setup.h): both methods train in
// the recipe's precision (the paper's naive baseline is the model's own mixed precision); the
// free lunch's weight casts last for one optimizer step and no longer (kept across micro-steps,
// refreshed after the update, the same gradients as casting in every forward); cuDNN's
// autotuner and TF32 only in the free lunch; ConvNeXt in channels-last equal to NCHW; and the
// CUDA allocator's expandable segments, where LibTorch has them, unless the user chose.

#include "benchmark/cpu_allocator.h"
#include "benchmark/cuda_allocator.h"
#include "benchmark/models/model_factory.h"
#include "benchmark/torch_version.h"
#include "benchmark/training_setup.h"
#include "benchmark/training_step.h"
#include "tiny_models.h"

#include <QTest>

#include <cstdlib>

using namespace gpuplan::bench;
using namespace gpuplan::bench::testing;
using gpuplan::Precision;

Q_DECLARE_METATYPE(gpuplan::Precision)
Q_DECLARE_METATYPE(gpuplan::bench::Method)

namespace {

Configuration configurationOf(Method method)
{
    Configuration c;
    c.method = method;
    return c;
}

struct TinyNeox {
    ModelSpec spec = tinyFromConfig("tiny-neox");
    Recipe recipe = tinyRecipe(spec);
    std::shared_ptr<TrainableModel> model;
    Batch batch;

    explicit TinyNeox(Precision precision)
    {
        recipe.precision = precision;
        torch::manual_seed(11);
        model = makeModel(spec, recipe);
        batch = model->makeBatch(2, torch::kCPU);
    }
};

LossSetup bf16Setup(bool keepCasts)
{
    LossSetup setup;
    setup.autocastDtype = at::kBFloat16;
    setup.keepCastsForStep = keepCasts;
    return setup;
}

double lossOf(TinyNeox& m, const LossSetup& setup)
{
    return computeLoss(*m.model, m.batch, setup).item<double>();
}

// Scales every weight in place: what an optimizer step does, without one.
void scaleWeights(TrainableModel& model, double factor)
{
    torch::NoGradGuard noGrad;
    for (auto& p : model.parameters())
        p.mul_(factor);
}

std::vector<torch::Tensor> accumulatedGradients(TinyNeox& m, const LossSetup& setup)
{
    for (auto& p : m.model->parameters())
        p.mutable_grad() = torch::Tensor();
    for (int microStep = 0; microStep < 2; ++microStep)
        computeLoss(*m.model, m.batch, setup).backward();
    releaseStepCasts(setup);
    std::vector<torch::Tensor> gradients;
    for (const auto& p : m.model->parameters()) // none: a weight the loss did not reach
        gradients.push_back(p.grad().defined() ? p.grad().clone() : torch::zeros_like(p));
    return gradients;
}

} // namespace

class TestBenchMethodSetup : public QObject {
    Q_OBJECT

private slots:
    // glibc keeps freed memory and maps only large blocks, unless the user set MALLOC_*; under
    // AddressSanitizer (whose allocator ignores mallopt) nothing is claimed.
    void cpuAllocatorKeepsFreedMemoryUnlessTheUserChose()
    {
        QVERIFY(!qEnvironmentVariableIsSet("MALLOC_TOP_PAD_"));
        configureCpuAllocator();
#if defined(__SANITIZE_ADDRESS__)
        QCOMPARE(cpuAllocatorSettings(), std::string());
#else
        QCOMPARE(cpuAllocatorSettings(),
            std::string("mmap_threshold:33554432,trim_threshold:1073741824,top_pad:67108864"));
#endif
        qputenv("MALLOC_TOP_PAD_", "0");
        configureCpuAllocator();
        QCOMPARE(cpuAllocatorSettings(), std::string());
        qunsetenv("MALLOC_TOP_PAD_");
    }

    void bothMethodsTrainInTheRecipePrecision_data()
    {
        QTest::addColumn<Method>("method");
        QTest::addColumn<Precision>("precision");
        QTest::addColumn<bool>("autocastBf16");
        QTest::addColumn<QString>("note");
        QTest::addRow("naive bf16") << Method::Naive << Precision::BF16 << true << QString();
        QTest::addRow("free-lunch bf16")
            << Method::FreeLunch << Precision::BF16 << true << QString();
        QTest::addRow("naive fp16 on a CPU")
            << Method::Naive << Precision::FP16 << false
            << QString("fp16 autocast is CUDA-only in LibTorch: the CPU ran fp32");
        QTest::addRow("naive fp32") << Method::Naive << Precision::FP32 << false << QString();
        QTest::addRow("free-lunch fp32")
            << Method::FreeLunch << Precision::FP32 << false << QString();
    }

    void bothMethodsTrainInTheRecipePrecision()
    {
        QFETCH(Method, method);
        QFETCH(Precision, precision);
        QFETCH(bool, autocastBf16);
        QFETCH(QString, note);
        TinyNeox m(precision);
        std::vector<std::string> notes;
        const LossSetup setup
            = setUpMethod(*m.model, configurationOf(method), m.recipe, torch::kCPU, notes);
        const bool freeLunch = method == Method::FreeLunch;

        QCOMPARE(setup.autocastDtype.has_value(), autocastBf16);
        if (autocastBf16)
            QCOMPARE(*setup.autocastDtype, at::kBFloat16);
        QVERIFY(!setup.lossScale); // no fp16 autocast on a CPU, so no loss scale
        QCOMPARE(setup.keepCastsForStep, freeLunch && autocastBf16);
        QCOMPARE(notes.empty(), note.isEmpty());
        if (!note.isEmpty())
            QCOMPARE(QString::fromStdString(notes.front()), note);

        QCOMPARE(m.model->execution().fusedAttention, freeLunch);
        QCOMPARE(m.model->execution().chunkedLmHead, freeLunch);
        QCOMPARE(m.model->execution().fusedRotary, freeLunch);
        QVERIFY(!m.model->execution().channelsLast); // NHWC is for cuDNN only
        QVERIFY(!m.model->execution().depthwiseKernel); // our kernels take NHWC only
        QCOMPARE(at::globalContext().allowTF32CuBLAS(), freeLunch);
        QCOMPARE(at::globalContext().benchmarkCuDNN(), freeLunch);
    }

    // --free-lunch-without: each withheld part off, the rest of the free lunch on.
    void withheldPartsAreOffTheRestOn()
    {
        TinyNeox m(Precision::BF16);
        Configuration c = configurationOf(Method::FreeLunch);
        c.withheld = { FreeLunchPart::FusedRotary, FreeLunchPart::KeptCasts, FreeLunchPart::Tf32 };
        std::vector<std::string> notes;
        const LossSetup setup = setUpMethod(*m.model, c, m.recipe, torch::kCPU, notes);
        QVERIFY(!m.model->execution().fusedRotary);
        QVERIFY(!setup.keepCastsForStep);
        QVERIFY(!at::globalContext().allowTF32CuBLAS());
        QVERIFY(m.model->execution().fusedAttention);
        QVERIFY(m.model->execution().chunkedLmHead);
        QVERIFY(at::globalContext().benchmarkCuDNN());
        QVERIFY(c.uses(FreeLunchPart::FusedAttention));
        QVERIFY(!configurationOf(Method::Naive).uses(FreeLunchPart::FusedAttention));
        QCOMPARE(c.label(),
            std::string("free-lunch ckpt=off offload=off "
                        "without=fused-rotary,kept-casts,tf32"));
    }

    void multiProcessStepsCastInEveryForward()
    {
        TinyNeox m(Precision::BF16);
        Configuration c = configurationOf(Method::FreeLunch);
        c.parallelism = Parallelism::Zero3;
        std::vector<std::string> notes;
        const LossSetup setup = setUpMethod(*m.model, c, m.recipe, torch::kCPU, notes);
        QCOMPARE(setup.autocastDtype, std::optional<at::ScalarType>(at::kBFloat16));
        QVERIFY(!setup.keepCastsForStep);
    }

    void keptCastsLastUntilReleased()
    {
        TinyNeox m(Precision::BF16);
        const LossSetup keep = bf16Setup(true);
        const LossSetup fresh = bf16Setup(false);
        const double before = lossOf(m, keep);

        scaleWeights(*m.model, 1.5);
        // The kept casts are the old weights' (the norms and embeddings, which autocast does
        // not cast, are new): the loss is neither the old one nor the new weights' one.
        const double stale = lossOf(m, keep);
        releaseStepCasts(keep);
        const double refreshed = lossOf(m, keep);
        releaseStepCasts(keep);
        const double expected = lossOf(m, fresh);
        QVERIFY(stale != expected);
        QVERIFY(expected != before);
        QCOMPARE(refreshed, expected);
    }

    void optimizerStepRefreshesTheCasts()
    {
        TinyNeox m(Precision::BF16);
        std::vector<std::string> notes;
        TrainingStep step(
            *m.model, configurationOf(Method::FreeLunch), m.recipe, torch::kCPU, notes);
        const double before = lossOf(m, bf16Setup(true));
        step.microStep(m.batch);
        step.microStep(m.batch, /*closesStep=*/true);
        step.optimizerStep();
        // Kept casts first: a fresh computation would clear the cache and hide stale copies.
        const double afterKept = lossOf(m, bf16Setup(true));
        releaseStepCasts(bf16Setup(true));
        const double afterFresh = lossOf(m, bf16Setup(false));
        QVERIFY(afterFresh != before); // the update moved the bf16 weights
        QCOMPARE(afterKept, afterFresh);
    }

    void keptCastsGiveTheSameGradients_data()
    {
        QTest::addColumn<bool>("checkpointing");
        QTest::addRow("plain") << false;
        // A checkpointed block's forward runs under no-grad: a cast kept from there would
        // reach the recompute without a gradient path (the last block's weights got none).
        QTest::addRow("checkpointed") << true;
    }

    void keptCastsGiveTheSameGradients()
    {
        QFETCH(bool, checkpointing);
        TinyNeox m(Precision::BF16);
        ExecutionOptions execution = m.model->execution();
        execution.checkpointing = checkpointing;
        m.model->setExecution(execution);
        const auto everyForward = accumulatedGradients(m, bf16Setup(false));
        const auto keptForStep = accumulatedGradients(m, bf16Setup(true));
        QCOMPARE(everyForward.size(), keptForStep.size());
        for (std::size_t i = 0; i < everyForward.size(); ++i)
            QVERIFY2(torch::equal(everyForward[i], keptForStep[i]),
                qPrintable(QString("gradient %1 differs").arg(i)));
        for (std::size_t i = 0; i < everyForward.size(); ++i)
            QVERIFY2(everyForward[i].abs().sum().item<double>() > 0.0,
                qPrintable(QString("gradient %1 is zero").arg(i)));
    }

    void convNextChannelsLastEqualsNchw()
    {
        const ModelSpec spec = tinyConvNext();
        torch::manual_seed(5);
        auto model = makeModel(spec, tinyRecipe(spec));
        {
            // Layer scale 1 instead of 1e-6: the blocks' gradients large enough to compare.
            torch::NoGradGuard noGrad;
            for (auto& item : model->named_parameters())
                if (item.key().find("gamma") != std::string::npos)
                    item.value().fill_(1.0);
        }
        const Batch batch = model->makeBatch(2, torch::kCPU);
        const auto lossAndGradients = [&](bool channelsLast) {
            ExecutionOptions execution = model->execution();
            execution.channelsLast = channelsLast;
            model->setExecution(execution);
            for (auto& p : model->parameters())
                p.mutable_grad() = torch::Tensor();
            const auto loss = model->loss(batch);
            loss.backward();
            std::vector<torch::Tensor> gradients;
            for (const auto& p : model->parameters())
                gradients.push_back(p.grad().clone());
            return std::make_pair(loss.item<double>(), gradients);
        };
        const auto nchw = lossAndGradients(false);
        const auto nhwc = lossAndGradients(true);
        int convolutionWeights = 0;
        for (const auto& p : model->parameters())
            if (p.dim() == 4) {
                ++convolutionWeights;
                QVERIFY(p.is_contiguous(at::MemoryFormat::ChannelsLast));
            }
        QCOMPARE(convolutionWeights, 1 + 3 + 5); // stem, 3 downsamplings, 5 blocks' depthwise
        QVERIFY(std::abs(nchw.first - nhwc.first) <= 1e-6 * std::abs(nchw.first));
        for (std::size_t i = 0; i < nchw.second.size(); ++i) {
            const auto& a = nchw.second[i];
            const double scale = a.abs().max().item<double>();
            QVERIFY2(scale > 0.0, qPrintable(QString("gradient %1 is zero").arg(i)));
            QVERIFY2(torch::allclose(a, nhwc.second[i], 1e-4, 1e-5 * scale),
                qPrintable(QString("gradient %1 differs").arg(i)));
        }

        lossAndGradients(false);
        for (const auto& p : model->parameters())
            QVERIFY(p.is_contiguous());
    }

    void allocatorGetsExpandableSegmentsUnlessTheUserChose()
    {
        ::unsetenv("PYTORCH_ALLOC_CONF");
        ::unsetenv("PYTORCH_CUDA_ALLOC_CONF");
        configureCudaAllocator();
#if GPUPLAN_TORCH_AT_LEAST(2, 1)
        QCOMPARE(
            QString::fromStdString(cudaAllocatorSettings()), QString("expandable_segments:True"));
#else
        QCOMPARE(QString::fromStdString(cudaAllocatorSettings()), QString());
#endif
        ::unsetenv("PYTORCH_ALLOC_CONF");
        ::setenv("PYTORCH_CUDA_ALLOC_CONF", "garbage_collection_threshold:0.6", 1);
        configureCudaAllocator();
        QCOMPARE(QString::fromStdString(cudaAllocatorSettings()),
            QString("garbage_collection_threshold:0.6"));
        ::unsetenv("PYTORCH_CUDA_ALLOC_CONF");

        // The newer, device-neutral name counts as the user's choice too, and is read first.
        ::setenv("PYTORCH_ALLOC_CONF", "max_split_size_mb:256", 1);
        configureCudaAllocator();
        QCOMPARE(QString::fromStdString(cudaAllocatorSettings()), QString("max_split_size_mb:256"));
        QVERIFY(!std::getenv("PYTORCH_CUDA_ALLOC_CONF"));
        ::unsetenv("PYTORCH_ALLOC_CONF");
    }
};

QTEST_GUILESS_MAIN(TestBenchMethodSetup)
#include "tst_bench_method_setup.moc"

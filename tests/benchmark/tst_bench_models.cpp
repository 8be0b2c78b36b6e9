// Model architectures: parameter counts against the published totals (formulas only: no big
// model is ever allocated here), the formulas against the built LibTorch modules on tiny
// configurations, training FLOPs against the paper, and activation checkpointing giving the
// same loss and gradients.

#include "benchmark/model_selection.h"
#include "benchmark/models/model_factory.h"
#include "benchmark/torch_compat.h"
#include "tiny_models.h"

#include <QTest>

using namespace gpuplan::bench;
using namespace gpuplan::bench::testing;

namespace {
std::int64_t numel(TrainableModel& model)
{
    std::int64_t n = 0;
    for (const auto& p : model.parameters())
        n += p.numel();
    return n;
}

// The model's loss on `batch` under `execution`, and every parameter's gradient of it.
std::pair<double, std::vector<torch::Tensor>> lossAndGradients(
    TrainableModel& model, const Batch& batch, const ExecutionOptions& execution)
{
    model.zero_grad();
    model.setExecution(execution);
    auto loss = model.loss(batch);
    loss.backward();
    std::vector<torch::Tensor> grads;
    for (const auto& p : model.parameters())
        grads.push_back(p.grad().clone());
    return { loss.item<double>(), grads };
}

} // namespace

class TestBenchModels : public QObject {
    Q_OBJECT

private slots:
    void publishedParameterCounts_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("expected");
        // Pythia: the EleutherAI model cards (exact). RoBERTa-large with its MLM head: Hugging
        // Face RobertaForMaskedLM (model card: 355M). ViT-L/16 21k head: timm
        // vit_large_patch16_224.augreg_in21k (325.7M). ConvNeXt-XL 22k head: timm
        // convnext_xlarge.fb_in22k (392.9M). Mamba-2.8B: transformers' MambaForCausalLM for
        // state-spaces/mamba-2.8b-hf's config, worked out by hand in docs/benchmark.md.
        QTest::newRow("pythia-160m") << "pythia-160m" << qint64(162322944);
        QTest::newRow("pythia-410m") << "pythia-410m" << qint64(405334016);
        QTest::newRow("pythia-1b") << "pythia-1b" << qint64(1011781632);
        QTest::newRow("pythia-2.8b") << "pythia-2.8b" << qint64(2775208960);
        QTest::newRow("pythia-6.9b") << "pythia-6.9b" << qint64(6857302016);
        QTest::newRow("roberta-large") << "roberta-large" << qint64(355412057);
        QTest::newRow("vit-large-22k") << "vit-large-22k" << qint64(325690707);
        QTest::newRow("convnext-xlarge-22k") << "convnext-xlarge-22k" << qint64(392900177);
        QTest::newRow("mamba-2.8b") << "mamba-2.8b" << qint64(2768345600);
    }
    void publishedParameterCounts()
    {
        QFETCH(QString, id);
        QFETCH(qint64, expected);
        const auto spec = shippedModelSpec(id.toStdString());
        QVERIFY(spec.has_value());
        QCOMPARE(qint64(parameterCount(*spec)), expected);
    }

    // Mamba-2.8B per token: 64 blocks of in_proj 2560 x 10240, the convolution's 5120 x 4
    // taps, x_proj 5120 x 192, dt_proj 160 x 5120 and out_proj 5120 x 2560, plus the tied head
    // 2560 x 50280: 2,761,953,280 weights in products, 6 FLOPs each per position (4095 trained
    // positions of a 4096-token sample). The paper's 8.7e20 for the recipe is not this
    // (docs/benchmark.md says why); this pins our derivation.
    void mambaTrainingFlops()
    {
        const auto spec = *shippedModelSpec("mamba-2.8b");
        const double perToken = 6.0 * 2761953280.0;
        QCOMPARE(trainingFlopsPerSample(spec, 4096), perToken * 4095);
        const Recipe r = recipeFor(spec, *shippedCatalog(), {});
        const double total = trainingFlopsPerSample(spec, r.sequenceLength) * r.globalBatch
            * static_cast<double>(r.steps);
        QVERIFY2(std::abs(total / 4.9685e21 - 1.0) < 1e-4, qPrintable(QString::number(total)));
        // The scan's elementwise FLOPs: 21 per position, channel and state and block, under 1%.
        QCOMPARE(mambaScanFlopsPerSample(spec, 4096), 21.0 * 64 * 5120 * 16 * 4095);
        QVERIFY(mambaScanFlopsPerSample(spec, 4096) < 0.01 * trainingFlopsPerSample(spec, 4096));
    }

    void trainingFlopsMatchThePaper_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("paperFlops");
        // The paper, Fig. 9a (training FLOPs of the full recipe).
        QTest::newRow("pythia-160m") << "pythia-160m" << 2.9e20;
        QTest::newRow("pythia-1b") << "pythia-1b" << 1.9e21;
        QTest::newRow("pythia-6.9b") << "pythia-6.9b" << 1.3e22;
        QTest::newRow("roberta-large") << "roberta-large" << 4.8e21;
        QTest::newRow("vit-large-22k") << "vit-large-22k" << 4.7e20;
    }
    void trainingFlopsMatchThePaper()
    {
        QFETCH(QString, id);
        QFETCH(double, paperFlops);
        const auto spec = *shippedModelSpec(id.toStdString());
        const Recipe r = recipeFor(spec, *shippedCatalog(), {});
        const double flops = trainingFlopsPerSample(spec, r.sequenceLength) * r.globalBatch
            * static_cast<double>(r.steps);
        QVERIFY2(std::abs(flops / paperFlops - 1.0) < 0.06,
            qPrintable(QString("%1 vs %2").arg(flops).arg(paperFlops)));
    }

    void formulaEqualsBuiltModule_data()
    {
        QTest::addColumn<int>("index");
        const auto models = tinyModels();
        for (std::size_t i = 0; i < models.size(); ++i)
            QTest::newRow(models[i].id.c_str()) << int(i);
    }
    void formulaEqualsBuiltModule()
    {
        QFETCH(int, index);
        const ModelSpec spec = tinyModels()[std::size_t(index)];
        auto model = makeModel(spec, tinyRecipe(spec));
        QCOMPARE(qint64(numel(*model)), qint64(parameterCount(spec)));
    }

    void tiedEmbeddingsCountOnce()
    {
        ModelSpec spec = tinyFromConfig("tiny-neox");
        const auto untied = parameterCount(spec);
        spec.tieEmbeddings = true;
        auto model = makeModel(spec, tinyRecipe(spec));
        QCOMPARE(qint64(numel(*model)), qint64(parameterCount(spec)));
        QCOMPARE(qint64(untied - parameterCount(spec)), qint64(spec.vocabSize) * spec.hiddenSize);
    }

    void checkpointingGivesTheSameLossAndGradients_data() { formulaEqualsBuiltModule_data(); }
    void checkpointingGivesTheSameLossAndGradients()
    {
        QFETCH(int, index);
        const ModelSpec spec = tinyModels()[std::size_t(index)];
        torch::manual_seed(7);
        auto model = makeModel(spec, tinyRecipe(spec));
        const Batch batch = model->makeBatch(2, torch::kCPU);

        auto lossAndGrads = [&](bool checkpointing) {
            ExecutionOptions execution;
            execution.checkpointing = checkpointing;
            return lossAndGradients(*model, batch, execution);
        };
        const auto plain = lossAndGrads(false);
        const auto recomputed = lossAndGrads(true);
        QVERIFY(std::isfinite(plain.first));
        QVERIFY(std::abs(plain.first - recomputed.first) <= 1e-6 * std::abs(plain.first));
        QCOMPARE(plain.second.size(), recomputed.second.size());
        for (std::size_t i = 0; i < plain.second.size(); ++i) {
            const auto& a = plain.second[i];
            QVERIFY2(torch::allclose(a, recomputed.second[i], /*rtol=*/1e-5, /*atol=*/1e-7),
                qPrintable(QString("gradient %1 differs").arg(i)));
        }
        QVERIFY(plain.second.front().abs().sum().item<double>() > 0.0); // gradients are real
    }

    void fusedAttentionMatchesNaive()
    {
        const ModelSpec spec = tinyFromConfig("tiny-neox");
        torch::manual_seed(3);
        auto model = makeModel(spec, tinyRecipe(spec));
        const Batch batch = model->makeBatch(2, torch::kCPU);
        torch::NoGradGuard noGrad;
        model->setExecution({ false, false });
        const double naive = model->loss(batch).item<double>();
        model->setExecution({ true, false });
        const double fused = model->loss(batch).item<double>();
        QVERIFY(std::abs(naive - fused) < 1e-5 * std::abs(naive));
    }

    // The free lunch's one-node query-key-value split in a whole GPT-NeoX model, checkpointed
    // (recomputed in the backward) and not: the loss and every parameter's gradient as the
    // reference composition gives them.
    void fusedRotaryGivesTheSameLossAndGradients_data()
    {
        QTest::addColumn<bool>("checkpointing");
        QTest::newRow("plain") << false;
        QTest::newRow("checkpointed") << true;
    }
    void fusedRotaryGivesTheSameLossAndGradients()
    {
        QFETCH(bool, checkpointing);
        const ModelSpec spec = tinyFromConfig("tiny-neox");
        QVERIFY(spec.rotaryPct > 0.0 && spec.rotaryPct < 1.0); // a partial rotation, as Pythia's
        torch::manual_seed(13);
        auto model = makeModel(spec, tinyRecipe(spec));
        const Batch batch = model->makeBatch(2, torch::kCPU);
        auto lossAndGrads = [&](bool fusedRotary) {
            ExecutionOptions execution;
            execution.checkpointing = checkpointing;
            execution.fusedRotary = fusedRotary;
            return lossAndGradients(*model, batch, execution);
        };
        const auto reference = lossAndGrads(false);
        const auto fused = lossAndGrads(true);
        QCOMPARE(fused.first, reference.first); // the same forward arithmetic
        for (std::size_t i = 0; i < fused.second.size(); ++i)
            QVERIFY2(torch::allclose(fused.second[i], reference.second[i], /*rtol=*/1e-5,
                         /*atol=*/1e-7),
                qPrintable(QString("gradient %1 differs").arg(i)));
    }
};

QTEST_GUILESS_MAIN(TestBenchModels)
#include "tst_bench_models.moc"

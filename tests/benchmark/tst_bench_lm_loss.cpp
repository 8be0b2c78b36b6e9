// The chunked language-model head and cross-entropy (benchmark/models/lm_loss.h) against the
// unchunked reference, crossEntropy(linear(hidden, weight), targets): the same loss and the same
// gradients for hidden and weight, at chunk sizes that divide the positions, leave a remainder,
// take one position or all of them, with positions ignored (-100); in bf16 within bf16's
// precision; scaled by the gradient that reaches the loss; without gradients under no-grad;
// and through a whole tiny GPT-NeoX whose free-lunch head is chunked. Rotary
// embeddings run in the precision of their input.

#include "benchmark/model_selection.h"
#include "benchmark/models/attention.h"
#include "benchmark/models/lm_loss.h"
#include "benchmark/models/model_factory.h"
#include "tiny_models.h"

#include <QTest>

using namespace gpuplan::bench;
using namespace gpuplan::bench::testing;

namespace {

struct Gradients {
    torch::Tensor loss, hidden, weight;
};

// hidden [2, 9, 16], vocabulary 37, every third position ignored.
Gradients lossAndGradients(std::int64_t chunk, bool reference, at::ScalarType dtype)
{
    torch::manual_seed(7);
    auto hidden = torch::randn({ 2, 9, 16 }).requires_grad_(true);
    auto weight = (0.3 * torch::randn({ 37, 16 })).requires_grad_(true);
    auto targets = torch::randint(37, { 2, 9 }, torch::kLong);
    targets.view({ -1 }).slice(0, 0, 18, 3).fill_(-100);
    const auto h = hidden.to(dtype);
    const auto loss = reference
        ? crossEntropy(torch::nn::functional::linear(h, weight.to(dtype)), targets)
        : chunkedLmLoss(h, weight, targets, chunk);
    loss.backward();
    return { loss.detach(), hidden.grad(), weight.grad() };
}

bool close(const torch::Tensor& a, const torch::Tensor& b, double tolerance)
{
    return torch::allclose(a.to(torch::kFloat), b.to(torch::kFloat), tolerance, tolerance);
}

} // namespace

class TestBenchLmLoss : public QObject {
    Q_OBJECT

private slots:
    void chunkedEqualsTheReference_data()
    {
        QTest::addColumn<qint64>("chunk");
        QTest::addRow("one position") << qint64 { 1 };
        QTest::addRow("divides 18") << qint64 { 6 };
        QTest::addRow("remainder") << qint64 { 7 };
        QTest::addRow("all at once") << qint64 { 18 };
        QTest::addRow("more than all") << qint64 { 1000 };
        QTest::addRow("automatic") << qint64 { 0 };
    }
    void chunkedEqualsTheReference()
    {
        QFETCH(qint64, chunk);
        const auto expected = lossAndGradients(0, /*reference=*/true, torch::kFloat);
        const auto chunked = lossAndGradients(chunk, /*reference=*/false, torch::kFloat);
        QVERIFY(close(chunked.loss, expected.loss, 1e-5));
        QVERIFY(close(chunked.hidden, expected.hidden, 1e-5));
        QVERIFY(close(chunked.weight, expected.weight, 1e-5));
        QCOMPARE(chunked.loss.scalar_type(), torch::kFloat);
    }

    void bf16MatchesTheReferenceInBf16()
    {
        // bf16 has 8 significant bits: agreement to about 1e-2 relative.
        const auto expected = lossAndGradients(0, /*reference=*/true, torch::kBFloat16);
        const auto chunked = lossAndGradients(5, /*reference=*/false, torch::kBFloat16);
        QCOMPARE(chunked.loss.scalar_type(), torch::kFloat); // the loss itself is fp32
        QVERIFY(close(chunked.loss, expected.loss, 1e-2));
        QVERIFY(close(chunked.hidden, expected.hidden, 2e-2));
        QVERIFY(close(chunked.weight, expected.weight, 2e-2));
        QCOMPARE(chunked.weight.scalar_type(), torch::kFloat); // the fp32 parameter's gradient
    }

    // The gradients are computed in the forward pass: the backward pass must still apply the
    // gradient that reaches the loss (a loss scale, a mean over micro-steps).
    void incomingGradientScalesTheGradients()
    {
        torch::manual_seed(7);
        const auto hidden = torch::randn({ 10, 16 }).requires_grad_(true);
        const auto weight = (0.3 * torch::randn({ 37, 16 })).requires_grad_(true);
        const auto targets = torch::randint(37, { 10 }, torch::kLong);
        (chunkedLmLoss(hidden, weight, targets, 4) * 1024.0).backward();
        const auto scaledHidden = hidden.grad().clone();
        const auto scaledWeight = weight.grad().clone();
        hidden.mutable_grad().zero_();
        weight.mutable_grad().zero_();
        crossEntropy(torch::nn::functional::linear(hidden, weight), targets).backward();
        QVERIFY(close(scaledHidden, 1024.0 * hidden.grad(), 1e-4));
        QVERIFY(close(scaledWeight, 1024.0 * weight.grad(), 1e-4));
    }

    void lossWithoutGradientsIsTheSame()
    {
        const auto expected = lossAndGradients(0, /*reference=*/true, torch::kFloat);
        torch::manual_seed(7);
        const auto hidden = torch::randn({ 2, 9, 16 });
        const auto weight = 0.3 * torch::randn({ 37, 16 });
        auto targets = torch::randint(37, { 2, 9 }, torch::kLong);
        targets.view({ -1 }).slice(0, 0, 18, 3).fill_(-100);
        const torch::NoGradGuard noGrad;
        const auto loss = chunkedLmLoss(hidden, weight, targets, 5);
        QVERIFY(!loss.requires_grad());
        QVERIFY(close(loss, expected.loss, 1e-5));
    }

    void tinyGptNeoxHeadChunkedOrNot()
    {
        const ModelSpec spec = tinyFromConfig("tiny-neox");
        RecipeOverrides overrides;
        overrides.sequenceLength = tinyInputSize(spec);
        overrides.precision = gpuplan::Precision::FP32;
        const Recipe recipe = recipeFor(spec, *shippedCatalog(), overrides);
        torch::manual_seed(3);
        auto model = makeModel(spec, recipe);
        const Batch batch = model->makeBatch(3, torch::kCPU);
        std::vector<torch::Tensor> losses;
        std::vector<std::vector<torch::Tensor>> grads;
        for (const bool chunked : { false, true }) {
            ExecutionOptions execution;
            execution.chunkedLmHead = chunked;
            model->setExecution(execution);
            model->zero_grad();
            auto loss = model->loss(batch);
            loss.backward();
            losses.push_back(loss.detach());
            grads.emplace_back();
            for (const auto& p : model->parameters())
                grads.back().push_back(p.grad().clone());
        }
        QVERIFY(close(losses[0], losses[1], 1e-5));
        for (std::size_t i = 0; i < grads[0].size(); ++i)
            QVERIFY2(close(grads[0][i], grads[1][i], 1e-4), qPrintable(QString::number(i)));
    }

    void rotaryRunsInTheInputPrecision()
    {
        const RotaryTables tables = rotaryTables(8, 4, 10000.0, torch::kCPU);
        const auto x = torch::randn({ 1, 2, 8, 6 });
        const auto full = applyRotary(x, tables);
        const auto half = applyRotary(x.to(torch::kBFloat16), tables);
        QCOMPARE(half.scalar_type(), torch::kBFloat16);
        QCOMPARE(full.scalar_type(), torch::kFloat);
        QVERIFY(close(half, full, 3e-2));
    }
};

QTEST_GUILESS_MAIN(TestBenchLmLoss)
#include "tst_bench_lm_loss.moc"

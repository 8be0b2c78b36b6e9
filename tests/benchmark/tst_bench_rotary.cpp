// The rotary query-key-value operation (benchmark/kernels/rotary_qkv_op.h) on the CPU, where it
// runs as LibTorch ops inside one autograd node: the same query, key and value as the reference
// composition of views and applyRotary, bit for bit in the input's precision; the same gradient;
// an output left out of the loss; a bad table named. The CUDA kernels behind it on a GPU are
// tst_bench_rotary_kernel's.

#include "benchmark/kernels/rotary_qkv_op.h"

#include <QTest>

using namespace gpuplan::bench;

Q_DECLARE_METATYPE(c10::ScalarType)

namespace {

constexpr int kHeads = 3, kHeadDim = 16, kPositions = 7, kBatch = 2;

torch::Tensor projectionOutput(at::ScalarType type)
{
    return torch::randn({ kBatch, kPositions, kHeads * 3 * kHeadDim }).to(type);
}

// The projection output's gradient when the loss is sum(w_i * out_i) over the outputs given.
torch::Tensor gradientOf(const QueryKeyValue& out, const torch::Tensor& qkv,
    const std::vector<torch::Tensor>& weights, const std::vector<bool>& used)
{
    torch::Tensor loss = torch::zeros({}, qkv.options());
    const auto outputs = out.list();
    for (std::size_t i = 0; i < outputs.size(); ++i)
        if (used[i])
            loss = loss + (outputs[i] * weights[i]).sum();
    loss.backward();
    return qkv.grad();
}

} // namespace

class TestBenchRotary : public QObject {
    Q_OBJECT

private slots:
    void sameOutputsAsTheReference_data()
    {
        QTest::addColumn<c10::ScalarType>("type");
        QTest::addColumn<int>("rotaryDims");
        QTest::newRow("fp32, a quarter rotated (Pythia)") << torch::kFloat << 4;
        QTest::newRow("bf16, a quarter rotated") << torch::kBFloat16 << 4;
        QTest::newRow("fp32, all rotated") << torch::kFloat << kHeadDim;
        QTest::newRow("fp32, none rotated") << torch::kFloat << 0;
    }
    void sameOutputsAsTheReference()
    {
        QFETCH(c10::ScalarType, type);
        QFETCH(int, rotaryDims);
        torch::manual_seed(5);
        const auto qkv = projectionOutput(type);
        const auto tables = rotaryTables(kPositions, rotaryDims, 10000.0, torch::kCPU);
        torch::NoGradGuard noGrad;
        const auto fused = rotaryQkv(qkv, kHeads, tables).list();
        const auto reference = rotaryQkvReference(qkv, kHeads, tables).list();
        for (std::size_t i = 0; i < fused.size(); ++i) {
            QCOMPARE(fused[i].sizes(), (c10::IntArrayRef { kBatch, kHeads, kPositions, kHeadDim }));
            QCOMPARE(fused[i].scalar_type(), type);
            QVERIFY(fused[i].is_contiguous());
            // The same products and sums in the same precision: equal, not close.
            QVERIFY2(torch::equal(fused[i], reference[i]), qPrintable(QString("output %1").arg(i)));
        }
        const auto unrotatedQuery = qkv.view({ kBatch, kPositions, kHeads, 3, kHeadDim })
                                        .select(3, 0)
                                        .permute({ 0, 2, 1, 3 });
        QCOMPARE(torch::equal(fused[0], unrotatedQuery), rotaryDims == 0);
    }

    void sameGradientAsTheReference_data()
    {
        QTest::addColumn<int>("rotaryDims");
        QTest::addColumn<bool>("keyUsed");
        QTest::addColumn<bool>("randomTables");
        QTest::newRow("a quarter rotated, all used") << 4 << true << false;
        QTest::newRow("all rotated, all used") << kHeadDim << true << false;
        // The key left out of the loss: the node gets a zero gradient for it.
        QTest::newRow("a quarter rotated, key unused") << 4 << false << false;
        // Tables whose halves differ: the transpose pairs each term with its partner's angle.
        QTest::newRow("all rotated, random tables") << kHeadDim << true << true;
    }
    void sameGradientAsTheReference()
    {
        QFETCH(int, rotaryDims);
        QFETCH(bool, keyUsed);
        torch::manual_seed(11);
        const auto qkv = projectionOutput(torch::kDouble);
        const auto tables = rotaryTables(kPositions, rotaryDims, 10000.0, torch::kCPU);
        const RotaryTables tables64 { tables.cos.to(torch::kDouble),
            tables.sin.to(torch::kDouble) };
        std::vector<torch::Tensor> weights;
        for (int i = 0; i < 3; ++i)
            weights.push_back(
                torch::randn({ kBatch, kHeads, kPositions, kHeadDim }, torch::kDouble));
        const std::vector<bool> used { true, keyUsed, true };
        const auto a = qkv.clone().requires_grad_(true);
        const auto b = qkv.clone().requires_grad_(true);
        const auto fused = gradientOf(rotaryQkv(a, kHeads, tables64), a, weights, used);
        const auto reference
            = gradientOf(rotaryQkvReference(b, kHeads, tables64), b, weights, used);
        QVERIFY(torch::allclose(fused, reference, /*rtol=*/1e-12, /*atol=*/1e-12));
        const auto keyPart = fused.view({ kBatch, kPositions, kHeads, 3, kHeadDim }).select(3, 1);
        QCOMPARE(keyPart.abs().sum().item<double>() == 0.0, !keyUsed);
    }

    void tablesForOtherPositionsAreRefused()
    {
        const auto qkv = projectionOutput(torch::kFloat);
        const auto tables = rotaryTables(kPositions + 1, 4, 10000.0, torch::kCPU);
        try {
            rotaryQkv(qkv, kHeads, tables);
            QFAIL("tables for 8 positions were taken for 7");
        } catch (const c10::Error& e) {
            QVERIFY2(QString(e.what()).contains(
                         "rotary qkv: tables of [8, 4] for 7 positions and heads of 16"),
                e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestBenchRotary)
#include "tst_bench_rotary.moc"

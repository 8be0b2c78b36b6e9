// Mamba's selective scan in LibTorch ops (selectiveScanReference), on the CPU: a case worked
// out by hand, the paper's recurrence written out naively (outputs and autograd gradients),
// gradients against central finite differences, and the types it returns.

#include "benchmark/kernels/selective_scan_op.h"

#include <QTest>

#include <cmath>
#include <vector>

using namespace gpuplan::bench;

namespace {

const auto kF64 = torch::TensorOptions().dtype(torch::kDouble);

ScanInputs randomInputs(std::int64_t batch, std::int64_t length, std::int64_t channels,
    std::int64_t states, std::uint64_t seed)
{
    torch::manual_seed(seed);
    ScanInputs in;
    in.u = torch::randn({ batch, length, channels }, kF64);
    in.delta = torch::randn({ batch, length, channels }, kF64) - 1.0; // softplus: steps ~0.3
    in.A = -(torch::rand({ channels, states }, kF64) * 4.0 + 0.5);
    in.B = torch::randn({ batch, length, states }, kF64);
    in.C = torch::randn({ batch, length, states }, kF64);
    in.D = torch::randn({ channels }, kF64);
    in.z = torch::randn({ batch, length, channels }, kF64);
    in.deltaBias = torch::randn({ channels }, kF64) * 0.5;
    return in;
}

std::vector<torch::Tensor*> fields(ScanInputs& in)
{
    return { &in.u, &in.delta, &in.A, &in.B, &in.C, &in.D, &in.z, &in.deltaBias };
}

const char* const kFieldNames[] = { "u", "delta", "A", "B", "C", "D", "z", "deltaBias" };

void requireGrad(ScanInputs& in)
{
    for (auto* t : fields(in))
        t->requires_grad_(true);
}

// The recurrence as Gu and Dao's Algorithm 2 states it, one position at a time, with softplus
// and SiLU spelled out: independent of the reference's code.
torch::Tensor naiveScan(const ScanInputs& in)
{
    const auto dt = torch::log1p(torch::exp(in.delta + in.deltaBias));
    auto h = torch::zeros({ in.u.size(0), in.u.size(2), in.A.size(1) }, in.u.options());
    std::vector<torch::Tensor> out;
    for (std::int64_t t = 0; t < in.u.size(1); ++t) {
        const auto step = dt.select(1, t).unsqueeze(-1); // [b, d, 1]
        const auto u = in.u.select(1, t);
        h = torch::exp(step * in.A) * h + step * u.unsqueeze(-1) * in.B.select(1, t).unsqueeze(1);
        const auto y = torch::matmul(h, in.C.select(1, t).unsqueeze(-1)).squeeze(-1) + in.D * u;
        const auto z = in.z.select(1, t);
        out.push_back(y * z * torch::sigmoid(z));
    }
    return torch::stack(out, 1);
}

std::vector<torch::Tensor> gradients(
    ScanInputs& in, const torch::Tensor& out, const torch::Tensor& weights)
{
    (out * weights).sum().backward();
    std::vector<torch::Tensor> grads;
    for (auto* t : fields(in))
        grads.push_back(t->grad().clone());
    return grads;
}

} // namespace

class TestBenchScan : public QObject {
    Q_OBJECT

private slots:
    // One sequence, one channel, one state, three positions, with steps dt = 0.5, 1, 2 and
    // A = -1 (decays e^-1 and e^-2 into positions 1 and 2):
    //   h0 = 0.5 * 1 * 1                         = 0.5         y0 = 1 * h0 + 0.5 * 1   = 1
    //   h1 = e^-1 * h0 + 1 * (-1) * 2            = -1.8160603  y1 = 0.5 * h1 - 0.5     = -1.4080301
    //   h2 = e^-2 * h1 + 2 * 2 * (-1)            = -4.2457770  y2 = 2 * h2 + 0.5 * 2   = -7.4915541
    // and out = y * silu(z) for z = 1, 2, -1 (silu = 0.7310586, 1.7615942, -0.2689414).
    void handComputedCase()
    {
        const std::vector<double> steps { 0.5, 1.0, 2.0 };
        std::vector<double> raw;
        for (double s : steps)
            raw.push_back(std::log(std::expm1(s))); // softplus(raw) = s, with a zero bias
        ScanInputs in;
        in.u = torch::tensor({ 1.0, -1.0, 2.0 }, kF64).view({ 1, 3, 1 });
        in.delta = torch::tensor(raw, kF64).view({ 1, 3, 1 });
        in.A = torch::tensor({ -1.0 }, kF64).view({ 1, 1 });
        in.B = torch::tensor({ 1.0, 2.0, -1.0 }, kF64).view({ 1, 3, 1 });
        in.C = torch::tensor({ 1.0, 0.5, 2.0 }, kF64).view({ 1, 3, 1 });
        in.D = torch::tensor({ 0.5 }, kF64);
        in.z = torch::tensor({ 1.0, 2.0, -1.0 }, kF64).view({ 1, 3, 1 });
        in.deltaBias = torch::zeros({ 1 }, kF64);
        const auto out = selectiveScanReference(in).flatten();
        const double expected[] = { 0.7310585786300049, -2.4803776655176755, 2.014789198397929 };
        for (int t = 0; t < 3; ++t)
            QVERIFY2(std::abs(out[t].item<double>() - expected[t]) < 1e-12,
                qPrintable(QString("position %1: %2, expected %3")
                               .arg(t)
                               .arg(out[t].item<double>(), 0, 'g', 17)
                               .arg(expected[t], 0, 'g', 17)));
    }

    void matchesTheNaiveRecurrence_data()
    {
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("length");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("states");
        QTest::addRow("one of each") << 1 << 1 << 1 << 1;
        QTest::addRow("small") << 2 << 37 << 6 << 4;
        QTest::addRow("Mamba's 16 states") << 1 << 20 << 3 << 16;
    }
    void matchesTheNaiveRecurrence()
    {
        QFETCH(int, batch);
        QFETCH(int, length);
        QFETCH(int, channels);
        QFETCH(int, states);
        ScanInputs a = randomInputs(batch, length, channels, states, 11);
        ScanInputs b = randomInputs(batch, length, channels, states, 11);
        requireGrad(a);
        requireGrad(b);
        const auto outA = selectiveScanReference(a);
        const auto outB = naiveScan(b);
        QVERIFY(torch::allclose(outA, outB, /*rtol=*/1e-12, /*atol=*/1e-12));
        const auto weights = torch::randn(outA.sizes(), kF64);
        const auto gradsA = gradients(a, outA, weights);
        const auto gradsB = gradients(b, outB, weights);
        for (std::size_t i = 0; i < gradsA.size(); ++i)
            QVERIFY2(torch::allclose(gradsA[i], gradsB[i], /*rtol=*/1e-10, /*atol=*/1e-12),
                kFieldNames[i]);
    }

    // Every input element nudged both ways: (f(x + e) - f(x - e)) / 2e against autograd.
    void gradientsMatchFiniteDifferences()
    {
        ScanInputs in = randomInputs(2, 5, 3, 2, 5);
        requireGrad(in);
        const auto weights = torch::randn({ 2, 5, 3 }, kF64);
        const auto grads = gradients(in, selectiveScanReference(in), weights);
        constexpr double kStep = 1e-6;
        torch::NoGradGuard noGrad;
        const auto f = [&] { return (selectiveScanReference(in) * weights).sum().item<double>(); };
        auto tensors = fields(in);
        for (std::size_t i = 0; i < tensors.size(); ++i) {
            auto flat = tensors[i]->view({ -1 });
            const auto grad = grads[i].view({ -1 });
            for (std::int64_t k = 0; k < flat.numel(); ++k) {
                const double x = flat[k].item<double>();
                flat[k] = x + kStep;
                const double up = f();
                flat[k] = x - kStep;
                const double down = f();
                flat[k] = x;
                const double numeric = (up - down) / (2 * kStep);
                const double analytic = grad[k].item<double>();
                QVERIFY2(std::abs(numeric - analytic) <= 1e-6 * (1.0 + std::abs(analytic)),
                    qPrintable(QString("d/d%1[%2]: finite differences %3, autograd %4")
                                   .arg(kFieldNames[i])
                                   .arg(k)
                                   .arg(numeric)
                                   .arg(analytic)));
            }
        }
    }

    // bf16 in, bf16 out, computed in fp32: within bf16's rounding of the fp64 result.
    void keepsTheInputType()
    {
        ScanInputs in = randomInputs(2, 9, 4, 3, 3);
        ScanInputs low = in;
        for (auto* t : { &low.u, &low.delta, &low.B, &low.C, &low.z })
            *t = t->to(torch::kBFloat16);
        for (auto* t : { &low.A, &low.D, &low.deltaBias })
            *t = t->to(torch::kFloat);
        const auto out = selectiveScanReference(low);
        QCOMPARE(out.scalar_type(), torch::kBFloat16);
        for (auto* t : fields(low))
            *t = t->to(torch::kDouble);
        const auto exact = selectiveScanReference(low);
        constexpr double kBf16Rounding = 1.0 / 256;
        QVERIFY((out.to(torch::kDouble) - exact).abs().max().item<double>()
            <= kBf16Rounding * exact.abs().max().item<double>());
    }

    void dispatchesToTheReferenceOnTheCpu()
    {
        ScanInputs in = randomInputs(1, 7, 2, 3, 9);
        QVERIFY(torch::equal(selectiveScan(in), selectiveScanReference(in)));
    }
};

QTEST_GUILESS_MAIN(TestBenchScan)
#include "tst_bench_scan.moc"

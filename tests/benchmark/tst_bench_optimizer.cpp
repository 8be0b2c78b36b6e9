// The benchmark's Adam(W) (benchmark/optimizer.h) against updates worked out by hand: with a
// constant gradient g, bias-corrected Adam moves every weight by lr · g / (|g| + eps) on every
// step, the first and the second alike (a wrong step count breaks the second: the fused kernels
// of LibTorch 2.x divided by zero there until 2026-11-26); AdamW first decays the weight by
// (1 − lr · wd). A loss-scaled gradient gives the same update; the offloaded and, where this
// LibTorch has it on the CPU (2.4+), the fused mode give the per-tensor result.

#include "benchmark/optimizer.h"
#include "benchmark/torch_compat.h"

#include <QTest>

#include <cmath>

using namespace gpuplan::bench;

namespace {

const std::vector<double> kStart { 1.0, -2.0, 0.5 };
const std::vector<double> kGradient { 0.1, -0.2, 0.0 };

// The weights after `steps` updates with the constant gradient (times `gradientScale`).
std::vector<double> afterSteps(
    OptimizerSettings settings, int steps, at::ScalarType dtype, double gradientScale = 1.0)
{
    auto weights = torch::tensor(kStart, torch::TensorOptions().dtype(dtype)).requires_grad_();
    Optimizer optimizer({ weights }, settings);
    for (int i = 0; i < steps; ++i) {
        weights.mutable_grad().copy_(torch::tensor(kGradient).mul(gradientScale));
        optimizer.step();
    }
    const auto result = weights.detach().to(torch::kDouble);
    return { result[0].item<double>(), result[1].item<double>(), result[2].item<double>() };
}

// By hand: each step decays by (1 − lr · wd) where decoupled, then moves by lr · g / (|g| + eps).
std::vector<double> byHand(const OptimizerSettings& s, int steps)
{
    std::vector<double> w = kStart;
    for (int i = 0; i < steps; ++i)
        for (std::size_t k = 0; k < w.size(); ++k) {
            if (s.decoupledWeightDecay)
                w[k] *= 1.0 - s.learningRate * s.weightDecay;
            w[k] -= s.learningRate * kGradient[k] / (std::abs(kGradient[k]) + s.epsilon);
        }
    return w;
}

bool near(const std::vector<double>& a, const std::vector<double>& b, double tolerance)
{
    for (std::size_t k = 0; k < a.size(); ++k)
        if (std::abs(a[k] - b[k]) > tolerance)
            return false;
    return true;
}

QString text(const std::vector<double>& w)
{
    return QStringLiteral("%1, %2, %3")
        .arg(w[0], 0, 'g', 12)
        .arg(w[1], 0, 'g', 12)
        .arg(w[2], 0, 'g', 12);
}

} // namespace

class TestBenchOptimizer : public QObject {
    Q_OBJECT

private slots:
    void adamwMovesBySignAfterDecay()
    {
        const OptimizerSettings s = optimizerSettingsFor("adamw");
        QVERIFY(s.decoupledWeightDecay);
        QCOMPARE(s.weightDecay, 0.01);
        // 1 · (1 − 1e-6) − 1e-4 · 0.1 / (0.1 + 1e-8), and so on.
        const std::vector<double> one { 0.99989900001, -1.99989800000, 0.4999995 };
        const auto got = afterSteps(s, 1, torch::kDouble);
        QVERIFY2(near(got, one, 1e-10), qPrintable(text(got)));
        QVERIFY(near(byHand(s, 1), one, 1e-10));
        const auto two = afterSteps(s, 2, torch::kDouble);
        QVERIFY2(near(two, byHand(s, 2), 1e-12), qPrintable(text(two)));
    }

    void adamWithoutDecay()
    {
        const OptimizerSettings s = optimizerSettingsFor("adam");
        QVERIFY(!s.decoupledWeightDecay);
        QCOMPARE(s.weightDecay, 0.0);
        const auto three = afterSteps(s, 3, torch::kDouble);
        QVERIFY2(near(three, { 1.0 - 3e-4, -2.0 + 3e-4, 0.5 }, 1e-10), qPrintable(text(three)));
    }

    void lossScaledGradientGivesTheSameUpdate()
    {
        OptimizerSettings s = optimizerSettingsFor("adamw");
        s.lossScale = 1024.0;
        const auto got = afterSteps(s, 2, torch::kDouble, 1024.0);
        QVERIFY2(near(got, byHand(s, 2), 1e-12), qPrintable(text(got)));
    }

    void offloadedEqualsPerTensor()
    {
        OptimizerSettings s = optimizerSettingsFor("adamw");
        const auto perTensor = afterSteps(s, 3, torch::kFloat);
        s.mode = OptimizerMode::Offloaded;
        QVERIFY(near(afterSteps(s, 3, torch::kFloat), perTensor, 1e-7));
    }

    void fusedEqualsPerTensor()
    {
        if (!compat::hasFusedAdam(c10::DeviceType::CPU))
            QSKIP("this LibTorch has no fused Adam on the CPU (2.4 and later have)");
        for (const char* recipe : { "adamw", "adam" }) {
            OptimizerSettings s = optimizerSettingsFor(recipe);
            const auto perTensor = afterSteps(s, 3, torch::kFloat);
            s.mode = OptimizerMode::Fused;
            const auto fused = afterSteps(s, 3, torch::kFloat);
            QVERIFY2(near(fused, perTensor, 1e-6), qPrintable(text(fused)));
        }
    }

    void stateBytesCountMomentsAndHostCopies()
    {
        const auto weights = torch::zeros({ 3 }).requires_grad_();
        OptimizerSettings s = optimizerSettingsFor("adamw");
        QCOMPARE(Optimizer({ weights }, s).stateBytes(), std::int64_t { 2 * 3 * 4 });
        s.mode = OptimizerMode::Offloaded; // plus fp32 master weights and gradients on the host
        QCOMPARE(Optimizer({ weights }, s).stateBytes(), std::int64_t { 4 * 3 * 4 });
    }
};

QTEST_GUILESS_MAIN(TestBenchOptimizer)
#include "tst_bench_optimizer.moc"

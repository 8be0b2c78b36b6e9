// The short-sequence attention kernels (benchmark/kernels/short_attention.h) against attention in
// fp64 through LibTorch's autograd, on the same fp32 inputs: the output and the gradients of q, k
// and v, within a tolerance set by TF32's 10-bit mantissas. Sequences of one tile and less (17:
// one past a fragment, 40, 64), crossing tiles (130), ViT-L's 197 (four tiles, the last partial)
// and 256 (the most the forward holds); several batches and heads (the block's head index); q,
// k and v as the strided views a fused qkv projection gives; queries that make a peaked
// softmax. Also the autograd node's LibTorch-op path (the kernels' formulas: log-sum-exp kept,
// probabilities recomputed, delta) against the same fp64 gradients, and the shapes the launch
// refuses, with its message.
//
// The kernels run on the CPU (kernel_emulation.h, wmma_emulation.h: tensor-core fragments as
// whole tiles per thread) everywhere the CUDA headers are, so CI executes their tiling, masking,
// shared-memory reuse and reductions; and on the GPU through the LibTorch operation, skipped with
// the reason when there is none.

#include "kernel_emulation.h" // first: it defines what the CUDA headers then keep
#include "wmma_emulation.h"

#include "benchmark/kernels/short_attention_kernels.cuh"

#include "cuda_test_support.h"

#include "benchmark/kernels/short_attention.h"
#include "benchmark/kernels/short_attention_op.h"

#include <QTest>

#include <limits>
#include <optional>
#include <stdexcept>

using namespace gpuplan::bench;
using namespace gpuplan::bench::kernels;
using namespace gpuplan::bench::testing;

namespace {

struct Inputs {
    torch::Tensor qkv; // [batch, positions, 3, heads, 64]: what a fused projection gives
    torch::Tensor q, k, v; // [batch, heads, positions, 64] views of it
    torch::Tensor dout; // [batch, heads, positions, 64] contiguous
};

Inputs makeInputs(int batch, int heads, int positions, double queryScale)
{
    torch::manual_seed(97);
    Inputs in;
    in.qkv = torch::randn({ batch, positions, 3, heads, kShortHeadSize });
    in.qkv.select(2, 0).mul_(queryScale);
    const auto head = [&](int i) { return in.qkv.select(2, i).permute({ 0, 2, 1, 3 }); };
    in.q = head(0);
    in.k = head(1);
    in.v = head(2);
    in.dout = torch::randn({ batch, heads, positions, kShortHeadSize });
    return in;
}

struct Results {
    torch::Tensor out, dq, dk, dv;
};

Results reference(const Inputs& in)
{
    auto q = in.q.to(torch::kDouble).requires_grad_(), k = in.k.to(torch::kDouble).requires_grad_(),
         v = in.v.to(torch::kDouble).requires_grad_();
    auto out = torch::matmul(torch::softmax(torch::matmul(q, k.transpose(-2, -1)) / 8.0, -1), v);
    out.backward(in.dout.to(torch::kDouble));
    return { out.detach(), q.grad(), k.grad(), v.grad() };
}

HeadsView viewOf(const torch::Tensor& t)
{
    return { t.data_ptr<float>(), t.stride(0), t.stride(1), t.stride(2) };
}

void fillShared(std::size_t floats)
{
    emulation::dynamicShared.assign(floats, std::numeric_limits<float>::quiet_NaN());
}

// The kernels on CPU threads, on the launches' grid or on `heads` (y, z) of its own.
Results emulate(const Inputs& in, std::optional<dim3> heads = std::nullopt)
{
    const ShortAttentionShape s { static_cast<int>(in.q.size(0)), static_cast<int>(in.q.size(1)),
        static_cast<int>(in.q.size(2)) };
    dim3 grid = attentionGrid(s);
    if (heads) {
        grid.y = heads->y;
        grid.z = heads->z;
    }
    const auto nan = std::numeric_limits<float>::quiet_NaN();
    const auto rows = torch::full({ s.batch, s.heads, s.positions }, nan);
    Results r { torch::full_like(in.dout, nan), torch::full_like(in.dout, nan),
        torch::full_like(in.dout, nan), torch::full_like(in.dout, nan) };
    auto lse = rows.clone(), delta = rows.clone();
    const HeadsView q = viewOf(in.q), k = viewOf(in.k), v = viewOf(in.v), dout = viewOf(in.dout);
    float *out = r.out.data_ptr<float>(), *lseData = lse.data_ptr<float>(),
          *deltaData = delta.data_ptr<float>();
    fillShared(forwardSharedFloats(s.positions));
    emulation::launch(
        grid, kAttentionThreads, [&] { shortAttentionForwardKernel(s, q, k, v, out, lseData); });
    fillShared(kBackwardSharedFloats);
    float *dq = r.dq.data_ptr<float>(), *dk = r.dk.data_ptr<float>(), *dv = r.dv.data_ptr<float>();
    emulation::launch(grid, kAttentionThreads,
        [&] { shortAttentionQueryGradientKernel(s, q, k, v, out, lseData, dout, deltaData, dq); });
    fillShared(kBackwardSharedFloats);
    emulation::launch(grid, kAttentionThreads,
        [&] { shortAttentionKeyGradientKernel(s, q, k, v, lseData, dout, deltaData, dk, dv); });
    return r;
}

// TF32 rounds each product's inputs to 11 significant bits (relative error <= 2^-11), and the
// probabilities are rounded again before P v: errors of some 1e-4 of the largest value, in
// scores, probabilities and every sum after. Bound: 3e-3 of the largest magnitude of the
// expected tensor (max norm). The emulated kernels, which round as the tensor cores do, give
// 0.5-1.1e-3, and 1.6e-3 for the peaked softmax (scores four times larger); a scale off by 0.8%
// gives 1.3-5e-2, a delta left out or a row off by one far more.
constexpr double kTf32Tolerance = 3e-3;

void compare(const torch::Tensor& got, const torch::Tensor& expected, const char* what,
    double tolerance = kTf32Tolerance)
{
    QVERIFY2(
        torch::isfinite(got).all().item<bool>(), qPrintable(QString("%1: not finite").arg(what)));
    const double scale = expected.abs().max().item<double>();
    const double worst = (got.to(torch::kDouble) - expected).abs().max().item<double>();
    QVERIFY2(worst <= tolerance * scale,
        qPrintable(QString("%1: off by %2 where the largest value is %3 (%4 allowed)")
                       .arg(what)
                       .arg(worst)
                       .arg(scale)
                       .arg(tolerance * scale)));
}

void compareAll(const Results& got, const Results& expected, double tolerance = kTf32Tolerance)
{
    compare(got.out, expected.out, "output", tolerance);
    compare(got.dq, expected.dq, "dq", tolerance);
    compare(got.dk, expected.dk, "dk", tolerance);
    compare(got.dv, expected.dv, "dv", tolerance);
}

void addShapes()
{
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("positions");
    QTest::addColumn<double>("queryScale");
    QTest::newRow("2 x 3 heads of 40 positions (less than a tile)") << 2 << 3 << 40 << 1.0;
    QTest::newRow("1 x 2 heads of 64 (one whole tile)") << 1 << 2 << 64 << 1.0;
    QTest::newRow("1 x 1 head of 130 (three tiles), a peaked softmax") << 1 << 1 << 130 << 4.0;
    QTest::newRow("1 x 1 head of 197 (ViT-L/16)") << 1 << 1 << 197 << 1.0;
    QTest::newRow("2 x 2 heads of 17 (one past a fragment)") << 2 << 2 << 17 << 1.0;
    QTest::newRow("1 x 1 head of 256 (the most the forward holds)") << 1 << 1 << 256 << 1.0;
}

} // namespace

class TestBenchShortAttentionKernel : public QObject {
    Q_OBJECT

private slots:
    void emulatedKernelsMatchFp64_data() { addShapes(); }
    void emulatedKernelsMatchFp64()
    {
        QFETCH(int, batch);
        QFETCH(int, heads);
        QFETCH(int, positions);
        QFETCH(double, queryScale);
        const Inputs in = makeInputs(batch, heads, positions, queryScale);
        compareAll(emulate(in), reference(in));
    }

    // More heads than a grid's y takes (65,535) are spread over y and z, the last z layer only
    // partly used: here 2 x 3 heads over y 4 and z 2, two blocks past the last head in each
    // tile, which must return at once (their writes would land past the tensors).
    void headsSpreadOverTwoGridDimensions()
    {
        const Inputs in = makeInputs(2, 3, 70, 1.0);
        const dim3 grid = attentionGrid({ 2, 3, 70 });
        QCOMPARE(grid.x, 2u);
        QCOMPARE(grid.y, 6u);
        QCOMPARE(grid.z, 1u);
        const dim3 many = attentionGrid({ 65536, 3, 70 });
        QCOMPARE(many.y, 65535u);
        QCOMPARE(many.z, 4u); // 196,608 heads: three layers of 65,535 and 3 more
        compareAll(emulate(in, dim3(1, 4, 2)), reference(in));
    }

    // The node's LibTorch-op path (a CPU, or a GPU where the kernels do not take the tensors):
    // the same formulas in fp32 without TF32, so within fp32's rounding.
    void nodeOpsMatchFp64_data() { addShapes(); }
    void nodeOpsMatchFp64()
    {
        QFETCH(int, batch);
        QFETCH(int, heads);
        QFETCH(int, positions);
        QFETCH(double, queryScale);
        const Inputs in = makeInputs(batch, heads, positions, queryScale);
        auto q = in.q.detach().requires_grad_(), k = in.k.detach().requires_grad_(),
             v = in.v.detach().requires_grad_();
        auto out = shortAttention(q, k, v);
        out.backward(in.dout);
        compareAll({ out.detach(), q.grad(), k.grad(), v.grad() }, reference(in), 1e-5);
    }

    void kernelsOnTheGpu_data() { addShapes(); }
    void kernelsOnTheGpu()
    {
        QFETCH(int, batch);
        QFETCH(int, heads);
        QFETCH(int, positions);
        QFETCH(double, queryScale);
        QString why;
        if (!shortAttentionKernelCompiledIn())
            QSKIP("this build has no short attention CUDA kernels (a CPU-only LibTorch)");
        if (!haveGpu(&why) || !torch::cuda::is_available())
            QSKIP(qPrintable(why.isEmpty() ? QString("LibTorch sees no GPU") : why));
        cudaDeviceProp properties {};
        GPUPLAN_CUDA_CALL(cudaGetDeviceProperties(&properties, 0));
        if (properties.major < 8)
            QSKIP("the GPU has no TF32 tensor cores (compute capability below 8)");
        const Inputs in = makeInputs(batch, heads, positions, queryScale);
        const auto qkv = in.qkv.cuda();
        const auto head = [&](int i) {
            return qkv.select(2, i).permute({ 0, 2, 1, 3 }).detach().requires_grad_();
        };
        auto q = head(0), k = head(1), v = head(2);
        const bool tf32 = at::globalContext().allowTF32CuBLAS();
        at::globalContext().setAllowTF32CuBLAS(true); // the kernels run only where it is allowed
        // Else the node would pass by running its LibTorch ops.
        QVERIFY2(shortAttentionOffered(q, k, v, /*causal=*/false),
            "the kernels do not take the strided views on this GPU");
        auto out = shortAttention(q, k, v);
        out.backward(in.dout.cuda());
        at::globalContext().setAllowTF32CuBLAS(tf32);
        compareAll(
            { out.detach().cpu(), q.grad().cpu(), k.grad().cpu(), v.grad().cpu() }, reference(in));
    }

    // The launch refuses what the kernels cannot hold before any CUDA call (so also here).
    void launchRefusesLongSequences()
    {
        try {
            shortAttentionForward({ 2, 16, 257 }, {}, {}, {}, nullptr, nullptr, nullptr);
            QFAIL("257 positions were taken");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(QString(e.what()),
                QString("short attention: 2 x 16 heads of 257 positions (wanted 1 to 256 "
                        "positions)"));
        }
        try {
            shortAttentionForward({ 65536, 32768, 197 }, {}, {}, {}, nullptr, nullptr, nullptr);
            QFAIL("2^31 heads were taken");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(QString(e.what()),
                QString("short attention: 65536 x 32768 heads exceed the 2147483647 a launch "
                        "takes"));
        }
    }

    // Where the free lunch offers the kernels: never on a CPU, whatever the shape.
    void notOfferedOnACpu()
    {
        const Inputs in = makeInputs(1, 1, 40, 1.0);
        QVERIFY(!shortAttentionOffered(in.q, in.k, in.v, /*causal=*/false));
    }
};

QTEST_GUILESS_MAIN(TestBenchShortAttentionKernel)
#include "tst_bench_short_attention_kernel.moc"

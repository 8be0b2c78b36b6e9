// The selective scan's CUDA kernels against the LibTorch reference computed in fp64 on the same
// (rounded) inputs: the output and every gradient, for fp32, fp16 and bf16 inputs, within a
// tolerance scaled by the largest reference value and the type's precision. z, B and C are
// views into wider tensors, as in a Mamba block.
//
// The kernels run twice: on CPU threads (kernel_emulation.h), everywhere the CUDA headers
// are, so CI executes their indexing, masking, chunking and shuffles; and on the GPU, skipped
// with the reason when there is none. Where this build also has the LibTorch autograd wrapper,
// selectiveScan() is checked through autograd on the GPU.

#include "kernel_emulation.h" // first: it defines what the CUDA headers then keep

#include "benchmark/kernels/selective_scan_kernels.cuh"

#include "cuda_test_support.h"

#include "benchmark/kernels/cuda_check.h"
#include "benchmark/kernels/selective_scan.h"
#include "benchmark/kernels/selective_scan_op.h"

#include <QTest>

#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

using namespace gpuplan::bench;
using namespace gpuplan::bench::kernels;
using namespace gpuplan::bench::testing;

Q_DECLARE_METATYPE(c10::ScalarType)

namespace {

// The inputs as the kernel sees them (host tensors, row-major) and the gradient of the output.
struct Case {
    int batch = 0, length = 0, channels = 0, states = 0;
    at::ScalarType type = torch::kFloat;
    torch::Tensor u, delta, zWide, bcWide, dout; // of `type`
    torch::Tensor A, D, bias; // fp32
    static constexpr int kRank = 3; // dt's rank columns in front of B and C, as x_proj gives
    torch::Tensor z() const { return zWide.narrow(2, channels, channels); }
    torch::Tensor B() const { return bcWide.narrow(2, kRank, states); }
    torch::Tensor C() const { return bcWide.narrow(2, kRank + states, states); }
};

Case makeCase(int batch, int length, int channels, int states, at::ScalarType type)
{
    torch::manual_seed(17);
    Case c;
    c.batch = batch;
    c.length = length;
    c.channels = channels;
    c.states = states;
    c.type = type;
    c.u = torch::randn({ batch, length, channels }).to(type);
    c.delta = (torch::randn({ batch, length, channels }) - 1.0).to(type);
    c.zWide = torch::randn({ batch, length, 2 * channels }).to(type);
    c.bcWide = torch::randn({ batch, length, Case::kRank + 2 * states }).to(type);
    c.dout = torch::randn({ batch, length, channels }).to(type);
    // Mamba's initialisation: A = -(1..N) per channel, dt_proj's bias giving steps of 1e-3 to
    // 0.1 (softplus's inverse), D near 1; randomised a little so channels differ.
    c.A = -torch::arange(1, states + 1, torch::kFloat).expand({ channels, states }).contiguous()
        * (1.0 + 0.1 * torch::rand({ channels, states }));
    const auto step = torch::exp(torch::rand({ channels }) * std::log(100.0) + std::log(1e-3));
    c.bias = step + torch::log(-torch::expm1(-step));
    c.D = 1.0 + 0.1 * torch::randn({ channels });
    return c;
}

struct Result {
    torch::Tensor out, du, ddelta, dA, dB, dC, dD, dz, dbias;
};

const char* const kResultNames[]
    = { "out", "du", "ddelta", "dA", "dB", "dC", "dD", "dz", "ddeltaBias" };

std::vector<torch::Tensor> asList(const Result& r)
{
    return { r.out, r.du, r.ddelta, r.dA, r.dB, r.dC, r.dD, r.dz, r.dbias };
}

// The reference in fp64 on the same rounded inputs: the truth the kernels are held to.
Result reference(const Case& c)
{
    ScanInputs in;
    in.u = c.u.to(torch::kDouble);
    in.delta = c.delta.to(torch::kDouble);
    in.A = c.A.to(torch::kDouble);
    in.B = c.B().to(torch::kDouble);
    in.C = c.C().to(torch::kDouble);
    in.D = c.D.to(torch::kDouble);
    in.z = c.z().to(torch::kDouble);
    in.deltaBias = c.bias.to(torch::kDouble);
    for (auto* t : { &in.u, &in.delta, &in.A, &in.B, &in.C, &in.D, &in.z, &in.deltaBias })
        t->requires_grad_(true);
    const auto out = selectiveScanReference(in);
    out.backward(c.dout.to(torch::kDouble));
    return { out.detach(), in.u.grad(), in.delta.grad(), in.A.grad(), in.B.grad(), in.C.grad(),
        in.D.grad(), in.z.grad(), in.deltaBias.grad() };
}

ScanType scanType(at::ScalarType type)
{
    return type == torch::kHalf    ? ScanType::Float16
        : type == torch::kBFloat16 ? ScanType::BFloat16
                                   : ScanType::Float32;
}

// The problem with its operands at the given addresses of u, delta, zWide, bcWide, A, D, bias.
ScanProblem problem(const Case& c, const std::vector<const void*>& at)
{
    const std::int64_t width = torch::elementSize(c.type);
    const auto shifted = [&](const void* base, std::int64_t elements) {
        return static_cast<const void*>(static_cast<const char*>(base) + elements * width);
    };
    ScanProblem p;
    p.batch = c.batch;
    p.length = c.length;
    p.channels = c.channels;
    p.states = c.states;
    p.type = scanType(c.type);
    p.u = { at[0], c.u.stride(0), c.u.stride(1) };
    p.delta = { at[1], c.delta.stride(0), c.delta.stride(1) };
    p.z = { shifted(at[2], c.channels), c.zWide.stride(0), c.zWide.stride(1) };
    p.B = { shifted(at[3], Case::kRank), c.bcWide.stride(0), c.bcWide.stride(1) };
    p.C = { shifted(at[3], Case::kRank + c.states), c.bcWide.stride(0), c.bcWide.stride(1) };
    p.A = static_cast<const float*>(at[4]);
    p.D = static_cast<const float*>(at[5]);
    p.deltaBias = static_cast<const float*>(at[6]);
    return p;
}

// Empty result tensors on the host, in the kernels' layouts.
Result emptyResult(const Case& c)
{
    const auto typed = torch::TensorOptions().dtype(c.type);
    const auto fp32 = torch::TensorOptions().dtype(torch::kFloat);
    return { torch::empty({ c.batch, c.length, c.channels }, typed),
        torch::empty({ c.batch, c.length, c.channels }, typed),
        torch::empty({ c.batch, c.length, c.channels }, typed),
        torch::empty({ c.batch, c.channels, c.states }, fp32),
        torch::zeros({ c.batch, c.length, c.states }, fp32),
        torch::zeros({ c.batch, c.length, c.states }, fp32),
        torch::empty({ c.batch, c.channels }, fp32),
        torch::empty({ c.batch, c.length, c.channels }, typed),
        torch::empty({ c.batch, c.channels }, fp32) };
}

ScanGradients gradientsAt(const std::vector<void*>& at)
{
    ScanGradients g;
    g.du = at[1];
    g.ddelta = at[2];
    g.dA = static_cast<float*>(at[3]);
    g.dB = static_cast<float*>(at[4]);
    g.dC = static_cast<float*>(at[5]);
    g.dD = static_cast<float*>(at[6]);
    g.dz = at[7];
    g.ddeltaBias = static_cast<float*>(at[8]);
    return g;
}

// Per-sequence sums (dA, dD, the bias's gradient) summed over the batch, everything in fp64.
Result finished(Result r)
{
    r.dA = r.dA.sum(0);
    r.dD = r.dD.sum(0);
    r.dbias = r.dbias.sum(0);
    for (auto* t : { &r.out, &r.du, &r.ddelta, &r.dA, &r.dB, &r.dC, &r.dD, &r.dz, &r.dbias })
        *t = t->to(torch::kDouble);
    return r;
}

template <typename T> Result runEmulatedAs(const Case& c)
{
    const auto p = problem(c,
        { c.u.data_ptr(), c.delta.data_ptr(), c.zWide.data_ptr(), c.bcWide.data_ptr(),
            c.A.data_ptr(), c.D.data_ptr(), c.bias.data_ptr() });
    const int chunks = scanChunks(c.length);
    auto states = torch::empty({ c.batch, chunks, c.channels, c.states });
    Result r = emptyResult(c);
    const dim3 grid((c.channels + kChannelsPerBlock - 1) / kChannelsPerBlock, c.batch);
    emulation::launch(grid, kThreads, [&] {
        scanForward<T>(p, static_cast<T*>(r.out.data_ptr()), states.data_ptr<float>(), chunks);
    });
    const ScanOperand dout { c.dout.data_ptr(), c.dout.stride(0), c.dout.stride(1) };
    std::vector<void*> at;
    for (const auto& t : asList(r))
        at.push_back(t.data_ptr());
    const auto g = gradientsAt(at);
    emulation::launch(
        grid, kThreads, [&] { scanBackward<T>(p, dout, states.data_ptr<float>(), g, chunks); });
    return finished(r);
}

Result runEmulated(const Case& c)
{
    if (c.type == torch::kHalf)
        return runEmulatedAs<__half>(c);
    if (c.type == torch::kBFloat16)
        return runEmulatedAs<__nv_bfloat16>(c);
    return runEmulatedAs<float>(c);
}

Result runOnDevice(const Case& c)
{
    std::vector<std::unique_ptr<DeviceCopy>> inputs;
    std::vector<const void*> in;
    for (const auto& t : { c.u, c.delta, c.zWide, c.bcWide, c.A, c.D, c.bias, c.dout }) {
        inputs.push_back(std::make_unique<DeviceCopy>(t.contiguous()));
        in.push_back(inputs.back()->data());
    }
    const auto p = problem(c, in);
    auto states = torch::empty({ c.batch, scanChunks(c.length), c.channels, c.states });
    DeviceCopy deviceStates(states);
    Result r = emptyResult(c);
    std::vector<std::unique_ptr<DeviceCopy>> outputs;
    std::vector<void*> at;
    for (const auto& t : asList(r)) {
        outputs.push_back(std::make_unique<DeviceCopy>(t)); // dB, dC start at zero
        at.push_back(outputs.back()->data());
    }
    selectiveScanForward(p, at[0], static_cast<float*>(deviceStates.data()), nullptr);
    const ScanOperand dout { in[7], c.dout.stride(0), c.dout.stride(1) };
    selectiveScanBackward(
        p, dout, static_cast<const float*>(deviceStates.data()), gradientsAt(at), nullptr);
    GPUPLAN_CUDA_CALL(cudaDeviceSynchronize());
    for (auto& o : outputs)
        o->copyBack();
    return finished(r);
}

// Largest error relative to the reference's largest magnitude: four unit roundoffs of the
// stored type (fp16 2^-11, bf16 2^-8; outputs and gradients are rounded to it), at least 1e-5
// for what fp32 arithmetic (exp2f, summation order, atomics) adds. The emulated kernels came
// within 2e-7 (fp32), 3e-4 (fp16) and 3.3e-3 (bf16).
double tolerance(at::ScalarType type)
{
    return type == torch::kFloat ? 1e-5 : type == torch::kHalf ? 4.0 / 2048 : 4.0 / 256;
}

void compare(const Result& got, const Result& expected, at::ScalarType type)
{
    compareWithReference(asList(got), asList(expected), kResultNames, tolerance(type));
}

void addCases(bool large)
{
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("length");
    QTest::addColumn<int>("channels");
    QTest::addColumn<int>("states");
    QTest::addColumn<c10::ScalarType>("type");
    const std::pair<const char*, at::ScalarType> types[]
        = { { "fp32", torch::kFloat }, { "fp16", torch::kHalf }, { "bf16", torch::kBFloat16 } };
    for (const auto& [name, type] : types) {
        // Two chunks and a partial tile; a partial block of channels.
        QTest::addRow("%s 2x70x20, 16 states", name) << 2 << 70 << 20 << 16 << type;
        // One whole chunk; fewer states than lanes.
        QTest::addRow("%s 1x64x16, 5 states", name) << 1 << 64 << 16 << 5 << type;
        if (large) // a quarter of Mamba-2.8B's inner width, a long sequence
            QTest::addRow("%s 2x2000x1280, 16 states", name) << 2 << 2000 << 1280 << 16 << type;
    }
    // Ten chunks: the states stored between them and the adjoint carried back across them.
    QTest::addRow("fp32 1x600x20, 16 states") << 1 << 600 << 20 << 16 << torch::kFloat;
}

} // namespace

class TestBenchScanKernel : public QObject {
    Q_OBJECT

private slots:
    void emulatedKernelMatchesReference_data() { addCases(/*large=*/false); }
    void emulatedKernelMatchesReference()
    {
        QFETCH(int, batch);
        QFETCH(int, length);
        QFETCH(int, channels);
        QFETCH(int, states);
        QFETCH(c10::ScalarType, type);
        const Case c = makeCase(batch, length, channels, states, type);
        compare(runEmulated(c), reference(c), type);
    }

    void gpuKernelMatchesReference_data() { addCases(/*large=*/true); }
    void gpuKernelMatchesReference()
    {
        QString why;
        if (!haveGpu(&why))
            QSKIP(qPrintable(why));
        QFETCH(int, batch);
        QFETCH(int, length);
        QFETCH(int, channels);
        QFETCH(int, states);
        QFETCH(c10::ScalarType, type);
        const Case c = makeCase(batch, length, channels, states, type);
        compare(runOnDevice(c), reference(c), type);
    }

    // selectiveScan() on CUDA tensors goes through the autograd wrapper: views, type casts and
    // the gradients autograd hands back.
    void autogradWrapperOnGpu()
    {
        QString why;
        if (!selectiveScanKernelCompiledIn())
            QSKIP("this LibTorch has no CUDA: the autograd wrapper is not built");
        if (!haveGpu(&why) || !torch::cuda::is_available())
            QSKIP(qPrintable(why.isEmpty() ? "LibTorch sees no CUDA device" : why));
        const Case c = makeCase(2, 300, 40, 16, torch::kBFloat16);
        const auto cuda = [](const torch::Tensor& t) {
            return t.to(torch::kCUDA).detach().requires_grad_(true);
        };
        auto zWide = cuda(c.zWide), bcWide = cuda(c.bcWide);
        ScanInputs in;
        in.u = cuda(c.u);
        in.delta = cuda(c.delta);
        in.A = cuda(c.A);
        in.B = bcWide.narrow(2, Case::kRank, c.states);
        in.C = bcWide.narrow(2, Case::kRank + c.states, c.states);
        in.D = cuda(c.D);
        in.z = zWide.narrow(2, c.channels, c.channels);
        in.deltaBias = cuda(c.bias);
        const auto out = selectiveScan(in);
        out.backward(c.dout.to(torch::kCUDA));
        const Result expected = reference(c);
        const auto cpu = [](const torch::Tensor& t) { return t.cpu().to(torch::kDouble); };
        Result got { cpu(out), cpu(in.u.grad()), cpu(in.delta.grad()), cpu(in.A.grad()),
            cpu(bcWide.grad().narrow(2, Case::kRank, c.states)),
            cpu(bcWide.grad().narrow(2, Case::kRank + c.states, c.states)), cpu(in.D.grad()),
            cpu(zWide.grad().narrow(2, c.channels, c.channels)), cpu(in.deltaBias.grad()) };
        compare(got, expected, torch::kBFloat16);
    }
};

QTEST_GUILESS_MAIN(TestBenchScanKernel)
#include "tst_bench_scan_kernel.moc"

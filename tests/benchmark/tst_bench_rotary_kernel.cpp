// The rotary query-key-value CUDA kernels (benchmark/kernels/rotary_qkv.h) against the LibTorch
// reference (rotaryQkvReference through autograd) computed in fp64 on the same rounded inputs:
// query, key, value and the projection's gradient, for fp32, fp16 and bf16, within a tolerance
// scaled by the largest reference value and the type's precision. The key's incoming gradient
// is strided (as the attention's backward may hand it back), the others contiguous.
//
// The kernels run on the CPU (kernel_emulation.h; their threads never wait for each other, so one
// after another) everywhere the CUDA headers are, so CI executes their indexing; and on the GPU,
// skipped with the reason when there is none, directly and through the LibTorch autograd operation
// (rotaryQkv).

#include "kernel_emulation.h" // first: it defines what the CUDA headers then keep

#include "benchmark/kernels/rotary_qkv_kernels.cuh"

#include "cuda_test_support.h"

#include "benchmark/kernels/rotary_qkv.h"
#include "benchmark/kernels/rotary_qkv_op.h"

#include <QTest>

#include <memory>
#include <vector>

using namespace gpuplan::bench;
using namespace gpuplan::bench::kernels;
using namespace gpuplan::bench::testing;

Q_DECLARE_METATYPE(c10::ScalarType)

namespace {

struct Case {
    int batch = 0, positions = 0, heads = 0, headDim = 0, rotaryDims = 0;
    at::ScalarType type = torch::kFloat;
    torch::Tensor qkv; // [batch, positions, heads x 3 x headDim], of `type`
    torch::Tensor dquery, dkey, dvalue; // [batch, heads, positions, headDim], dkey strided
    RotaryTables tables; // fp32

    RotaryShape shape() const
    {
        const RotaryType t = type == torch::kHalf ? RotaryType::Float16
            : type == torch::kBFloat16            ? RotaryType::BFloat16
                                                  : RotaryType::Float32;
        return { batch, positions, heads, headDim, rotaryDims, t };
    }
    torch::Tensor heads4() const
    {
        return torch::empty({ batch, heads, positions, headDim }, type);
    }
};

// Tables from rotaryTables, or (randomTables) random ones whose halves differ, so that a term
// paired with the wrong half's angle shows.
Case makeCase(int batch, int positions, int heads, int headDim, int rotaryDims, at::ScalarType type,
    bool randomTables = false)
{
    torch::manual_seed(29);
    Case c { batch, positions, heads, headDim, rotaryDims, type, {}, {}, {}, {}, {} };
    c.qkv = torch::randn({ batch, positions, heads * 3 * headDim }).to(type);
    c.dquery = torch::randn({ batch, heads, positions, headDim }).to(type);
    // [batch, positions, heads, headDim] in memory, seen as [batch, heads, positions, headDim].
    c.dkey = torch::randn({ batch, positions, heads, headDim }).to(type).transpose(1, 2);
    c.dvalue = torch::randn({ batch, heads, positions, headDim }).to(type);
    // Long-range angles (base 10000, positions up to 40): both signs of cos and sin occur.
    c.tables = randomTables ? RotaryTables { torch::randn({ positions, rotaryDims }),
        torch::randn({ positions, rotaryDims }) }
                            : rotaryTables(positions, rotaryDims, 10000.0, torch::kCPU);
    return c;
}

struct Result {
    torch::Tensor query, key, value, dqkv;
};

const char* const kResultNames[] = { "query", "key", "value", "dqkv" };

std::vector<torch::Tensor> asList(const Result& r)
{
    return { r.query, r.key, r.value, r.dqkv };
}

Result inDouble(Result r)
{
    for (auto* t : { &r.query, &r.key, &r.value, &r.dqkv })
        *t = t->to(torch::kDouble);
    return r;
}

// The reference in fp64 on the same rounded inputs: the truth the kernels are held to.
Result reference(const Case& c)
{
    const auto qkv = c.qkv.to(torch::kDouble).requires_grad_(true);
    const RotaryTables tables { c.tables.cos.to(torch::kDouble), c.tables.sin.to(torch::kDouble) };
    const auto out = rotaryQkvReference(qkv, c.heads, tables);
    torch::autograd::backward({ out.query, out.key, out.value },
        { c.dquery.to(torch::kDouble), c.dkey.to(torch::kDouble), c.dvalue.to(torch::kDouble) });
    return { out.query.detach(), out.key.detach(), out.value.detach(), qkv.grad() };
}

HeadsOperand operand(const torch::Tensor& t, const void* data)
{
    return { data, t.stride(0), t.stride(1), t.stride(2), t.stride(3) };
}

RotaryAngles anglesOf(const RotaryTables& tables)
{
    return { tables.cos.data_ptr<float>(), tables.sin.data_ptr<float>() };
}

template <typename T> Result runEmulatedAs(const Case& c)
{
    Result r { c.heads4(), c.heads4(), c.heads4(), torch::empty_like(c.qkv) };
    const auto s = c.shape();
    const auto angles = anglesOf(c.tables);
    const dim3 grid(static_cast<unsigned>(c.batch * c.positions));
    emulation::launchIndependent(grid, kRotaryThreads, [&] {
        rotaryQkvForwardKernel<T>(s, static_cast<const T*>(c.qkv.data_ptr()), angles,
            static_cast<T*>(r.query.data_ptr()), static_cast<T*>(r.key.data_ptr()),
            static_cast<T*>(r.value.data_ptr()));
    });
    emulation::launchIndependent(grid, kRotaryThreads, [&] {
        rotaryQkvBackwardKernel<T>(s, operand(c.dquery, c.dquery.data_ptr()),
            operand(c.dkey, c.dkey.data_ptr()), operand(c.dvalue, c.dvalue.data_ptr()), angles,
            static_cast<T*>(r.dqkv.data_ptr()));
    });
    return inDouble(r);
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
    DeviceCopy qkv(c.qkv), cos(c.tables.cos), sin(c.tables.sin);
    // The key's gradient keeps its strides: its whole storage goes to the device.
    DeviceCopy dquery(c.dquery), dkeyStorage(c.dkey.transpose(1, 2)), dvalue(c.dvalue);
    Result r { c.heads4(), c.heads4(), c.heads4(), torch::empty_like(c.qkv) };
    std::vector<std::unique_ptr<DeviceCopy>> outputs;
    for (const auto& t : asList(r))
        outputs.push_back(std::make_unique<DeviceCopy>(t));
    const RotaryAngles angles { static_cast<const float*>(cos.data()),
        static_cast<const float*>(sin.data()) };
    rotaryQkvForward(c.shape(), qkv.data(), angles, outputs[0]->data(), outputs[1]->data(),
        outputs[2]->data(), nullptr);
    rotaryQkvBackward(c.shape(), operand(c.dquery, dquery.data()),
        operand(c.dkey, dkeyStorage.data()), operand(c.dvalue, dvalue.data()), angles,
        outputs[3]->data(), nullptr);
    GPUPLAN_CUDA_CALL(cudaDeviceSynchronize());
    for (auto& o : outputs)
        o->copyBack();
    return inDouble(r);
}

void compare(const Result& got, const Result& expected, at::ScalarType type)
{
    compareWithReference(asList(got), asList(expected), kResultNames, rotaryKernelTolerance(type));
}

void addCases(bool large)
{
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("positions");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("headDim");
    QTest::addColumn<int>("rotaryDims");
    QTest::addColumn<c10::ScalarType>("type");
    QTest::addColumn<bool>("randomTables");
    const std::pair<const char*, at::ScalarType> types[]
        = { { "fp32", torch::kFloat }, { "fp16", torch::kHalf }, { "bf16", torch::kBFloat16 } };
    for (const auto& [name, type] : types) {
        // Pythia's quarter of each head rotated; 3 heads x 3 x 32 = 288 values: a block's
        // threads go round twice.
        QTest::addRow("%s 2x9, 3 heads of 32, 8 rotated", name)
            << 2 << 9 << 3 << 32 << 8 << type << false;
        // Every dimension rotated (Llama-like); fewer values than threads.
        QTest::addRow("%s 1x5, 2 heads of 16, all rotated", name)
            << 1 << 5 << 2 << 16 << 16 << type << false;
        if (large) // Pythia-160M's heads at a sixteenth of its micro-batch's tokens
            QTest::addRow("%s 4x2048, 12 heads of 64, 16 rotated", name)
                << 4 << 2048 << 12 << 64 << 16 << type << false;
    }
    // No rotation: a pure split.
    QTest::addRow("fp32 2x3, 2 heads of 8, none rotated")
        << 2 << 3 << 2 << 8 << 0 << torch::kFloat << false;
    // Tables whose halves differ: each term must take its own dimension's angle.
    QTest::addRow("fp32 2x4, 2 heads of 16, 8 rotated, random tables")
        << 2 << 4 << 2 << 16 << 8 << torch::kFloat << true;
}

Case fetchCase()
{
    QFETCH(int, batch);
    QFETCH(int, positions);
    QFETCH(int, heads);
    QFETCH(int, headDim);
    QFETCH(int, rotaryDims);
    QFETCH(c10::ScalarType, type);
    QFETCH(bool, randomTables);
    return makeCase(batch, positions, heads, headDim, rotaryDims, type, randomTables);
}

} // namespace

class TestBenchRotaryKernel : public QObject {
    Q_OBJECT

private slots:
    void emulatedKernelsMatchReference_data() { addCases(/*large=*/false); }
    void emulatedKernelsMatchReference()
    {
        const Case c = fetchCase();
        compare(runEmulated(c), reference(c), c.type);
    }

    void launcherRejectsOddRotaryDimensions()
    {
        RotaryShape s { 1, 2, 1, 8, 3, RotaryType::Float32 };
        try {
            rotaryQkvForward(s, nullptr, {}, nullptr, nullptr, nullptr, nullptr);
            QFAIL("an odd number of rotary dimensions was accepted");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(QString(e.what()),
                QString("rotary qkv: 3 rotary dimensions for heads of 8: they must be even and at "
                        "most the head's"));
        }
    }

    void gpuKernelsMatchReference_data() { addCases(/*large=*/true); }
    void gpuKernelsMatchReference()
    {
        QString why;
        if (!haveGpu(&why))
            QSKIP(qPrintable(why));
        const Case c = fetchCase();
        compare(runOnDevice(c), reference(c), c.type);
    }

    // rotaryQkv() on CUDA tensors goes through the autograd operation: the projection's output
    // as a Linear makes it, the gradients autograd hands back, one output left out of the loss.
    void autogradOperationOnGpu()
    {
        QString why;
        if (!rotaryQkvKernelCompiledIn())
            QSKIP("this LibTorch has no CUDA: the autograd operation runs LibTorch ops only");
        if (!haveGpu(&why) || !torch::cuda::is_available())
            QSKIP(qPrintable(why.isEmpty() ? "LibTorch sees no CUDA device" : why));
        const Case c = makeCase(2, 300, 4, 64, 16, torch::kBFloat16);
        const auto qkv = c.qkv.to(torch::kCUDA).requires_grad_(true);
        const RotaryTables tables { c.tables.cos.to(torch::kCUDA), c.tables.sin.to(torch::kCUDA) };
        const auto out = rotaryQkv(qkv, c.heads, tables);
        torch::autograd::backward(
            { out.query, out.value }, { c.dquery.to(torch::kCUDA), c.dvalue.to(torch::kCUDA) });
        Case withoutKey = c;
        withoutKey.dkey = torch::zeros_like(c.dquery);
        const Result expected = reference(withoutKey);
        const auto cpu = [](const torch::Tensor& t) { return t.detach().cpu().to(torch::kDouble); };
        compare({ cpu(out.query), cpu(out.key), cpu(out.value), cpu(qkv.grad()) }, expected,
            torch::kBFloat16);
    }
};

QTEST_GUILESS_MAIN(TestBenchRotaryKernel)
#include "tst_bench_rotary_kernel.moc"

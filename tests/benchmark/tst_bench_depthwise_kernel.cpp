// The depthwise convolution CUDA kernels (benchmark/kernels/depthwise_conv.h) against LibTorch's
// grouped convolution through autograd in fp64 on the same fp32 inputs: the output, the input
// gradient (the forward kernel with each filter turned) and the weight and bias gradients (the
// partial sums added over their groups), within a tolerance scaled by the largest reference
// value. Channels not a multiple of the block's 32 lanes, rows not a multiple of the 7-output
// strip, images smaller than the filter, fewer blocks than the work (the kernels' grid-stride
// loops), with and without a bias.
//
// The kernels run on the CPU (kernel_emulation.h: the weight gradient's slots meet at barriers)
// everywhere the CUDA headers are, so CI executes their indexing and reductions; and on the GPU
// through the autograd operation (depthwiseConvolution), skipped with the reason when there is
// none.

#include "kernel_emulation.h" // first: it defines what the CUDA headers then keep

#include "benchmark/kernels/depthwise_conv_kernels.cuh"

#include "cuda_test_support.h"

#include "benchmark/kernels/depthwise_conv.h"
#include "benchmark/kernels/depthwise_conv_op.h"

#include <QTest>

using namespace gpuplan::bench;
using namespace gpuplan::bench::kernels;
using namespace gpuplan::bench::testing;

namespace {

// fp32 sums of a few hundred products against fp64: well inside this, and a wrong tap or a
// missing row is off by the size of the values themselves.
constexpr double kTolerance = 2e-6;

struct Case {
    DepthwiseShape shape;
    bool withBias = true;
    torch::Tensor input, weight, bias, outputGradient; // fp32; input and gradient channels-last
    // fp64, from LibTorch's convolution through autograd
    torch::Tensor output, inputGradient, weightGradient, biasGradient;
};

Case makeCase(int batch, int channels, int height, int width, bool withBias = true)
{
    torch::manual_seed(53);
    Case c;
    c.shape = { batch, height, width, channels };
    c.withBias = withBias;
    c.input = torch::randn({ batch, channels, height, width })
                  .contiguous(at::MemoryFormat::ChannelsLast);
    c.weight = torch::randn({ channels, 1, kDepthwiseKernelSize, kDepthwiseKernelSize });
    c.bias = withBias ? torch::randn({ channels }) : torch::Tensor();
    c.outputGradient = torch::randn({ batch, channels, height, width })
                           .contiguous(at::MemoryFormat::ChannelsLast);
    const auto x = c.input.to(torch::kDouble).requires_grad_();
    const auto w = c.weight.to(torch::kDouble).requires_grad_();
    const auto b = withBias ? c.bias.to(torch::kDouble).requires_grad_() : torch::Tensor();
    c.output = depthwiseConvolutionReference(x, w, b);
    c.output.backward(c.outputGradient.to(torch::kDouble));
    c.output = c.output.detach();
    c.inputGradient = x.grad();
    c.weightGradient = w.grad();
    c.biasGradient = withBias ? b.grad() : torch::Tensor();
    return c;
}

const float* pointer(const torch::Tensor& t)
{
    return t.defined() ? t.data_ptr<float>() : nullptr;
}

// The forward kernel over `input` (channels-last fp32) on `gridRows` rows of blocks (0: as many
// as the launcher takes, one item per slot).
torch::Tensor emulateForward(const Case& c, const torch::Tensor& input, const torch::Tensor& bias,
    bool rotated, unsigned gridRows = 0)
{
    auto output = torch::full_like(input, std::nanf(""), at::MemoryFormat::ChannelsLast);
    const auto work
        = static_cast<std::int64_t>(c.shape.batch) * c.shape.height * depthwiseStrips(c.shape);
    const unsigned rows = gridRows
        ? gridRows
        : static_cast<unsigned>((work + kDepthwiseSlots - 1) / kDepthwiseSlots);
    const dim3 grid((c.shape.channels + kDepthwiseLanes - 1) / kDepthwiseLanes, rows);
    const auto taps = c.weight.reshape({ c.shape.channels, kDepthwiseTaps }).t().contiguous();
    emulation::launchIndependent(grid, kDepthwiseThreads, [&] {
        depthwiseForwardKernel(c.shape, pointer(input), pointer(taps), pointer(bias), rotated,
            output.data_ptr<float>());
    });
    return output;
}

// [50, channels]: the weight gradient kernel's partial sums over `groups` groups of rows, added.
torch::Tensor emulateWeightGradient(const Case& c, int groups)
{
    auto partials
        = torch::full({ groups, kDepthwisePartialsPerChannel, c.shape.channels }, std::nanf(""));
    const dim3 grid(
        (c.shape.channels + kDepthwiseLanes - 1) / kDepthwiseLanes, static_cast<unsigned>(groups));
    emulation::launch(grid, kDepthwiseThreads, [&] {
        depthwiseWeightGradientKernel(
            c.shape, pointer(c.input), pointer(c.outputGradient), partials.data_ptr<float>());
    });
    return partials.sum(0);
}

void addShapes()
{
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("channels");
    QTest::addColumn<int>("height");
    QTest::addColumn<int>("width");
    QTest::addColumn<bool>("withBias");
    QTest::newRow("40 channels (a block and 8 lanes), 9 x 11 (a strip and 4)")
        << 2 << 40 << 9 << 11 << true;
    QTest::newRow("32 channels, 3 x 3 (smaller than the filter)") << 3 << 32 << 3 << 3 << true;
    QTest::newRow("5 channels, 7 x 14 (two whole strips), no bias") << 1 << 5 << 7 << 14 << false;
}

} // namespace

class TestBenchDepthwiseKernel : public QObject {
    Q_OBJECT

private slots:
    void emulatedForwardMatchesFp64_data() { addShapes(); }
    void emulatedForwardMatchesFp64()
    {
        QFETCH(int, batch);
        QFETCH(int, channels);
        QFETCH(int, height);
        QFETCH(int, width);
        QFETCH(bool, withBias);
        const Case c = makeCase(batch, channels, height, width, withBias);
        const char* names[] = { "output" };
        compareWithReference({ emulateForward(c, c.input, c.bias, false).to(torch::kDouble) },
            { c.output }, names, kTolerance);
        // Two rows of blocks: each slot takes several strips in turn.
        compareWithReference({ emulateForward(c, c.input, c.bias, false, 2).to(torch::kDouble) },
            { c.output }, names, kTolerance);
    }

    void emulatedInputGradientMatchesFp64_data() { addShapes(); }
    void emulatedInputGradientMatchesFp64()
    {
        QFETCH(int, batch);
        QFETCH(int, channels);
        QFETCH(int, height);
        QFETCH(int, width);
        const Case c = makeCase(batch, channels, height, width);
        const char* names[] = { "input gradient" };
        compareWithReference({ emulateForward(c, c.outputGradient, {}, true).to(torch::kDouble) },
            { c.inputGradient }, names, kTolerance);
    }

    void emulatedWeightGradientMatchesFp64_data() { addShapes(); }
    void emulatedWeightGradientMatchesFp64()
    {
        QFETCH(int, batch);
        QFETCH(int, channels);
        QFETCH(int, height);
        QFETCH(int, width);
        QFETCH(bool, withBias);
        const Case c = makeCase(batch, channels, height, width, withBias);
        // One group, and three (whose rows interleave: each slot strides over them).
        for (const int groups : { 1, 3 }) {
            const auto sums = emulateWeightGradient(c, groups).to(torch::kDouble);
            const char* names[] = { "weight gradient", "bias gradient" };
            const auto bias
                = withBias ? c.biasGradient : c.outputGradient.to(torch::kDouble).sum({ 0, 2, 3 });
            compareWithReference(
                { sums.narrow(0, 0, kDepthwiseTaps).t().reshape(c.weightGradient.sizes()),
                    sums.select(0, kDepthwiseTaps) },
                { c.weightGradient, bias }, names, kTolerance);
        }
    }

    // The forward grid: about four waves of the blocks the GPU holds (an H100 with 132
    // multiprocessors, two blocks each), never more rows of blocks than there is work for.
    void forwardGridRows()
    {
        // ConvNeXt-XL's first stage at micro-batch 128: 256 channels (8 blocks), 57,344 strips.
        QCOMPARE(depthwiseForwardGridRows({ 128, 56, 56, 256 }, 264), 132);
        // Its last stage: 2,048 channels (64 blocks), 896 strips (work for 112 rows of blocks).
        QCOMPARE(depthwiseForwardGridRows({ 128, 7, 7, 2048 }, 264), 17);
        QCOMPARE(depthwiseForwardGridRows({ 1, 3, 3, 32 }, 264), 1); // 3 strips: one row
    }

    // The weight gradient's groups: one full wave of resident blocks, rounded down, at least one,
    // never more groups than rows of work.
    void weightGradientGroups()
    {
        QCOMPARE(depthwiseWeightGradientGroups({ 128, 56, 56, 256 }, 264), 33); // 8 x 33 = 264
        QCOMPARE(depthwiseWeightGradientGroups({ 128, 14, 14, 1024 }, 264), 8); // 32 x 8 = 256
        QCOMPARE(depthwiseWeightGradientGroups({ 128, 7, 7, 2048 }, 264), 4); // 64 x 4 = 256
        QCOMPARE(depthwiseWeightGradientGroups({ 1, 3, 3, 32 }, 264), 1); // 3 rows: one group
        QCOMPARE(depthwiseWeightGradientGroups({ 2, 40, 40, 4096 }, 0), 1);
    }

    void emptyShapesAreRefused()
    {
        QVERIFY_EXCEPTION_THROWN(depthwiseConvolution({ 0, 7, 7, 32 }, nullptr, nullptr, nullptr,
                                     false, nullptr, nullptr),
            std::invalid_argument);
        QVERIFY_EXCEPTION_THROWN(
            depthwiseWeightGradient({ 1, 7, 7, 32 }, nullptr, nullptr, 0, nullptr, nullptr),
            std::invalid_argument);
    }

    // Through the autograd node on the GPU (not the operation, whose timed choice may run cuDNN
    // at these shapes): the kernels' output and the three gradients.
    void operationOnTheGpu_data() { addShapes(); }
    void operationOnTheGpu()
    {
        QFETCH(int, batch);
        QFETCH(int, channels);
        QFETCH(int, height);
        QFETCH(int, width);
        QFETCH(bool, withBias);
        QString why;
        if (!depthwiseKernelCompiledIn())
            QSKIP("this build has no depthwise convolution CUDA kernels (a CPU-only LibTorch)");
        if (!haveGpu(&why) || !torch::cuda::is_available())
            QSKIP(qPrintable(why.isEmpty() ? QString("LibTorch sees no GPU") : why));
        const Case c = makeCase(batch, channels, height, width, withBias);
        const auto x = c.input.cuda().requires_grad_();
        const auto w = c.weight.cuda().requires_grad_();
        const auto b = withBias ? c.bias.cuda().requires_grad_() : torch::Tensor();
        const auto out = depthwiseConvolutionNode(x, w, b);
        QVERIFY(out.is_contiguous(at::MemoryFormat::ChannelsLast));
        out.backward(c.outputGradient.cuda());
        const char* names[] = { "output", "input gradient", "weight gradient" };
        compareWithReference(
            { out.detach().cpu().to(torch::kDouble), x.grad().cpu().to(torch::kDouble),
                w.grad().cpu().to(torch::kDouble) },
            { c.output, c.inputGradient, c.weightGradient }, names, kTolerance);
        if (withBias) {
            const char* biasName[] = { "bias gradient" };
            compareWithReference(
                { b.grad().cpu().to(torch::kDouble) }, { c.biasGradient }, biasName, kTolerance);
        }
    }
};

QTEST_GUILESS_MAIN(TestBenchDepthwiseKernel)
#include "tst_bench_depthwise_kernel.moc"

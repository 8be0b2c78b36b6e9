// The depthwise convolution's autograd node (benchmark/kernels/depthwise_conv_op.h) on the CPU in
// fp64, where its three parts run as LibTorch ops (the input gradient as the forward with each
// filter turned by 180 degrees, the weight gradient as 49 shifted products): output and
// gradients equal LibTorch's grouped convolution through autograd, channels-last and not, with
// and without a bias, and with the input's gradient not wanted. The kernels themselves are
// checked by tst_bench_depthwise_kernel; what is checked here is the node's arithmetic around
// them, which the GPU path shares.

#include "benchmark/kernels/depthwise_conv_op.h"

#include <QTest>

using namespace gpuplan::bench;

namespace {

struct Result {
    torch::Tensor output, inputGradient, weightGradient, biasGradient;
};

Result run(bool node, const torch::Tensor& input, const torch::Tensor& weight,
    const torch::Tensor& bias, const torch::Tensor& outputGradient, bool inputGradientWanted)
{
    const auto x = input.clone().requires_grad_(inputGradientWanted);
    const auto w = weight.clone().requires_grad_();
    const auto b = bias.defined() ? bias.clone().requires_grad_() : torch::Tensor();
    const auto out
        = node ? depthwiseConvolutionNode(x, w, b) : depthwiseConvolutionReference(x, w, b);
    out.backward(outputGradient);
    return { out.detach(), x.grad(), w.grad(), b.defined() ? b.grad() : torch::Tensor() };
}

void compare(const torch::Tensor& got, const torch::Tensor& want, const char* what)
{
    QCOMPARE(got.defined(), want.defined());
    if (!want.defined())
        return;
    QCOMPARE(got.sizes(), want.sizes());
    const double scale = want.abs().max().item<double>();
    const double error = (got - want).abs().max().item<double>();
    QVERIFY2(scale > 0.0 && error <= 1e-12 * scale,
        qPrintable(QString("%1: largest error %2 against largest value %3")
                       .arg(what)
                       .arg(error)
                       .arg(scale)));
}

} // namespace

class TestBenchDepthwiseConv : public QObject {
    Q_OBJECT

private slots:
    void nodeEqualsConvolution_data()
    {
        QTest::addColumn<bool>("channelsLast");
        QTest::addColumn<bool>("withBias");
        QTest::addColumn<bool>("inputGradientWanted");
        QTest::newRow("channels-last, bias") << true << true << true;
        QTest::newRow("NCHW, bias") << false << true << true;
        QTest::newRow("channels-last, no bias") << true << false << true;
        QTest::newRow("the input's gradient not wanted") << true << true << false;
    }
    void nodeEqualsConvolution()
    {
        QFETCH(bool, channelsLast);
        QFETCH(bool, withBias);
        QFETCH(bool, inputGradientWanted);
        torch::manual_seed(61);
        const auto format
            = channelsLast ? at::MemoryFormat::ChannelsLast : at::MemoryFormat::Contiguous;
        const auto options = torch::TensorOptions().dtype(torch::kDouble);
        // 5 x 9 images: smaller than the filter in one direction's reach, larger in the other.
        const auto input = torch::randn({ 2, 6, 5, 9 }, options).contiguous(format);
        const auto weight = torch::randn({ 6, 1, 7, 7 }, options);
        const auto bias = withBias ? torch::randn({ 6 }, options) : torch::Tensor();
        const auto outputGradient = torch::randn({ 2, 6, 5, 9 }, options).contiguous(format);
        const Result node = run(true, input, weight, bias, outputGradient, inputGradientWanted);
        const Result reference
            = run(false, input, weight, bias, outputGradient, inputGradientWanted);
        compare(node.output, reference.output, "output");
        compare(node.inputGradient, reference.inputGradient, "input gradient");
        compare(node.weightGradient, reference.weightGradient, "weight gradient");
        compare(node.biasGradient, reference.biasGradient, "bias gradient");
    }

    // The operation builds the node only where the kernels run: on a CPU it is LibTorch's
    // convolution (whose gradients the node's weight-gradient products would compute slowly).
    void operationOnTheCpuIsLibTorchs()
    {
        const auto x = torch::randn({ 1, 4, 8, 8 }).requires_grad_();
        const auto w = torch::randn({ 4, 1, 7, 7 }).requires_grad_();
        const auto viaOperation = depthwiseConvolution(x, w, {});
        const auto viaNode = depthwiseConvolutionNode(x, w, {});
        QVERIFY(!QString::fromStdString(viaOperation.grad_fn()->name()).contains("Depthwise"));
        QVERIFY2(QString::fromStdString(viaNode.grad_fn()->name()).contains("DepthwiseFunction"),
            viaNode.grad_fn()->name().c_str());
    }

    void otherShapesAreRefused()
    {
        const auto x = torch::randn({ 1, 4, 8, 8 });
        try {
            depthwiseConvolutionNode(x, torch::randn({ 4, 1, 5, 5 }), {});
            QFAIL("a 5 x 5 filter was taken");
        } catch (const c10::Error& e) {
            const QString message = QString::fromStdString(e.what_without_backtrace());
            QVERIFY2(message.contains("depthwise convolution: input [1, 4, 8, 8], weight [4, 1, 5, "
                                      "5], bias [4] (wanted [n, c, h, w], [c, 1, 7, 7], [c])"),
                qPrintable(message));
        }
    }
};

QTEST_GUILESS_MAIN(TestBenchDepthwiseConv)
#include "tst_bench_depthwise_conv.moc"

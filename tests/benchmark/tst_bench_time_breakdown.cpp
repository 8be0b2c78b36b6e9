// Where a step's time goes (benchmark/time_breakdown.h): kernel and operator names sorted into
// kinds of work, CPU operators charged their self time, a profiled block scaled to a whole
// step the way the timed step is, and the forms the summary shows it in.

#include "benchmark/time_breakdown.h"
#include "benchmark/time_breakdown_output.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <stdexcept>

using namespace gpuplan::bench;

Q_DECLARE_METATYPE(WorkKind)

namespace {

ProfiledEvent kernel(std::string name, std::int64_t startNs, std::int64_t durationNs)
{
    return { std::move(name), /*onCpu=*/false, 0, startNs, durationNs };
}

ProfiledEvent op(
    std::string name, std::uint64_t thread, std::int64_t startNs, std::int64_t durationNs)
{
    return { std::move(name), /*onCpu=*/true, thread, startNs, durationNs };
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
}

} // namespace

class TestBenchTimeBreakdown : public QObject {
    Q_OBJECT

private slots:
    // Names as CUPTI reports them on an H100 with LibTorch 2.x, and ATen's operator names.
    void kindsOfKernelsAndOperators_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<WorkKind>("kind");
        const auto row = [](const char* tag, const char* name, WorkKind kind) {
            QTest::newRow(tag) << QString(name) << kind;
        };
        row("cuBLAS nvjet", "nvjet_hsh_128x256_64x4_1x2_h_bz_coopA_NNT", WorkKind::MatrixProducts);
        row("cuBLAS sm90",
            "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_"
            "execute_segment_k_off_kernel__5x_cublas",
            WorkKind::MatrixProducts);
        row("cutlass gemm",
            "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>(Params)",
            WorkKind::MatrixProducts);
        row("cuDNN attention (says fprop)",
            "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_3_64x64x64_4x1x1_"
            "kernel0_0",
            WorkKind::Attention);
        row("memory-efficient attention",
            "fmha_cutlassF_f32_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<float,"
            " "
            "cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)",
            WorkKind::Attention);
        row("flash attention",
            "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<>()",
            WorkKind::Attention);
        row("cuDNN convolution (says gemm)",
            "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16_"
            "stage4_warpsize2x2x1_g1_tensor16x8x8_kernel",
            WorkKind::Convolution);
        row("depthwise convolution",
            "void at::native::conv_depthwise2d_forward_kernel<7, float, int>()",
            WorkKind::Convolution);
        row("cuDNN layout change",
            "void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true>()",
            WorkKind::CopiesAndCasts);
        row("our depthwise convolution kernel (a convolution)",
            "gpuplan::bench::kernels::(anonymous namespace)::depthwiseWeightGradientKernel("
            "gpuplan::bench::kernels::DepthwiseShape, const float *, const float *, float *)",
            WorkKind::Convolution);
        row("our rotary kernel",
            "void gpuplan::bench::kernels::rotaryQkvForwardKernel<__nv_bfloat16>(RotaryShape, ...)",
            WorkKind::OurKernels);
        row("our autograd node (not a kernel)",
            "torch::autograd::CppNode<gpuplan::bench::(anonymous namespace)::CheckpointFunction>",
            WorkKind::Framework);
        row("NCCL", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
            WorkKind::Communication);
        row("layer norm",
            "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>()",
            WorkKind::Normalization);
        row("layer norm weight gradients",
            "void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel_32x32<float, "
            "float>()",
            WorkKind::Normalization);
        row("softmax",
            "void cunn_SoftMaxForward<4, float, float, float, LogSoftMaxForwardEpilogue>()",
            WorkKind::SoftmaxAndLoss);
        row("copy kernel (an elementwise kernel)",
            "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::"
            "native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}>>(int)",
            WorkKind::CopiesAndCasts);
        row("fill kernel",
            "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>()",
            WorkKind::CopiesAndCasts);
        row("concatenation", "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float>()",
            WorkKind::CopiesAndCasts);
        row("device copy", "Memcpy DtoD (Device -> Device)", WorkKind::CopiesAndCasts);
        row("GELU",
            "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl()>()",
            WorkKind::Elementwise);
        row("add",
            "void at::native::vectorized_elementwise_kernel<4, "
            "at::native::CUDAFunctor_add<float>>()",
            WorkKind::Elementwise);
        row("index", "void at::native::index_elementwise_kernel<128, 4>()", WorkKind::Indexing);
        row("masked fill (not a fill)", "aten::masked_fill", WorkKind::Elementwise);
        row("masked fill kernel",
            "void at::native::elementwise_kernel<128, 4, masked_fill_kernel<float>>()",
            WorkKind::Elementwise);
        row("arange-like kernel (not indexing)",
            "void at::native::elementwise_kernel_with_index<int, arange_functor>()",
            WorkKind::Elementwise);
        row("sum",
            "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, sum_functor>>()",
            WorkKind::Reductions);
        row("fused Adam",
            "void at::native::multi_tensor_apply_kernel<FusedAdamMathFunctor<float, 4>>()",
            WorkKind::Optimizer);
        row("aten::addmm", "aten::addmm", WorkKind::MatrixProducts);
        row("aten::linear calls addmm", "aten::linear", WorkKind::Framework);
        row("aten::t is a view", "aten::t", WorkKind::Framework);
        row("aten::tanh is not aten::t", "aten::tanh", WorkKind::Elementwise);
        row("aten::expand is a view", "aten::expand", WorkKind::Framework);
        row("aten::exp is not aten::expand", "aten::exp", WorkKind::Elementwise);
        row("aten::gelu_backward", "aten::gelu_backward", WorkKind::Elementwise);
        row("aten::native_layer_norm", "aten::native_layer_norm", WorkKind::Normalization);
        row("aten::_log_softmax", "aten::_log_softmax", WorkKind::SoftmaxAndLoss);
        row("aten::embedding_dense_backward", "aten::embedding_dense_backward", WorkKind::Indexing);
        row("aten::copy_", "aten::copy_", WorkKind::CopiesAndCasts);
        row("autograd node", "autograd::engine::evaluate_function: AddmmBackward0",
            WorkKind::Framework);
        row("aten::convolution", "aten::convolution", WorkKind::Convolution);
        row("unknown", "some_kernel_nobody_named", WorkKind::Other);
    }
    void kindsOfKernelsAndOperators()
    {
        QFETCH(QString, name);
        QFETCH(WorkKind, kind);
        QCOMPARE(std::string(toString(kindOf(name.toStdString()))), std::string(toString(kind)));
    }

    // CPU operators nest per thread: each keeps what its direct children leave. Kernels do not
    // nest, even where they overlap (two streams).
    void selfTimesSubtractChildrenOnTheSameThreadOnly()
    {
        const std::vector<ProfiledEvent> events {
            op("parent", 1, 0, 100),
            op("child", 1, 10, 30),
            op("grandchild", 1, 15, 10),
            op("sibling", 1, 50, 40),
            op("other thread", 2, 20, 40),
            op("starts with the parent", 1, 0, 5),
            kernel("a", 0, 100),
            kernel("b", 20, 50),
        };
        const auto self = selfTimesNs(events);
        QCOMPARE(self[0], std::int64_t(100 - 30 - 40 - 5));
        QCOMPARE(self[1], std::int64_t(30 - 10));
        QCOMPARE(self[2], std::int64_t(10));
        QCOMPARE(self[3], std::int64_t(40));
        QCOMPARE(self[4], std::int64_t(40));
        QCOMPARE(self[5], std::int64_t(5));
        QCOMPARE(self[6], std::int64_t(100));
        QCOMPARE(self[7], std::int64_t(50));
    }

    // A block of 2 micro-steps stands for accumulation 8 / 2 = 4 times itself; everything the
    // optimizer step runs is the optimizer's, whatever its kernels are called.
    void blockScaledToAStepAndOptimizerKeptApart()
    {
        const std::vector<ProfiledEvent> block {
            kernel("nvjet_gemm_one", 0, 3'000'000),
            kernel("nvjet_gemm_one", 5'000'000, 3'000'000),
            kernel("vectorized_layer_norm_kernel", 3'000'000, 500'000),
            kernel("vectorized_elementwise_kernel<GeluCUDAKernelImpl>", 4'000'000, 250'000),
        };
        const std::vector<ProfiledEvent> optimizer {
            kernel("vectorized_elementwise_kernel<CUDAFunctor_add>", 0, 1'000'000),
        };
        const TimeBreakdown b = breakdownOf(block, 2, optimizer, 8, "CUDA kernels");
        QCOMPARE(b.source, std::string("CUDA kernels"));
        QCOMPARE(b.profiledMicroSteps, 2);
        // Per step: products 6 ms x 4, norm 0.5 x 4, GELU 0.25 x 4, optimizer 1 ms.
        QVERIFY(near(secondsOf(b, WorkKind::MatrixProducts), 0.024));
        QVERIFY(near(secondsOf(b, WorkKind::Normalization), 0.002));
        QVERIFY(near(secondsOf(b, WorkKind::Elementwise), 0.001));
        QVERIFY(near(secondsOf(b, WorkKind::Optimizer), 0.001));
        QVERIFY(near(secondsOf(b, WorkKind::Attention), 0.0));
        QVERIFY(near(b.profiledSeconds, 0.028));
        QCOMPARE(int(b.kinds.size()), 4);
        QVERIFY(b.kinds[0].kind == WorkKind::MatrixProducts);
        QVERIFY(near(b.kinds[0].share, 0.024 / 0.028));
        double shares = 0.0;
        for (const auto& k : b.kinds)
            shares += k.share;
        QVERIFY(near(shares, 1.0));
        QCOMPARE(b.top.front().name, std::string("nvjet_gemm_one"));
        QCOMPARE(b.top.front().calls, 2);
        QVERIFY(near(b.top.front().seconds, 0.024));
        // The optimizer's add is listed as the optimizer's, not as elementwise work.
        const auto add = std::find_if(b.top.begin(), b.top.end(),
            [](const EventTime& e) { return e.name.find("CUDAFunctor_add") != std::string::npos; });
        QVERIFY(add != b.top.end() && add->kind == WorkKind::Optimizer);
    }

    // Casts kept for the step: the first micro-step (with its casts) counts once, the block of
    // warm ones for the other accumulation - 1; scaled with a block it began, the casts had
    // counted accumulation / block times.
    void aFirstMicroStepApartCountsOnce()
    {
        const std::vector<ProfiledEvent> first {
            kernel("nvjet_gemm_one", 0, 3'000'000),
            kernel(
                "vectorized_elementwise_kernel<bfloat16_copy_kernel_cuda>", 3'000'000, 2'000'000),
        };
        const std::vector<ProfiledEvent> block {
            kernel("nvjet_gemm_one", 0, 3'000'000),
            kernel("nvjet_gemm_one", 4'000'000, 3'000'000),
        };
        const TimeBreakdown b = breakdownOf(block, 2, {}, 8, "CUDA kernels", &first);
        QCOMPARE(b.profiledMicroSteps, 3);
        // Products: 3 ms once, then 3 ms x 7 warm micro-steps; the cast's 2 ms once.
        QVERIFY(near(secondsOf(b, WorkKind::MatrixProducts), 0.024));
        QVERIFY(near(secondsOf(b, WorkKind::CopiesAndCasts), 0.002));
        QVERIFY(near(b.profiledSeconds, 0.026));
    }

    void longNamesAreShortenedAndTheTopIsBounded()
    {
        std::vector<ProfiledEvent> block;
        for (int i = 0; i < 15; ++i)
            block.push_back(kernel(std::string(200, char('a' + i)), i * 100, 10 + i));
        const TimeBreakdown b = breakdownOf(block, 1, {}, 1, "CUDA kernels");
        QCOMPARE(b.top.size(), kTopEvents);
        QCOMPARE(b.top.front().name.size(), kMaxEventName);
        QVERIFY(b.top.front().name.ends_with("..."));
        QCOMPARE(b.top.front().name.front(), 'o'); // the 15th, the longest
    }

    void aBlockNeedsAMicroStep()
    {
        QVERIFY_EXCEPTION_THROWN(breakdownOf({}, 0, {}, 4, "CPU"), std::invalid_argument);
        QVERIFY_EXCEPTION_THROWN(breakdownOf({}, 1, {}, 0, "CPU"), std::invalid_argument);
    }

    // 30% utilisation in a 10 s step whose products take 4 s and attention 1 s: that work alone
    // would give 60%.
    void computeOnlyCeiling()
    {
        const TimeBreakdown b = breakdownOf(
            { kernel("nvjet_x", 0, 4'000'000'000), kernel("fmha_cutlassF_f32", 0, 1'000'000'000),
                kernel("elementwise_kernel", 0, 3'000'000'000) },
            1, {}, 1, "CUDA kernels");
        QVERIFY(near(*computeOnlyUtilization(b, 10.0, 0.3), 0.6));
        QVERIFY(!computeOnlyUtilization(b, 10.0, std::nullopt));
        const TimeBreakdown none
            = breakdownOf({ kernel("elementwise_kernel", 0, 1) }, 1, {}, 1, "x");
        QVERIFY(!computeOnlyUtilization(none, 10.0, 0.3));
    }

    void textAndJson()
    {
        const TimeBreakdown b = breakdownOf(
            { kernel("nvjet_x", 0, 5'000'000'000), kernel("elementwise_kernel", 0, 3'000'000'000) },
            1, { kernel("multi_tensor_apply_kernel", 0, 2'000'000'000) }, 1, "CUDA kernels");
        const QString text = QString::fromStdString(timeBreakdownText(b, 10.0, 0.3));
        QVERIFY2(text.contains("time breakdown (CUDA kernels, 1 micro-step(s) profiled): 10.0000 s "
                               "of the 10.0000 s step"),
            qPrintable(text));
        QVERIFY2(text.contains("matrix products        5.0000 s   50.0%"), qPrintable(text));
        QVERIFY(text.contains("optimizer step         2.0000 s   20.0%"));
        QVERIFY(text.contains("with only its products, attention and convolutions the step "
                              "would reach 60.0% utilisation"));
        QVERIFY(text.contains("largest: 5.0000 s, 1x nvjet_x (matrix products)"));

        const auto json
            = QJsonDocument::fromJson(QByteArray::fromStdString(timeBreakdownJson(b, 10.0, 0.3)));
        QVERIFY(json.isObject());
        const QJsonObject o = json.object();
        QCOMPARE(o["source"].toString(), QString("CUDA kernels"));
        QCOMPARE(o["profiled_micro_steps"].toInt(), 1);
        QCOMPARE(o["profiled_seconds"].toDouble(), 10.0);
        QCOMPARE(o["compute_only_utilization"].toDouble(), 0.6);
        QCOMPARE(o["kinds"].toArray().size(), 3);
        QCOMPARE(o["kinds"].toArray()[0].toObject()["kind"].toString(), QString("matrix products"));
        QCOMPARE(o["top"].toArray()[2].toObject()["kind"].toString(), QString("optimizer step"));
    }
};

QTEST_GUILESS_MAIN(TestBenchTimeBreakdown)
#include "tst_bench_time_breakdown.moc"

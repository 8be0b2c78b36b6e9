// gpuplan-softmax-bench: times the chunked LM head's softmax-cross-entropy gradient on a GPU, as
// the free lunch runs it on a GPU (our kernel: softmax_xent.h) and as LibTorch ops
// (softmaxCrossEntropyGradientReference: log_softmax to fp32, exp, a scatter), on one chunk of
// logits (kLogitChunkElements: 1,334 rows of GPT-NeoX's 50,304-entry vocabulary), and states the
// kernel's roofline: two reads and one write of the logits over the GPU's memory bandwidth. Not a
// test: a measurement (docs/benchmark.md, "Our CUDA kernels").
//
//   gpuplan-softmax-bench [--vocabulary 50304] [--rows N] [--precision bf16|fp16|fp32]
//       [--warmup 3] [--repeats 10] [--device N]
//   gpuplan-softmax-bench --check [same options]
//
// --check runs the kernel against the fp64 function on the GPU at that shape instead (the GPU
// half of tests/benchmark/tst_bench_softmax_xent_kernel.cpp, for GPU machines without Qt).

#include "benchmark/cuda_backend.h"
#include "benchmark/kernels/kernel_bench_support.h"
#include "benchmark/kernels/softmax_xent_op.h"
#include "benchmark/models/lm_loss.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace {

using namespace gpuplan::bench;
using gpuplan::bench::Spread; // not gpuplan::Spread (core/limits.h)

struct Options : kernels::BenchOptions {
    Options() { precision = "fp16"; } // Pythia-160M's and 410M's recipe; 1B's is bf16
    std::int64_t vocabulary = 50304; // GPT-NeoX's (Pythia)
    std::int64_t rows = 0; // 0: one chunk of kLogitChunkElements
};

const char* const kUsage = "usage: gpuplan-softmax-bench [--check] [--vocabulary N] [--rows N] "
                           "[--precision bf16|fp16|fp32] [--warmup N] [--repeats N] [--device N]\n";

bool parse(int argc, char** argv, Options& o)
{
    const bool parsed = kernels::parseBenchOptions(
        argc, argv, o, [&](const std::string& flag, const std::string& value) {
            if (flag == "--vocabulary")
                o.vocabulary = std::stoll(value);
            else if (flag == "--rows")
                o.rows = std::stoll(value);
            else
                return false;
            return true;
        });
    return parsed && o.vocabulary > 0 && o.rows >= 0;
}

int check(const torch::Tensor& logits, const torch::Tensor& targets)
{
    auto wantGradient = logits.to(torch::kDouble);
    const auto wantPicked = softmaxCrossEntropyGradientReference(wantGradient, targets);
    auto gradient = logits.clone();
    const auto picked = softmaxCrossEntropyGradient(gradient, targets);
    std::printf("softmax cross-entropy kernel against fp64: %lld rows x %lld, %s\n",
        static_cast<long long>(logits.size(0)), static_cast<long long>(logits.size(1)),
        c10::toString(logits.scalar_type()));
    // The log-sum-exp's fp32 error is relative to the log-probabilities' size (about 10 here);
    // the gradient's to its largest entry (the targets' -1).
    const bool pickedOk
        = kernels::reportError("picked log-probabilities", picked, wantPicked, 1e-5);
    const bool gradientOk = kernels::reportError(
        "gradient", gradient, wantGradient, logits.scalar_type() == torch::kFloat ? 1e-5 : 1e-2);
    return pickedOk && gradientOk ? 0 : 1;
}

int run(const Options& o)
{
    kernels::requireDeviceAndKernels(
        o.device, softmaxXentKernelCompiledIn(), "softmax cross-entropy kernel");
    const torch::Device device(torch::kCUDA, static_cast<c10::DeviceIndex>(o.device));
    const std::int64_t rows
        = o.rows > 0 ? o.rows : std::max<std::int64_t>(1, kLogitChunkElements / o.vocabulary);
    torch::manual_seed(0);
    const auto logits
        = (torch::randn({ rows, o.vocabulary }, torch::TensorOptions().device(device)) * 3.0)
              .to(kernels::scalarTypeOf(o.precision));
    const auto targets = torch::randint(
        o.vocabulary, { rows }, torch::TensorOptions().device(device).dtype(torch::kLong));
    if (o.check)
        return check(logits, targets);
    // Each call works in place, so each starts from a fresh copy of the logits; the copy alone
    // is timed too and taken off.
    auto work = torch::empty_like(logits);
    const auto timed = [&](auto&& operation) {
        return kernels::timeOnDevice(o.device, o.warmup, o.repeats, [&] {
            work.copy_(logits);
            operation();
        });
    };
    const Spread copy = timed([] {});
    const Spread reference = timed([&] { softmaxCrossEntropyGradientReference(work, targets); });
    const Spread kernel = timed([&] { softmaxCrossEntropyGradient(work, targets); });
    const double bandwidth = kernels::memoryBandwidth(o.device);
    const double bytes
        = 3.0 * static_cast<double>(logits.numel()) * static_cast<double>(logits.element_size());
    const double roofline = bytes / bandwidth;
    const double referenceSeconds = reference.median - copy.median;
    const double kernelSeconds = kernel.median - copy.median;
    std::printf("softmax cross-entropy gradient on %s: %lld rows x %lld, %s (the copy of the "
                "logits before each call, %s, taken off)\n",
        cuda::describeDevice(o.device).name.c_str(), static_cast<long long>(rows),
        static_cast<long long>(o.vocabulary), o.precision.c_str(),
        kernels::millisecondsText(copy).c_str());
    std::printf("  reference (LibTorch ops)  %.3f ms\n", referenceSeconds * 1e3);
    std::printf("  our kernel                %.3f ms: %.2fx faster\n", kernelSeconds * 1e3,
        referenceSeconds / kernelSeconds);
    std::printf("  roofline                  %.3f ms (%.1f MB over %.0f GB/s): %.0f%% of it\n",
        roofline * 1e3, bytes / 1e6, bandwidth / 1e9, 100.0 * roofline / kernelSeconds);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    Options options;
    return gpuplan::bench::kernels::benchMain(
        "gpuplan-softmax-bench", kUsage, parse(argc, argv, options), [&] { return run(options); });
}

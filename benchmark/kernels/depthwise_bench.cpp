// gpuplan-depthwise-bench: times ConvNeXt's depthwise 7x7 convolution on a GPU at each stage of a
// shipped ConvNeXt (ConvNeXt-XL by default) at a micro-batch, forward and forward+backward, as
// the free lunch can run it (depthwiseConvolutionNode: our kernels on channels-last fp32), as
// LibTorch runs it channels-last (cuDNN, its autotuner on, TF32 allowed: the free lunch without
// `depthwise-kernel`) and in NCHW (LibTorch's own kernel: the naive baseline), and states the
// roofline: the bytes a pass must move (forward: the input read and the output written;
// backward: the output's gradient read twice, the input read and its gradient written) over the
// GPU's memory bandwidth. Not a test: a measurement (docs/benchmark.md, "Our CUDA kernels").
//
//   gpuplan-depthwise-bench [--model convnext-xlarge-22k] [--micro-batch 128] [--warmup 3]
//       [--repeats 10] [--device N]
//   gpuplan-depthwise-bench --check [same options]
//
// --check runs the operation against LibTorch's convolution in fp64 on the GPU at every stage
// instead (the GPU half of tests/benchmark/tst_bench_depthwise_kernel.cpp, for GPU machines
// without Qt). fp32 only: the kernels' one precision.

#include "benchmark/cuda_backend.h"
#include "benchmark/kernels/depthwise_conv_op.h"
#include "benchmark/kernels/kernel_bench_support.h"
#include "benchmark/model_selection.h"
#include "benchmark/model_spec.h"

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace {

using namespace gpuplan;
using namespace gpuplan::bench;
using gpuplan::bench::Spread; // not gpuplan::Spread (core/limits.h)

struct Options : kernels::BenchOptions {
    Options() { precision = "fp32"; }
    std::string model = "convnext-xlarge-22k";
    int microBatch = 128; // ConvNeXt-XL's free-lunch micro-batch on an 80 GB H100 (2026-11-26)
};

const char* const kUsage = "usage: gpuplan-depthwise-bench [--check] [--model convnext-...] "
                           "[--micro-batch N] [--warmup N] [--repeats N] [--device N]\n";

bool parse(int argc, char** argv, Options& o)
{
    const bool parsed = kernels::parseBenchOptions(
        argc, argv, o, [&](const std::string& flag, const std::string& value) {
            if (flag == "--model")
                o.model = value;
            else if (flag == "--micro-batch")
                o.microBatch = std::stoi(value);
            else
                return false;
            return true;
        });
    return parsed && o.microBatch > 0 && o.precision == "fp32";
}

struct Stage {
    torch::Tensor input, weight, bias, outputGradient; // fp32, input and gradient channels-last
};

// The input of each stage's blocks: after the 4x4 stem, then halved by each downsampling.
std::vector<Stage> stagesOf(const ModelSpec& spec, int microBatch, const torch::Device& device)
{
    torch::manual_seed(0);
    const auto options = torch::TensorOptions().device(device);
    std::vector<Stage> stages;
    int size = spec.imageSize / 4;
    for (const int channels : spec.stageDims) {
        Stage s;
        s.input = torch::randn({ microBatch, channels, size, size }, options)
                      .contiguous(at::MemoryFormat::ChannelsLast);
        s.weight = (torch::randn({ channels, 1, 7, 7 }, options) * 0.1).requires_grad_();
        s.bias = torch::randn({ channels }, options).requires_grad_();
        s.outputGradient = torch::randn_like(s.input).contiguous(at::MemoryFormat::ChannelsLast);
        s.input.requires_grad_();
        stages.push_back(s);
        size /= 2;
    }
    return stages;
}

std::string shapeText(const torch::Tensor& t)
{
    return std::to_string(t.size(0)) + "x" + std::to_string(t.size(1)) + "x"
        + std::to_string(t.size(2)) + "x" + std::to_string(t.size(3));
}

int check(const std::vector<Stage>& stages)
{
    bool ok = true;
    for (const Stage& s : stages) {
        // The node itself: the operation's timed choice might run cuDNN instead.
        const auto out = depthwiseConvolutionNode(s.input, s.weight, s.bias);
        const auto got
            = torch::autograd::grad({ out }, { s.input, s.weight, s.bias }, { s.outputGradient });
        const auto x = s.input.detach().to(torch::kDouble).requires_grad_();
        const auto w = s.weight.detach().to(torch::kDouble).requires_grad_();
        const auto b = s.bias.detach().to(torch::kDouble).requires_grad_();
        const auto want = depthwiseConvolutionReference(x, w, b);
        const auto wanted
            = torch::autograd::grad({ want }, { x, w, b }, { s.outputGradient.to(torch::kDouble) });
        std::printf(
            "depthwise convolution kernels against fp64 at %s:\n", shapeText(s.input).c_str());
        // fp32 sums of 49 products (forward, input gradient) and of a whole batch's (weight and
        // bias gradients): well inside 1e-5 of the largest value.
        ok = kernels::reportError("  output", out, want.detach(), 1e-5) && ok;
        const char* const names[] = { "  input gradient", "  weight gradient", "  bias gradient" };
        for (std::size_t i = 0; i < 3; ++i)
            ok = kernels::reportError(names[i], got[i], wanted[i], 1e-5) && ok;
    }
    return ok ? 0 : 1;
}

int run(const Options& o)
{
    kernels::requireDeviceAndKernels(
        o.device, depthwiseKernelCompiledIn(), "depthwise convolution kernels");
    const auto spec = shippedModelSpec(o.model);
    if (!spec || spec->architecture != Architecture::ConvNext) {
        std::cerr << "gpuplan-depthwise-bench: '" << o.model << "' is not a shipped ConvNeXt\n";
        return 2;
    }
    const torch::Device device(torch::kCUDA, static_cast<c10::DeviceIndex>(o.device));
    // The free lunch's settings for LibTorch's convolutions.
    at::globalContext().setBenchmarkCuDNN(true);
    at::globalContext().setAllowTF32CuDNN(true);
    const auto stages = stagesOf(*spec, o.microBatch, device);
    if (o.check)
        return check(stages);

    const double bandwidth = kernels::memoryBandwidth(o.device);
    std::printf("depthwise 7x7 convolution of %s on %s, fp32, micro-batch %d: forward | "
                "forward+backward, ms (median of %d)\n",
        o.model.c_str(), cuda::describeDevice(o.device).name.c_str(), o.microBatch, o.repeats);
    std::printf("%-18s %17s %17s %17s %17s\n", "input (NCHW sizes)", "ours", "cuDNN NHWC",
        "LibTorch NCHW", "roofline");
    enum class Path { Ours, LibTorchNhwc, LibTorchNchw };
    for (const Stage& s : stages) {
        const auto nchwInput = s.input.detach().contiguous().requires_grad_();
        const auto nchwGradient = s.outputGradient.contiguous();
        const auto time = [&](Path path, bool backward) {
            const auto& x = path == Path::LibTorchNchw ? nchwInput : s.input;
            const auto& g = path == Path::LibTorchNchw ? nchwGradient : s.outputGradient;
            return kernels::timeOnDevice(o.device, o.warmup, o.repeats, [&] {
                const auto out = path == Path::Ours
                    ? depthwiseConvolutionNode(x, s.weight, s.bias)
                    : depthwiseConvolutionReference(x, s.weight, s.bias);
                if (backward)
                    torch::autograd::grad({ out }, { x, s.weight, s.bias }, { g });
            });
        };
        const double bytes = static_cast<double>(s.input.numel()) * 4.0;
        char cells[3][32];
        for (int p = 0; p < 3; ++p) {
            const auto path = static_cast<Path>(p);
            std::snprintf(cells[p], sizeof cells[p], "%7.3f | %7.3f",
                time(path, false).median * 1e3, time(path, true).median * 1e3);
        }
        char roofline[32];
        std::snprintf(roofline, sizeof roofline, "%7.3f | %7.3f", 2.0 * bytes / bandwidth * 1e3,
            6.0 * bytes / bandwidth * 1e3);
        std::printf("%-18s %17s %17s %17s %17s\n", shapeText(s.input).c_str(), cells[0], cells[1],
            cells[2], roofline);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    Options options;
    return gpuplan::bench::kernels::benchMain("gpuplan-depthwise-bench", kUsage,
        parse(argc, argv, options), [&] { return run(options); });
}

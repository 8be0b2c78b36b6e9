// gpuplan-rotary-bench: times forward+backward of GPT-NeoX's query-key-value split with rotary
// embedding on a GPU, as the free lunch runs it (rotaryQkv: our CUDA kernels) and as the naive
// baseline does (rotaryQkvReference: views and LibTorch ops), at a Pythia model's heads and a
// micro-batch of its recipe's sequences, and states the roofline: the bytes the split must move
// (the projection's output read and q, k, v written forward; three gradients read and one
// written backward) over the GPU's memory bandwidth. Not a test: a measurement
// (docs/benchmark.md, "Our CUDA kernels").
//
//   gpuplan-rotary-bench [--model pythia-160m] [--micro-batch 64] [--precision bf16|fp16|fp32]
//       [--warmup 3] [--repeats 10] [--device N]
//   gpuplan-rotary-bench --check [same options]
//
// --check runs rotaryQkv against the fp64 reference on the GPU at that shape instead (the GPU
// half of tests/benchmark/tst_bench_rotary_kernel.cpp, for GPU machines without Qt).

#include "benchmark/cuda_backend.h"
#include "benchmark/device_info.h"
#include "benchmark/kernels/kernel_bench_support.h"
#include "benchmark/kernels/rotary_qkv_op.h"
#include "benchmark/model_selection.h"
#include "benchmark/model_spec.h"
#include "benchmark/recipe.h"

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace {

using namespace gpuplan;
using namespace gpuplan::bench;
using gpuplan::bench::Spread; // not gpuplan::Spread (core/limits.h)

struct Options : kernels::BenchOptions {
    std::string model = "pythia-160m";
    int microBatch = 64; // Pythia-160M's free-lunch micro-batch on an 80 GB H100 (2026-11-26)
};

const char* const kUsage
    = "usage: gpuplan-rotary-bench [--check] [--model pythia-160m|pythia-410m|pythia-1b|...] "
      "[--micro-batch N] [--precision bf16|fp16|fp32] [--warmup N] [--repeats N] [--device N]\n";

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
    return parsed && o.microBatch > 0;
}

struct Problem {
    torch::Tensor qkv; // [micro-batch, positions, heads x 3 x headDim], requires grad
    std::vector<torch::Tensor> gradients; // of query, key, value
    RotaryTables tables;
    int heads = 0;
};

Problem problemFor(const ModelSpec& spec, const Options& o, const torch::Device& device)
{
    torch::manual_seed(0);
    const auto typed
        = torch::TensorOptions().device(device).dtype(kernels::scalarTypeOf(o.precision));
    const std::int64_t positions = recipeFor(spec, *shippedCatalog(), {}).sequenceLength;
    const std::int64_t headDim = spec.headDim();
    Problem p;
    p.heads = spec.heads;
    p.qkv = torch::randn({ o.microBatch, positions, 3 * spec.hiddenSize }, typed).requires_grad_();
    for (int i = 0; i < 3; ++i)
        p.gradients.push_back(
            torch::randn({ o.microBatch, spec.heads, positions, headDim }, typed));
    p.tables
        = rotaryTables(static_cast<int>(positions), spec.rotaryDims(), spec.rotaryBase, device);
    return p;
}

int check(const Problem& p, const Options& o)
{
    const auto out = rotaryQkv(p.qkv, p.heads, p.tables).list();
    const auto dqkv = torch::autograd::grad(out, { p.qkv }, p.gradients).front();
    const auto exact = p.qkv.detach().to(torch::kDouble).requires_grad_();
    const RotaryTables exactTables { p.tables.cos.to(torch::kDouble),
        p.tables.sin.to(torch::kDouble) };
    const auto want = rotaryQkvReference(exact, p.heads, exactTables).list();
    std::vector<torch::Tensor> exactGradients;
    for (const auto& g : p.gradients)
        exactGradients.push_back(g.to(torch::kDouble));
    const auto wantDqkv = torch::autograd::grad(want, { exact }, exactGradients).front();
    std::printf("rotary qkv kernels against the fp64 reference: %s heads, micro-batch %d x %lld "
                "positions, %s\n",
        o.model.c_str(), o.microBatch, static_cast<long long>(p.qkv.size(1)), o.precision.c_str());
    const double limit = rotaryKernelTolerance(p.qkv.scalar_type());
    bool ok = true;
    const char* const names[] = { "query", "key", "value" };
    for (int i = 0; i < 3; ++i)
        ok = kernels::reportError(names[i], out[static_cast<std::size_t>(i)],
                 want[static_cast<std::size_t>(i)].detach(), limit)
            && ok;
    ok = kernels::reportError("dqkv", dqkv, wantDqkv, limit) && ok;
    return ok ? 0 : 1;
}

int run(const Options& o)
{
    kernels::requireDeviceAndKernels(o.device, rotaryQkvKernelCompiledIn(), "rotary kernels");
    const auto spec = shippedModelSpec(o.model);
    if (!spec || spec->architecture != Architecture::GptNeoX) {
        std::cerr << "gpuplan-rotary-bench: '" << o.model << "' is not a shipped GPT-NeoX model\n";
        return 2;
    }
    const torch::Device device(torch::kCUDA, static_cast<c10::DeviceIndex>(o.device));
    const Problem p = problemFor(*spec, o, device);
    if (o.check)
        return check(p, o);
    DeviceInfo info = cuda::describeDevice(o.device);
    const auto forwardBackward = [&](bool fused) {
        return [&, fused] {
            const auto out = fused ? rotaryQkv(p.qkv, p.heads, p.tables)
                                   : rotaryQkvReference(p.qkv, p.heads, p.tables);
            torch::autograd::grad(out.list(), { p.qkv }, p.gradients);
        };
    };
    const Spread reference
        = kernels::timeOnDevice(o.device, o.warmup, o.repeats, forwardBackward(false));
    const Spread fused
        = kernels::timeOnDevice(o.device, o.warmup, o.repeats, forwardBackward(true));
    const double bandwidth = kernels::memoryBandwidth(o.device);
    // Forward: qkv read, q, k, v written; backward: their gradients read, qkv's written.
    const double bytes
        = 4.0 * static_cast<double>(p.qkv.numel()) * static_cast<double>(p.qkv.element_size());
    const double roofline = bytes / bandwidth;
    std::printf("%s query-key-value split with rotary embedding on %s: micro-batch %d x %lld "
                "positions, %d heads, %s\n",
        o.model.c_str(), info.name.c_str(), o.microBatch, static_cast<long long>(p.qkv.size(1)),
        p.heads, o.precision.c_str());
    std::printf("  reference (LibTorch ops) forward+backward  %s\n",
        kernels::millisecondsText(reference).c_str());
    std::printf("  our kernels forward+backward               %s: %.2fx faster\n",
        kernels::millisecondsText(fused).c_str(), reference.median / fused.median);
    std::printf("  roofline                                   %.3f ms (%.1f MB over %.0f GB/s): "
                "%.0f%% of it\n",
        roofline * 1e3, bytes / 1e6, bandwidth / 1e9, 100.0 * roofline / fused.median);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    Options options;
    return gpuplan::bench::kernels::benchMain(
        "gpuplan-rotary-bench", kUsage, parse(argc, argv, options), [&] { return run(options); });
}

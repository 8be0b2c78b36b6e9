// gpuplan-scan-bench: times forward+backward of one Mamba-2.8B block and of its selective scan
// alone on a GPU, with our kernel (or, --scan reference, the LibTorch reference), and states the
// scan's roofline: the bytes it must move over the GPU's memory bandwidth. Not a test: a
// measurement, which benchmark/scripts/compare_mamba_ssm.py sets beside the reference package's
// fused kernel on the same GPU (docs/benchmark.md, "Mamba's selective scan").
//
//   gpuplan-scan-bench [--batch 1] [--seq-len 4096] [--precision bf16|fp16|fp32]
//       [--scan kernel|reference] [--warmup 3] [--repeats 10] [--device N] [--format table|json]
//   gpuplan-scan-bench --check [--batch 1] [--seq-len 4096] [--precision bf16|fp16|fp32]
//
// --check runs the kernel against the fp64 reference on the GPU at these shapes instead (the
// GPU half of tests/benchmark/tst_bench_scan_kernel.cpp, for GPU machines without Qt).

#include "benchmark/cuda_backend.h"
#include "benchmark/device_info.h"
#include "benchmark/json_text.h"
#include "benchmark/kernels/cuda_check.h"
#include "benchmark/kernels/kernel_bench_support.h"
#include "benchmark/kernels/selective_scan.h"
#include "benchmark/kernels/selective_scan_op.h"
#include "benchmark/model_selection.h"
#include "benchmark/model_spec.h"
#include "benchmark/models/mamba.h"
#include "benchmark/statistics.h"
#include "benchmark/torch_compat.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

namespace {

using namespace gpuplan;
using namespace gpuplan::bench;
using gpuplan::bench::Spread; // not gpuplan::Spread (core/limits.h)

struct Options : kernels::BenchOptions {
    int batch = 1; // Mamba-2.8B's micro-batch on one 80 GB GPU at 4096 tokens
    int length = 4096; // the paper's recipe
    bool kernel = true;
    bool json = false;
};

const char* const kUsage = "usage: gpuplan-scan-bench [--check] [--batch N] [--seq-len N] "
                           "[--precision bf16|fp16|fp32] [--scan kernel|reference] [--warmup N] "
                           "[--repeats N] [--device N] [--format table|json]\n";

bool parse(int argc, char** argv, Options& o)
{
    const bool parsed = kernels::parseBenchOptions(
        argc, argv, o, [&](const std::string& flag, const std::string& value) {
            if (flag == "--batch")
                o.batch = std::stoi(value);
            else if (flag == "--seq-len")
                o.length = std::stoi(value);
            else if (flag == "--scan" && (value == "kernel" || value == "reference"))
                o.kernel = value == "kernel";
            else if (flag == "--format" && (value == "table" || value == "json"))
                o.json = value == "json";
            else
                return false;
            return true;
        });
    return parsed && o.batch > 0 && o.length > 1;
}

// The least the scan's forward and backward must move through memory: every input and output
// once per pass, the stored states written once and read once, dB and dC added once in fp32.
double scanBytes(const ModelSpec& s, const Options& o, double elementBytes)
{
    const double positions = static_cast<double>(o.batch) * o.length;
    const double d = static_cast<double>(s.intermediateSize), n = s.stateSize;
    const double perChannel = (4.0 /*fwd: u, delta, z, out*/
                                  + 7.0 /*bwd: u, delta, z, dout,
        du, ddelta, dz*/)
        * positions * d * elementBytes;
    const double perState = 4.0 /*B, C in each pass*/ * positions * n * elementBytes
        + 2.0 /*dB, dC*/ * positions * n * sizeof(float);
    const double states = 2.0 * o.batch * kernels::scanChunks(o.length) * d * n * sizeof(float);
    return perChannel + perState + states;
}

ScanInputs scanInputs(const ModelSpec& s, const Options& o, const torch::Device& device)
{
    const auto typed
        = torch::TensorOptions().device(device).dtype(kernels::scalarTypeOf(o.precision));
    const auto fp32 = torch::TensorOptions().device(device).dtype(torch::kFloat);
    const std::int64_t b = o.batch, l = o.length, d = s.intermediateSize, n = s.stateSize;
    ScanInputs in;
    in.u = torch::randn({ b, l, d }, typed).requires_grad_();
    in.delta = (torch::randn({ b, l, d }, typed) - 4.0).requires_grad_(); // steps ~0.02
    in.A = (-torch::arange(1, n + 1, fp32).expand({ d, n }).contiguous()).requires_grad_();
    in.B = torch::randn({ b, l, n }, typed).requires_grad_();
    in.C = torch::randn({ b, l, n }, typed).requires_grad_();
    in.D = torch::ones({ d }, fp32).requires_grad_();
    in.z = torch::randn({ b, l, d }, typed).requires_grad_();
    in.deltaBias = torch::zeros({ d }, fp32).requires_grad_();
    return in;
}

// Four unit roundoffs of the type the outputs and gradients are stored in, at least 1e-5 (as
// tst_bench_scan_kernel), relative to the reference's largest magnitude.
double tolerance(at::ScalarType type)
{
    return type == torch::kFloat ? 1e-5 : type == torch::kHalf ? 4.0 / 2048 : 4.0 / 256;
}

// The kernel (through its autograd wrapper) against the reference in fp64, both on the GPU.
int check(const ModelSpec& spec, const Options& o, const torch::Device& device)
{
    ScanInputs in = scanInputs(spec, o, device);
    const auto gradOut = torch::randn_like(in.u);
    const auto result = selectiveScan(in);
    result.backward(gradOut);
    const auto out = result.detach();
    const auto inputs = { &in.u, &in.delta, &in.A, &in.B, &in.C, &in.D, &in.z, &in.deltaBias };
    ScanInputs exact = in;
    const auto exactInputs = { &exact.u, &exact.delta, &exact.A, &exact.B, &exact.C, &exact.D,
        &exact.z, &exact.deltaBias };
    for (auto* t : exactInputs)
        *t = t->detach().to(torch::kDouble).requires_grad_();
    const auto reference = selectiveScanReference(exact);
    reference.backward(gradOut.to(torch::kDouble));

    const double limit = tolerance(kernels::scalarTypeOf(o.precision));
    bool ok = true;
    const auto report = [&](const char* name, const torch::Tensor& got, const torch::Tensor& want) {
        ok = kernels::reportError(name, got, want, limit) && ok;
    };
    std::printf("selective scan kernel against the fp64 reference: batch %d x %d positions x %lld "
                "channels x %d states, %s\n",
        o.batch, o.length, static_cast<long long>(spec.intermediateSize), spec.stateSize,
        o.precision.c_str());
    report("out", out, reference.detach());
    const char* const names[] = { "du", "ddelta", "dA", "dB", "dC", "dD", "dz", "ddeltaBias" };
    auto exactIt = exactInputs.begin();
    int i = 0;
    for (auto* t : inputs)
        report(names[i++], t->grad(), (*exactIt++)->grad());
    return ok ? 0 : 1;
}

std::string spreadMs(const Spread& s)
{
    return "{\"median\": " + json::number(s.median * 1e3) + ", \"min\": "
        + json::number(s.min * 1e3) + ", \"max\": " + json::number(s.max * 1e3) + "}";
}

int run(const Options& o)
{
    kernels::requireDeviceAndKernels(
        o.device, !o.kernel || selectiveScanKernelCompiledIn(), "selective-scan kernel");
    const ModelSpec spec = *shippedModelSpec("mamba-2.8b");
    const torch::Device device(torch::kCUDA, static_cast<c10::DeviceIndex>(o.device));
    if (o.check)
        return check(spec, o, device);
    DeviceInfo info = cuda::describeDevice(o.device);
    attachGpuTableEntry(info, *shippedCatalog());
    const auto precision = *precisionFromString(o.precision);
    const double elementBytes = o.precision == "fp32" ? 4.0 : 2.0;
    const compat::AutocastState autocast { o.precision != "fp32",
        kernels::scalarTypeOf(o.precision) };

    // The block as the model trains it: fp32 weights, autocast to the recipe's precision.
    torch::manual_seed(0);
    auto block = std::make_shared<MambaBlock>(spec);
    block->to(device);
    const auto hidden = torch::randn(
        { o.batch, o.length, spec.hiddenSize }, torch::TensorOptions().device(device))
                            .requires_grad_();
    const auto gradOut = torch::randn_like(hidden);
    ScanInputs scan = scanInputs(spec, o, device);
    const auto scanGrad = torch::randn_like(scan.u);
    block->setFusedScan(o.kernel);
    const Spread blockTime = kernels::timeOnDevice(o.device, o.warmup, o.repeats, [&] {
        const compat::AutocastScope scope(c10::DeviceType::CUDA, autocast);
        block->forwardBlock(hidden).backward(gradOut);
    });
    const Spread scanTime = kernels::timeOnDevice(o.device, o.warmup, o.repeats, [&] {
        (o.kernel ? selectiveScan(scan) : selectiveScanReference(scan)).backward(scanGrad);
    });

    const double bandwidth = kernels::memoryBandwidth(o.device);
    const double bytes = scanBytes(spec, o, elementBytes);
    const double positions = static_cast<double>(o.batch) * o.length;
    // The block's products (6 FLOPs per weight and position), the head excluded.
    const double blockFlops = (trainingFlopsPerSample(spec, o.length + 1) / positions
                                  - 6.0 * spec.vocabSize * static_cast<double>(spec.hiddenSize))
        / spec.layers * positions;
    const auto peak = info.peakFor(precision);
    const double scanRoofline = bytes / bandwidth;
    const double blockRoofline = peak ? blockFlops / (*peak * 1e12) + scanRoofline : 0.0;

    if (o.json) {
        std::cout << "{\"device\": " << json::quote(info.name) << ", \"batch\": " << o.batch
                  << ", \"seq_len\": " << o.length
                  << ", \"precision\": " << json::quote(o.precision)
                  << ", \"scan\": " << json::quote(o.kernel ? "kernel" : "reference")
                  << ", \"block_ms\": " << spreadMs(blockTime)
                  << ", \"scan_ms\": " << spreadMs(scanTime)
                  << ", \"scan_bytes\": " << json::number(bytes)
                  << ", \"memory_bandwidth_gbs\": " << json::number(bandwidth / 1e9)
                  << ", \"scan_roofline_ms\": " << json::number(scanRoofline * 1e3)
                  << ", \"block_flops\": " << json::number(blockFlops)
                  << ", \"peak_tflops\": " << (peak ? json::number(*peak) : "null")
                  << ", \"block_roofline_ms\": "
                  << (peak ? json::number(blockRoofline * 1e3) : "null") << "}\n";
        return 0;
    }
    std::printf("Mamba-2.8B block on %s: batch %d x %d positions, %s, scan: %s\n",
        info.name.c_str(), o.batch, o.length, o.precision.c_str(),
        o.kernel ? "our kernel" : "LibTorch reference");
    std::printf("  block forward+backward  %s\n", kernels::millisecondsText(blockTime).c_str());
    std::printf("  scan forward+backward   %s\n", kernels::millisecondsText(scanTime).c_str());
    std::printf("  scan roofline           %.3f ms (%.1f MB over %.0f GB/s): %.0f%% of it\n",
        scanRoofline * 1e3, bytes / 1e6, bandwidth / 1e9, 100.0 * scanRoofline / scanTime.median);
    if (peak)
        std::printf("  block roofline          %.3f ms (%.3g FLOPs at %.0f TFLOP/s + the scan's "
                    "bytes): %.0f%% of it\n",
            blockRoofline * 1e3, blockFlops, *peak, 100.0 * blockRoofline / blockTime.median);
    else
        std::printf("  block roofline          no peak known for this GPU\n");
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    Options options;
    return gpuplan::bench::kernels::benchMain(
        "gpuplan-scan-bench", kUsage, parse(argc, argv, options), [&] { return run(options); });
}

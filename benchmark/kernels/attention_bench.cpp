// gpuplan-attention-bench: times ViT-L's attention forward and backward on a GPU in fp32 with
// TF32 products allowed, as the free lunch can run it: our short-sequence kernels
// (short_attention.h), the spelled-out products (TF32 matmuls, the scores through device memory)
// and LibTorch's fused kernel (scaled_dot_product_attention, fp32 exact), on q, k and v as the
// strided views of a fused qkv projection, as the model hands them over. States each one's rate
// in TFLOP/s of the 12 b h n^2 d floating-point operations of attention's two products forward
// and four backward. Not a test: a measurement (docs/benchmark.md, "Our CUDA kernels").
//
//   gpuplan-attention-bench [--micro-batch 256] [--heads 16] [--positions 197] [--warmup 3]
//       [--repeats 10] [--device N]
//   gpuplan-attention-bench --check [same options]
//
// --check runs our kernels against attention in fp64 on the GPU at that shape instead (the GPU
// half of tests/benchmark/tst_bench_short_attention_kernel.cpp, for GPU machines without Qt).

#include "benchmark/cuda_backend.h"
#include "benchmark/kernels/kernel_bench_support.h"
#include "benchmark/kernels/short_attention_op.h"
#include "benchmark/models/attention.h"
#include "benchmark/timed_choice.h"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace gpuplan::bench;
using gpuplan::bench::Spread; // not gpuplan::Spread (core/limits.h)

constexpr std::int64_t kHeadSize = 64;

struct Options : kernels::BenchOptions {
    Options() { precision = "fp32"; } // ViT-L's recipe
    std::int64_t microBatch = 256; // the free lunch's on an H200 (2026-12-04)
    std::int64_t heads = 16;
    std::int64_t positions = 197; // 14 x 14 patches and the class token
};

const char* const kUsage
    = "usage: gpuplan-attention-bench [--check] [--micro-batch N] [--heads N] [--positions N] "
      "[--warmup N] [--repeats N] [--device N]\n";

bool parse(int argc, char** argv, Options& o)
{
    const bool parsed = kernels::parseBenchOptions(
        argc, argv, o, [&](const std::string& flag, const std::string& value) {
            if (flag == "--micro-batch")
                o.microBatch = std::stoll(value);
            else if (flag == "--heads")
                o.heads = std::stoll(value);
            else if (flag == "--positions")
                o.positions = std::stoll(value);
            else
                return false;
            return true;
        });
    return parsed && o.microBatch > 0 && o.heads > 0 && o.positions > 0;
}

struct Inputs {
    torch::Tensor q, k, v, dout;
};

// q, k, v [batch, heads, positions, 64] as views of one [batch, positions, 3, heads, 64] tensor
// (ViT's qkv projection), leaves with gradients on; dout contiguous.
Inputs makeInputs(const Options& o, const torch::Device& device)
{
    torch::manual_seed(0);
    const auto on = torch::TensorOptions().device(device);
    const auto qkv = torch::randn({ o.microBatch, o.positions, 3, o.heads, kHeadSize }, on);
    const auto head = [&](int i) {
        return qkv.select(2, i).permute({ 0, 2, 1, 3 }).detach().requires_grad_();
    };
    return { head(0), head(1), head(2),
        torch::randn({ o.microBatch, o.heads, o.positions, kHeadSize }, on) };
}

using Attention = std::function<torch::Tensor(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v)>;

// The output and the gradients of q, k and v.
std::vector<torch::Tensor> forwardBackward(const Inputs& in, const Attention& attention)
{
    auto out = attention(in.q, in.k, in.v);
    auto grads = torch::autograd::grad({ out }, { in.q, in.k, in.v }, { in.dout });
    grads.insert(grads.begin(), out.detach());
    return grads;
}

int check(const Inputs& in)
{
    const Inputs wide { in.q.detach().to(torch::kDouble).requires_grad_(),
        in.k.detach().to(torch::kDouble).requires_grad_(),
        in.v.detach().to(torch::kDouble).requires_grad_(), in.dout.to(torch::kDouble) };
    const auto want = forwardBackward(wide, [](const auto& q, const auto& k, const auto& v) {
        return attendExplicit(q, k, v, /*causal=*/false);
    });
    const auto got = forwardBackward(in, shortAttention);
    std::printf("short attention kernels against fp64: %s\n", sizesText(in.q.sizes()).c_str());
    // TF32's 11 significant bits: tst_bench_short_attention_kernel's bound.
    bool ok = true;
    const char* names[] = { "output", "dq", "dk", "dv" };
    for (std::size_t i = 0; i < got.size(); ++i)
        ok = kernels::reportError(names[i], got[i], want[i], 3e-3) && ok;
    return ok ? 0 : 1;
}

int run(const Options& o)
{
    kernels::requireDeviceAndKernels(
        o.device, shortAttentionKernelCompiledIn(), "short attention kernels");
    const torch::Device device(torch::kCUDA, static_cast<c10::DeviceIndex>(o.device));
    at::globalContext().setAllowTF32CuBLAS(true); // the free lunch's setting
    const Inputs in = makeInputs(o, device);
    if (!shortAttentionOffered(in.q, in.k, in.v, /*causal=*/false))
        throw std::runtime_error("our kernels do not take " + sizesText(in.q.sizes())
            + " on this GPU (head size 64, at most 256 positions, compute capability 8 or later)");
    if (o.check)
        return check(in);
    const auto timed = [&](const Attention& attention) {
        return kernels::timeOnDevice(
            o.device, o.warmup, o.repeats, [&] { forwardBackward(in, attention); });
    };
    const Spread ours = timed(shortAttention);
    const Spread spelledOut = timed([](const auto& q, const auto& k, const auto& v) {
        return attendExplicit(q, k, v, /*causal=*/false);
    });
    const Spread fused = timed([](const auto& q, const auto& k, const auto& v) {
        return attendFused(q, k, v, /*causal=*/false);
    });
    const double flops = 12.0 * static_cast<double>(o.microBatch * o.heads)
        * static_cast<double>(o.positions) * static_cast<double>(o.positions) * kHeadSize;
    std::printf("attention forward+backward on %s: %s fp32, TF32 products allowed, %.1f GFLOP\n",
        cuda::describeDevice(o.device).name.c_str(), sizesText(in.q.sizes()).c_str(), flops / 1e9);
    const auto line = [&](const char* name, const Spread& s) {
        std::printf("  %-34s %s  %6.1f TFLOP/s  %.2fx ours\n", name,
            kernels::millisecondsText(s).c_str(), flops / s.median / 1e12, s.median / ours.median);
    };
    line("our kernels", ours);
    line("spelled-out products (TF32)", spelledOut);
    line("fused kernel (LibTorch's pick)", fused);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    Options options;
    return gpuplan::bench::kernels::benchMain("gpuplan-attention-bench", kUsage,
        parse(argc, argv, options), [&] { return run(options); });
}

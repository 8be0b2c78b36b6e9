#pragma once

// What the kernel benchmarks (gpuplan-scan-bench, -rotary-bench, -softmax-bench, -depthwise-bench)
// share: their common options and main(), timing work on a GPU with CUDA events, the GPU's
// memory bandwidth for a roofline, the precision names, and the check of a result against an
// fp64 reference.

#include "benchmark/statistics.h"

#include <torch/torch.h>

#include <functional>
#include <string>

namespace gpuplan::bench::kernels {

// The options every kernel benchmark takes: --check, --precision bf16|fp16|fp32, --warmup N,
// --repeats N, --device N. A benchmark's own options derive from it.
struct BenchOptions {
    std::string precision = "bf16";
    int warmup = 3;
    int repeats = 10;
    int device = 0;
    bool check = false;
};

// One of a benchmark's own options, "--flag value": false for a flag it does not know or a value
// it does not take (a number that does not parse may also throw).
using OwnOption = std::function<bool(const std::string& flag, const std::string& value)>;

// The command line into `common` and, for every other flag, `own`. False on a usage error: an
// unknown flag, a missing or bad value, a negative count.
bool parseBenchOptions(int argc, char** argv, BenchOptions& common, const OwnOption& own);

// main()'s body: `usage` on stderr and exit code 2 unless `parsed`; else run(), an exception's
// message prefixed with the program's name and exit code 1.
int benchMain(const char* program, const char* usage, bool parsed, const std::function<int()>& run);

// Throws (benchMain reports it, exit code 1) unless CUDA device `device` exists and this build
// compiled in the kernels the benchmark times (`compiledIn`), named by `kernels` in the message.
void requireDeviceAndKernels(int device, bool compiledIn, const char* kernels);

// Seconds per call of `work` on `device`: `warmup` discarded calls, then one CUDA-event interval
// per call for `repeats` calls.
Spread timeOnDevice(int device, int warmup, int repeats, const std::function<void()>& work);

// Peak memory bandwidth (bytes/s) from the device's memory clock and bus width (double data
// rate).
double memoryBandwidth(int device);

// "bf16" / "fp16" / anything else (fp32).
at::ScalarType scalarTypeOf(const std::string& precision);

// "0.412 ms (min 0.401, max 0.430)".
std::string millisecondsText(const Spread& s);

// Prints `name`'s largest error against the fp64 `want`, relative to want's largest magnitude,
// and whether it is within `limit`; returns that.
bool reportError(
    const char* name, const torch::Tensor& got, const torch::Tensor& want, double limit);

} // namespace gpuplan::bench::kernels

#pragma once

// What the kernel benchmarks (gpuplan-scan-bench, gpuplan-rotary-bench) share: timing work on a
// GPU with CUDA events, the GPU's memory bandwidth for a roofline, the precision names, and
// the check of a result against an fp64 reference.

#include "benchmark/statistics.h"

#include <torch/torch.h>

#include <functional>
#include <string>

namespace gpuplan::bench::kernels {

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

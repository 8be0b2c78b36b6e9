#include "benchmark/kernels/kernel_bench_support.h"

#include "benchmark/cuda_backend.h"
#include "benchmark/kernels/cuda_check.h"

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuplan::bench::kernels {

bool parseBenchOptions(int argc, char** argv, BenchOptions& common, const OwnOption& own)
{
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--check") {
            common.check = true;
            continue;
        }
        if (i + 1 >= argc)
            return false;
        const std::string value = argv[++i];
        try {
            if (flag == "--precision" && (value == "bf16" || value == "fp16" || value == "fp32"))
                common.precision = value;
            else if (flag == "--warmup")
                common.warmup = std::stoi(value);
            else if (flag == "--repeats")
                common.repeats = std::stoi(value);
            else if (flag == "--device")
                common.device = std::stoi(value);
            else if (!own(flag, value))
                return false;
        } catch (const std::exception&) {
            return false;
        }
    }
    return common.repeats > 0 && common.warmup >= 0 && common.device >= 0;
}

int benchMain(const char* program, const char* usage, bool parsed, const std::function<int()>& run)
{
    if (!parsed) {
        std::cerr << usage;
        return 2;
    }
    try {
        return run();
    } catch (const std::exception& e) {
        std::cerr << program << ": " << e.what() << "\n";
        return 1;
    }
}

void requireDeviceAndKernels(int device, bool compiledIn, const char* kernels)
{
    if (cuda::deviceCount() <= device)
        throw std::runtime_error("no CUDA device " + std::to_string(device));
    if (!compiledIn)
        throw std::runtime_error(std::string("this build has no ") + kernels);
}

Spread timeOnDevice(int device, int warmup, int repeats, const std::function<void()>& work)
{
    for (int i = 0; i < warmup; ++i)
        work();
    std::vector<double> seconds;
    for (int i = 0; i < repeats; ++i)
        seconds.push_back(cuda::timeWithEvents(device, work));
    return spreadOf(seconds);
}

double memoryBandwidth(int device)
{
    int clockKhz = 0, busBits = 0;
    GPUPLAN_CUDA_CALL(cudaDeviceGetAttribute(&clockKhz, cudaDevAttrMemoryClockRate, device));
    GPUPLAN_CUDA_CALL(cudaDeviceGetAttribute(&busBits, cudaDevAttrGlobalMemoryBusWidth, device));
    return 2.0 * clockKhz * 1e3 * busBits / 8.0;
}

at::ScalarType scalarTypeOf(const std::string& precision)
{
    return precision == "bf16" ? torch::kBFloat16
        : precision == "fp16"  ? torch::kHalf
                               : torch::kFloat;
}

std::string millisecondsText(const Spread& s)
{
    char text[96];
    std::snprintf(text, sizeof text, "%.3f ms (min %.3f, max %.3f)", s.median * 1e3, s.min * 1e3,
        s.max * 1e3);
    return text;
}

bool reportError(
    const char* name, const torch::Tensor& got, const torch::Tensor& want, double limit)
{
    const double scale = want.abs().max().item<double>();
    const double error = (got.to(torch::kDouble) - want).abs().max().item<double>();
    const bool within = std::isfinite(error) && error <= limit * scale;
    std::printf("  %-10s largest error %.3g of largest value %.3g (%.2g relative, limit %.2g) %s\n",
        name, error, scale, error / scale, limit, within ? "ok" : "FAILED");
    return within;
}

} // namespace gpuplan::bench::kernels

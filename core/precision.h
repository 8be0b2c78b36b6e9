#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuplan {

// Arithmetic a workload trains in. fp32 workloads run their matrix products in TF32 on GPUs
// that have it (the paper's "free lunch"), so their peak is the TF32 peak there.
enum class Precision { FP32, TF32, FP16, BF16 };

std::string_view toString(Precision p);
std::optional<Precision> precisionFromString(std::string_view text);

} // namespace gpuplan

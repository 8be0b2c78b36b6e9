#include "core/precision.h"

#include <array>
#include <utility>

namespace gpuplan {

namespace {
constexpr std::array<std::pair<Precision, std::string_view>, 4> kNames { {
    { Precision::FP32, "fp32" },
    { Precision::TF32, "tf32" },
    { Precision::FP16, "fp16" },
    { Precision::BF16, "bf16" },
} };
} // namespace

std::string_view toString(Precision p)
{
    for (const auto& [value, name] : kNames)
        if (value == p)
            return name;
    return "fp32";
}

std::optional<Precision> precisionFromString(std::string_view text)
{
    for (const auto& [value, name] : kNames)
        if (name == text)
            return value;
    return std::nullopt;
}

} // namespace gpuplan

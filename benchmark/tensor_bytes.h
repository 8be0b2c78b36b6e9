#pragma once

// Bytes a tensor's elements take: what the benchmark reports as parameter, gradient, optimizer
// state and communication volume. One definition, so that every report counts alike; 0 for an
// undefined tensor (a parameter whose gradient was never computed). LibTorch sources only.

#include <ATen/core/TensorBase.h>

#include <cstdint>

namespace gpuplan::bench {

inline std::int64_t tensorBytes(const at::TensorBase& t)
{
    return t.defined() ? static_cast<std::int64_t>(t.nbytes()) : 0;
}

} // namespace gpuplan::bench

// Launches the rotary query-key-value kernels (rotary_qkv_kernels.cuh): checks the shape, picks
// the instantiation for the tensors' type, checks the launch.

#include "benchmark/kernels/cuda_check.h"
#include "benchmark/kernels/rotary_qkv.h"
#include "benchmark/kernels/rotary_qkv_kernels.cuh"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace gpuplan::bench::kernels {

namespace {

void validate(const RotaryShape& s)
{
    if (s.batch < 1 || s.positions < 1 || s.heads < 1 || s.headDim < 1)
        throw std::invalid_argument("rotary qkv: empty shape");
    if (s.rotaryDims < 0 || s.rotaryDims > s.headDim || s.rotaryDims % 2 != 0)
        throw std::invalid_argument("rotary qkv: " + std::to_string(s.rotaryDims)
            + " rotary dimensions for heads of " + std::to_string(s.headDim)
            + ": they must be even and at most the head's");
    // One block per token, and a token's values indexed in int.
    const auto tokens = static_cast<std::int64_t>(s.batch) * s.positions;
    const auto tokenValues = static_cast<std::int64_t>(s.heads) * kParts * s.headDim;
    if (tokens > std::numeric_limits<int>::max() || tokenValues > std::numeric_limits<int>::max())
        throw std::invalid_argument("rotary qkv: " + std::to_string(tokens) + " tokens of "
            + std::to_string(tokenValues) + " values exceed the kernels' int indexing");
}

unsigned blocks(const RotaryShape& s)
{
    return static_cast<unsigned>(s.batch) * static_cast<unsigned>(s.positions);
}

template <typename T>
void forward(const RotaryShape& s, const void* qkv, const RotaryAngles& angles, void* query,
    void* key, void* value, cudaStream_t stream)
{
    rotaryQkvForwardKernel<T><<<blocks(s), kRotaryThreads, 0, stream>>>(s,
        static_cast<const T*>(qkv), angles, static_cast<T*>(query), static_cast<T*>(key),
        static_cast<T*>(value));
    GPUPLAN_CUDA_CALL(cudaGetLastError());
}

template <typename T>
void backward(const RotaryShape& s, const HeadsOperand& dquery, const HeadsOperand& dkey,
    const HeadsOperand& dvalue, const RotaryAngles& angles, void* dqkv, cudaStream_t stream)
{
    rotaryQkvBackwardKernel<T><<<blocks(s), kRotaryThreads, 0, stream>>>(
        s, dquery, dkey, dvalue, angles, static_cast<T*>(dqkv));
    GPUPLAN_CUDA_CALL(cudaGetLastError());
}

} // namespace

void rotaryQkvForward(const RotaryShape& shape, const void* qkv, const RotaryAngles& angles,
    void* query, void* key, void* value, cudaStream_t stream)
{
    validate(shape);
    switch (shape.type) {
    case RotaryType::Float32:
        return forward<float>(shape, qkv, angles, query, key, value, stream);
    case RotaryType::Float16:
        return forward<__half>(shape, qkv, angles, query, key, value, stream);
    case RotaryType::BFloat16:
        return forward<__nv_bfloat16>(shape, qkv, angles, query, key, value, stream);
    }
}

void rotaryQkvBackward(const RotaryShape& shape, const HeadsOperand& dquery,
    const HeadsOperand& dkey, const HeadsOperand& dvalue, const RotaryAngles& angles, void* dqkv,
    cudaStream_t stream)
{
    validate(shape);
    switch (shape.type) {
    case RotaryType::Float32:
        return backward<float>(shape, dquery, dkey, dvalue, angles, dqkv, stream);
    case RotaryType::Float16:
        return backward<__half>(shape, dquery, dkey, dvalue, angles, dqkv, stream);
    case RotaryType::BFloat16:
        return backward<__nv_bfloat16>(shape, dquery, dkey, dvalue, angles, dqkv, stream);
    }
}

} // namespace gpuplan::bench::kernels

#pragma once

// The tensor-core fragments our kernels use (nvcuda::wmma, <mma.h>: TF32 16 x 16 x 8 products
// with fp32 sums) on the CPU threads of kernel_emulation.h. The host compiler sees nothing of
// <mma.h> (it declares wmma only under nvcc), so this defines what the kernels call. Each thread
// holds a whole fragment (on a GPU each holds a slice whose layout is unspecified), so a kernel
// can only do what the API allows anyway: load, store, fill, multiply, and the same operation on
// every element. Loads read the whole tile; a store is written by lane 0 between two barriers of
// the warp (the "_sync" of the API: all lanes take part). __float_to_tf32 rounds to nearest, ties
// away from zero (cvt.rna.tf32.f32), and products of TF32 values are exact in fp32, so the
// emulated sums differ from the tensor cores' only in the order of their fp32 additions.
//
// Include after kernel_emulation.h, before the kernels' .cuh.

#include "kernel_emulation.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace nvcuda::wmma {

struct matrix_a { };
struct matrix_b { };
struct accumulator { };
struct row_major { };
struct col_major { };
enum layout_t { mem_row_major, mem_col_major };

namespace precision {
struct tf32 { };
} // namespace precision

namespace detail {

template <typename Use, int M, int N, int K> struct Extent;
template <int M, int N, int K> struct Extent<matrix_a, M, N, K> {
    static constexpr int rows = M, columns = K;
};
template <int M, int N, int K> struct Extent<matrix_b, M, N, K> {
    static constexpr int rows = K, columns = N;
};
template <int M, int N, int K> struct Extent<accumulator, M, N, K> {
    static constexpr int rows = M, columns = N;
};

} // namespace detail

// The whole rows x columns matrix, row by row.
template <typename Use, int M, int N, int K, typename T, typename Layout = void> struct fragment {
    static constexpr int rows = detail::Extent<Use, M, N, K>::rows;
    static constexpr int columns = detail::Extent<Use, M, N, K>::columns;
    static constexpr int num_elements = rows * columns;
    float x[num_elements];
};

inline float __float_to_tf32(float in)
{
    if (!std::isfinite(in))
        return in;
    std::uint32_t bits;
    std::memcpy(&bits, &in, sizeof bits);
    bits = (bits + 0x1000u) & 0xffffe000u; // 13 of the 23 mantissa bits dropped, rounded
    float out;
    std::memcpy(&out, &bits, sizeof out);
    return out;
}

template <typename Use, int M, int N, int K, typename T, typename Layout>
void load_matrix_sync(fragment<Use, M, N, K, T, Layout>& f, const float* p, unsigned ldm)
{
    using F = fragment<Use, M, N, K, T, Layout>;
    constexpr bool byColumns = std::is_same_v<Layout, col_major>;
    for (int r = 0; r < F::rows; ++r)
        for (int c = 0; c < F::columns; ++c)
            f.x[r * F::columns + c] = byColumns ? p[static_cast<std::size_t>(c) * ldm + r]
                                                : p[static_cast<std::size_t>(r) * ldm + c];
}

template <int M, int N, int K, typename T>
void fill_fragment(fragment<accumulator, M, N, K, T>& f, float value)
{
    for (float& e : f.x)
        e = value;
}

template <int M, int N, int K, typename T, typename LayoutA, typename LayoutB>
void mma_sync(fragment<accumulator, M, N, K, T>& d,
    const fragment<matrix_a, M, N, K, precision::tf32, LayoutA>& a,
    const fragment<matrix_b, M, N, K, precision::tf32, LayoutB>& b,
    const fragment<accumulator, M, N, K, T>& c)
{
    fragment<accumulator, M, N, K, T> sum = c; // d may be c
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j)
            for (int k = 0; k < K; ++k)
                sum.x[i * N + j] += a.x[i * K + k] * b.x[k * N + j];
    d = sum;
}

template <int M, int N, int K, typename T>
void store_matrix_sync(
    float* p, const fragment<accumulator, M, N, K, T>& f, unsigned ldm, layout_t layout)
{
    __syncwarp();
    if (threadIdx.x % ::gpuplan::bench::emulation::kWarpSize == 0)
        for (int r = 0; r < M; ++r)
            for (int c = 0; c < N; ++c) {
                const std::size_t at = layout == mem_row_major
                    ? static_cast<std::size_t>(r) * ldm + c
                    : static_cast<std::size_t>(c) * ldm + r;
                p[at] = f.x[r * N + c];
            }
    __syncwarp();
}

} // namespace nvcuda::wmma

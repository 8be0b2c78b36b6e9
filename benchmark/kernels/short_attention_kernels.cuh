#pragma once

// The short-sequence attention kernels (interface and the functions they compute:
// short_attention.h).
//
// Work split: a block is 4 warps over 64 rows, a warp over 16 of them, so every product is a
// warp's 16-row strip times a shared tile, in tensor-core fragments of 16 x 16 x 8 (TF32 in, fp32
// sums). Shared tiles are [rows][64 + 4]: the 4 spare floats per row move each row's start by 4
// banks (no conflicts down a column) and keep every fragment's start 32-byte aligned, as the
// fragment loads require. A warp keeps its own 16 rows of q (or dout, k, v) in registers, loaded
// once, and reuses its rows of the shared tile for its scores: no warp reads another warp's rows
// of a tile it writes, so those need only __syncwarp, and the block meets at __syncthreads only
// around the tiles all warps read (keys, values, chunks of q and dout). Positions past the
// sequence are zero rows in the tiles and zero probabilities, and are never written out.
//
// Device code only, included by short_attention.cu (which launches it) and by the test that runs
// it on CPU threads (tests/benchmark/kernel_emulation.h, wmma_emulation.h), hence the unnamed
// namespace.

#include "benchmark/kernels/short_attention.h"

#include <mma.h>

#include <cmath>
#include <cstdint>

// The block's dynamic shared memory as floats: the emulation gives it as a buffer of its own.
#ifndef GPUPLAN_DYNAMIC_SHARED_FLOATS
#define GPUPLAN_DYNAMIC_SHARED_FLOATS(name) extern __shared__ __align__(128) float name[]
#endif

namespace gpuplan::bench::kernels {

namespace {

namespace wmma = nvcuda::wmma;

constexpr int kAttentionTile = 64; // rows of q (or k) per block, and per chunk walked
constexpr int kAttentionWarps = 4;
constexpr int kAttentionThreads = kAttentionWarps * 32;
constexpr int kWarpRows = kAttentionTile / kAttentionWarps; // 16: one fragment's height
constexpr int kTileStride = kShortHeadSize + 4; // floats per shared row
constexpr int kTileFloats = kAttentionTile * kTileStride;
constexpr int kHeadSteps = kShortHeadSize / 8; // fragment depth steps over the head size
constexpr int kTileColumns = kAttentionTile / 16; // 16-wide fragments across a 64-wide tile
constexpr float kAttentionScale = 0.125f; // 1 / sqrt(64), exact

using RowsFragment
    = wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
using RowsBFragment
    = wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
using TransposedFragment
    = wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major>;
using SumFragment = wmma::fragment<wmma::accumulator, 16, 16, 8, float>;

__host__ __device__ inline int paddedPositions(int positions)
{
    return (positions + 15) / 16 * 16;
}

// Blocks per (batch, head): one per 64 rows of queries (or keys).
__host__ __device__ inline int tilesPerHead(int positions)
{
    return (positions + kAttentionTile - 1) / kAttentionTile;
}

__host__ __device__ inline int scoreStride(int positions)
{
    return paddedPositions(positions) + 4;
}

__host__ __device__ inline std::size_t forwardSharedFloats(int positions)
{
    return static_cast<std::size_t>(kTileFloats) // the q tile, then the output's
        + static_cast<std::size_t>(paddedPositions(positions)) * kTileStride // k, then v
        + static_cast<std::size_t>(kAttentionTile) * scoreStride(positions); // scores
}

// Four tiles and two rows of 64 per-position values (log-sum-exp, delta).
constexpr std::size_t kBackwardSharedFloats = 4 * kTileFloats + 2 * kAttentionTile;

// A fragment loaded from shared memory and rounded to TF32 (round to nearest, as cuBLAS rounds
// fp32 inputs with TF32 allowed): without the rounding the tensor cores would truncate.
template <typename Fragment>
__device__ inline void loadTf32(Fragment& f, const float* p, int stride)
{
    wmma::load_matrix_sync(f, p, static_cast<unsigned>(stride));
    for (int i = 0; i < f.num_elements; ++i)
        f.x[i] = wmma::__float_to_tf32(f.x[i]);
}

__device__ inline float warpMax(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}

__device__ inline float warpSum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

__device__ inline const float* headOf(const HeadsView& t, int b, int h)
{
    return t.data + b * t.batchStride + h * t.headStride;
}

// `rows` rows of one head from position `first` into a shared tile, times `factor`, zeros past
// the sequence. By the whole block: the caller meets at __syncthreads before reading it.
__device__ inline void loadRows(
    float* tile, const HeadsView& t, int b, int h, int first, int rows, int positions, float factor)
{
    const float* head = headOf(t, b, h);
    for (int i = static_cast<int>(threadIdx.x); i < rows * kShortHeadSize; i += kAttentionThreads) {
        const int r = i / kShortHeadSize, d = i % kShortHeadSize;
        const int position = first + r;
        tile[r * kTileStride + d]
            = position < positions ? head[position * t.positionStride + d] * factor : 0.0f;
    }
}

// A warp's 16 rows of a shared tile out to rows first + warpRow.. of a contiguous
// [positions, 64] head, those inside the sequence.
__device__ inline void storeWarpRows(
    float* head, const float* tile, int warpRow, int first, int positions, int lane)
{
    for (int i = lane; i < kWarpRows * kShortHeadSize; i += 32) {
        const int r = warpRow + i / kShortHeadSize, d = i % kShortHeadSize;
        const int position = first + r;
        if (position < positions)
            head[static_cast<std::int64_t>(position) * kShortHeadSize + d]
                = tile[r * kTileStride + d];
    }
}

// The warp's 16 x 64 products of its rows (`rows`, kHeadSteps fragments deep) with the 64 rows
// of `tile` transposed, into its rows of `into` (stride kTileStride).
__device__ inline void productsWithTransposed(
    const RowsFragment (&rows)[kHeadSteps], const float* tile, float* into)
{
    for (int n = 0; n < kTileColumns; ++n) {
        SumFragment sum;
        wmma::fill_fragment(sum, 0.0f);
        for (int kk = 0; kk < kHeadSteps; ++kk) {
            TransposedFragment b;
            loadTf32(b, tile + n * 16 * kTileStride + kk * 8, kTileStride);
            wmma::mma_sync(sum, rows[kk], b, sum);
        }
        wmma::store_matrix_sync(into + n * 16, sum, kTileStride, wmma::mem_row_major);
    }
}

// sums[n] += (the warp's 16 x 64 strip of `strip`) x `tile` [64][64].
__device__ inline void addStripTimesTile(
    SumFragment (&sums)[kTileColumns], const float* strip, const float* tile)
{
    for (int kk = 0; kk < kAttentionTile / 8; ++kk) {
        RowsFragment a;
        loadTf32(a, strip + kk * 8, kTileStride);
        for (int n = 0; n < kTileColumns; ++n) {
            RowsBFragment b;
            loadTf32(b, tile + kk * 8 * kTileStride + n * 16, kTileStride);
            wmma::mma_sync(sums[n], a, b, sums[n]);
        }
    }
}

__device__ inline void loadWarpRows(RowsFragment (&rows)[kHeadSteps], const float* strip)
{
    for (int kk = 0; kk < kHeadSteps; ++kk)
        loadTf32(rows[kk], strip + kk * 8, kTileStride);
}

__device__ inline void storeSums(
    float* strip, SumFragment (&sums)[kTileColumns], float factor = 1.0f)
{
    for (int n = 0; n < kTileColumns; ++n) {
        for (int i = 0; i < sums[n].num_elements; ++i)
            sums[n].x[i] *= factor;
        wmma::store_matrix_sync(strip + n * 16, sums[n], kTileStride, wmma::mem_row_major);
    }
}

// Where a block and its thread work: its row of queries (or keys) from blockIdx.x, so that a
// head's tiles run side by side and read its keys and values from L2; its (batch, head) from
// blockIdx.y and blockIdx.z (a grid's y and z take 65,535 each, so batch x heads is spread over
// both, and a block past the last head returns at once); the thread's warp strip and lane.
struct BlockPlace {
    bool pastTheLastHead;
    int b, h, first, lane, warpRow;
    std::int64_t headRows; // head x positions: the head's first row of lse, delta and outputs
};

constexpr unsigned kMostGridRows = 65535; // gridDim.y and gridDim.z

// The launches' grid, for shapes of at most kMostShortBatchHeads heads.
inline dim3 attentionGrid(const ShortAttentionShape& s)
{
    const unsigned heads = static_cast<unsigned>(s.batch) * static_cast<unsigned>(s.heads);
    const unsigned rows = heads < kMostGridRows ? heads : kMostGridRows;
    return dim3(static_cast<unsigned>(tilesPerHead(s.positions)), rows, (heads + rows - 1) / rows);
}

__device__ inline BlockPlace placeOf(const ShortAttentionShape& s)
{
    BlockPlace p;
    const unsigned index = blockIdx.y + blockIdx.z * gridDim.y;
    p.pastTheLastHead = index >= static_cast<unsigned>(s.batch) * static_cast<unsigned>(s.heads);
    const int head = p.pastTheLastHead ? 0 : static_cast<int>(index);
    p.b = head / s.heads;
    p.h = head % s.heads;
    p.first = static_cast<int>(blockIdx.x) * kAttentionTile;
    p.lane = static_cast<int>(threadIdx.x) % 32;
    p.warpRow = static_cast<int>(threadIdx.x) / 32 * kWarpRows;
    p.headRows = static_cast<std::int64_t>(head) * s.positions;
    return p;
}

// A block per 64 query rows of a head (placeOf). Scores of the block's 64 query rows against
// every key in shared memory, an exact softmax by rows, then the probabilities times v.
__global__ void __launch_bounds__(kAttentionThreads) shortAttentionForwardKernel(
    ShortAttentionShape s, HeadsView q, HeadsView k, HeadsView v, float* out, float* lse)
{
    GPUPLAN_DYNAMIC_SHARED_FLOATS(shared);
    const int padded = paddedPositions(s.positions);
    const int stride = scoreStride(s.positions);
    float* queries = shared; // then the output rows
    float* keys = queries + kTileFloats; // then the values
    float* scores = keys + padded * kTileStride; // then the probabilities
    const BlockPlace at = placeOf(s);
    if (at.pastTheLastHead)
        return;
    const int b = at.b, h = at.h, first = at.first, lane = at.lane, warpRow = at.warpRow;
    const std::int64_t headRows = at.headRows;

    loadRows(queries, q, b, h, first, kAttentionTile, s.positions, kAttentionScale);
    loadRows(keys, k, b, h, 0, padded, s.positions, 1.0f);
    __syncthreads();
    RowsFragment rows[kHeadSteps];
    loadWarpRows(rows, queries + warpRow * kTileStride);
    float* myScores = scores + warpRow * stride;
    for (int n = 0; n < padded / 16; ++n) {
        SumFragment sum;
        wmma::fill_fragment(sum, 0.0f);
        for (int kk = 0; kk < kHeadSteps; ++kk) {
            TransposedFragment kt;
            loadTf32(kt, keys + n * 16 * kTileStride + kk * 8, kTileStride);
            wmma::mma_sync(sum, rows[kk], kt, sum);
        }
        wmma::store_matrix_sync(
            myScores + n * 16, sum, static_cast<unsigned>(stride), wmma::mem_row_major);
    }
    __syncwarp();
    for (int r = 0; r < kWarpRows; ++r) {
        float* row = myScores + r * stride;
        float most = -INFINITY;
        for (int j = lane; j < s.positions; j += 32)
            most = fmaxf(most, row[j]);
        most = warpMax(most);
        float sum = 0.0f;
        for (int j = lane; j < s.positions; j += 32) {
            const float e = expf(row[j] - most);
            row[j] = e;
            sum += e;
        }
        sum = warpSum(sum);
        const float inverse = 1.0f / sum;
        for (int j = lane; j < padded; j += 32)
            row[j] = j < s.positions ? row[j] * inverse : 0.0f;
        const int position = first + warpRow + r;
        if (lane == 0 && position < s.positions)
            lse[headRows + position] = most + logf(sum);
    }
    __syncthreads(); // every warp is done with the keys
    loadRows(keys, v, b, h, 0, padded, s.positions, 1.0f);
    __syncthreads();
    SumFragment output[kTileColumns];
    for (auto& o : output)
        wmma::fill_fragment(o, 0.0f);
    for (int kk = 0; kk < padded / 8; ++kk) {
        RowsFragment p;
        loadTf32(p, myScores + kk * 8, stride);
        for (int n = 0; n < kTileColumns; ++n) {
            RowsBFragment values;
            loadTf32(values, keys + kk * 8 * kTileStride + n * 16, kTileStride);
            wmma::mma_sync(output[n], p, values, output[n]);
        }
    }
    float* myRows = queries + warpRow * kTileStride; // the warp's own q rows, in registers now
    storeSums(myRows, output);
    __syncwarp();
    storeWarpRows(out + headRows * kShortHeadSize, queries, warpRow, first, s.positions, lane);
}

// A block per 64 query rows of a head (placeOf): dq of the block's 64 query rows, and their
// delta (for the key kernel, launched after). Walks the keys in chunks of 64: scores and dP of
// the chunk, dS, then dq += dS k.
__global__ void __launch_bounds__(kAttentionThreads)
    shortAttentionQueryGradientKernel(ShortAttentionShape s, HeadsView q, HeadsView k, HeadsView v,
        const float* out, const float* lse, HeadsView dout, float* delta, float* dq)
{
    GPUPLAN_DYNAMIC_SHARED_FLOATS(shared);
    float* queries = shared; // scaled q rows, then each chunk's scores (a warp its own rows)
    float* gradient = queries + kTileFloats; // dout rows, then each chunk's dP and dS
    float* keys = gradient + kTileFloats;
    float* values = keys + kTileFloats;
    float* rowLse = values + kTileFloats;
    float* rowDelta = rowLse + kAttentionTile;
    const BlockPlace at = placeOf(s);
    if (at.pastTheLastHead)
        return;
    const int b = at.b, h = at.h, first = at.first, lane = at.lane, warpRow = at.warpRow;
    const std::int64_t headRows = at.headRows;

    loadRows(queries, q, b, h, first, kAttentionTile, s.positions, kAttentionScale);
    loadRows(gradient, dout, b, h, first, kAttentionTile, s.positions, 1.0f);
    __syncthreads();
    for (int r = warpRow; r < warpRow + kWarpRows; ++r) {
        const int position = first + r;
        float sum = 0.0f;
        if (position < s.positions)
            for (int d = lane; d < kShortHeadSize; d += 32)
                sum += gradient[r * kTileStride + d]
                    * out[(headRows + position) * kShortHeadSize + d];
        sum = warpSum(sum);
        if (lane == 0) {
            rowDelta[r] = sum;
            rowLse[r] = position < s.positions ? lse[headRows + position] : 0.0f;
            if (position < s.positions)
                delta[headRows + position] = sum;
        }
    }
    RowsFragment queryRows[kHeadSteps], gradientRows[kHeadSteps];
    loadWarpRows(queryRows, queries + warpRow * kTileStride);
    loadWarpRows(gradientRows, gradient + warpRow * kTileStride);
    float* myScores = queries + warpRow * kTileStride;
    float* myGradient = gradient + warpRow * kTileStride;
    SumFragment queryGradient[kTileColumns];
    for (auto& g : queryGradient)
        wmma::fill_fragment(g, 0.0f);
    for (int chunk = 0; chunk < s.positions; chunk += kAttentionTile) {
        __syncthreads(); // the last chunk's keys and values are read; the deltas are written
        loadRows(keys, k, b, h, chunk, kAttentionTile, s.positions, 1.0f);
        loadRows(values, v, b, h, chunk, kAttentionTile, s.positions, 1.0f);
        __syncthreads();
        productsWithTransposed(queryRows, keys, myScores);
        productsWithTransposed(gradientRows, values, myGradient);
        __syncwarp();
        for (int i = lane; i < kWarpRows * kAttentionTile; i += 32) {
            const int r = warpRow + i / kAttentionTile, j = i % kAttentionTile;
            const float p
                = chunk + j < s.positions ? expf(queries[r * kTileStride + j] - rowLse[r]) : 0.0f;
            gradient[r * kTileStride + j] = p * (gradient[r * kTileStride + j] - rowDelta[r]);
        }
        __syncwarp();
        addStripTimesTile(queryGradient, myGradient, keys);
        __syncwarp(); // the strip is read before the next chunk's products overwrite it
    }
    storeSums(myScores, queryGradient, kAttentionScale);
    __syncwarp();
    storeWarpRows(dq + headRows * kShortHeadSize, queries, warpRow, first, s.positions, lane);
}

// A block per 64 key rows of a head (placeOf): dk and dv of the block's 64 key rows. Walks the
// queries in chunks of 64: the chunk's scores and dP transposed (keys by queries), P and dS from
// the log-sum-exp and delta, then dv += P^T dout and dk += dS^T (s q).
__global__ void __launch_bounds__(kAttentionThreads)
    shortAttentionKeyGradientKernel(ShortAttentionShape s, HeadsView q, HeadsView k, HeadsView v,
        const float* lse, HeadsView dout, const float* delta, float* dk, float* dv)
{
    GPUPLAN_DYNAMIC_SHARED_FLOATS(shared);
    float* keys = shared; // the block's k rows, then each chunk's P^T (a warp its own rows)
    float* values = keys + kTileFloats; // the block's v rows, then each chunk's dP^T and dS^T
    float* queries = values + kTileFloats; // a chunk of scaled q rows
    float* gradient = queries + kTileFloats; // a chunk of dout rows
    float* chunkLse = gradient + kTileFloats;
    float* chunkDelta = chunkLse + kAttentionTile;
    const BlockPlace at = placeOf(s);
    if (at.pastTheLastHead)
        return;
    const int b = at.b, h = at.h, first = at.first, lane = at.lane, warpRow = at.warpRow;
    const std::int64_t headRows = at.headRows;

    loadRows(keys, k, b, h, first, kAttentionTile, s.positions, 1.0f);
    loadRows(values, v, b, h, first, kAttentionTile, s.positions, 1.0f);
    __syncthreads();
    RowsFragment keyRows[kHeadSteps], valueRows[kHeadSteps];
    loadWarpRows(keyRows, keys + warpRow * kTileStride);
    loadWarpRows(valueRows, values + warpRow * kTileStride);
    float* myProbabilities = keys + warpRow * kTileStride;
    float* myGradient = values + warpRow * kTileStride;
    SumFragment keyGradient[kTileColumns], valueGradient[kTileColumns];
    for (int n = 0; n < kTileColumns; ++n) {
        wmma::fill_fragment(keyGradient[n], 0.0f);
        wmma::fill_fragment(valueGradient[n], 0.0f);
    }
    for (int chunk = 0; chunk < s.positions; chunk += kAttentionTile) {
        __syncthreads(); // the last chunk's q, dout and per-position values are read
        loadRows(queries, q, b, h, chunk, kAttentionTile, s.positions, kAttentionScale);
        loadRows(gradient, dout, b, h, chunk, kAttentionTile, s.positions, 1.0f);
        for (int i = static_cast<int>(threadIdx.x); i < kAttentionTile; i += kAttentionThreads) {
            const bool inside = chunk + i < s.positions;
            chunkLse[i] = inside ? lse[headRows + chunk + i] : 0.0f;
            chunkDelta[i] = inside ? delta[headRows + chunk + i] : 0.0f;
        }
        __syncthreads();
        productsWithTransposed(keyRows, queries, myProbabilities);
        productsWithTransposed(valueRows, gradient, myGradient);
        __syncwarp();
        for (int i = lane; i < kWarpRows * kAttentionTile; i += 32) {
            const int r = warpRow + i / kAttentionTile, j = i % kAttentionTile;
            // Key rows past the sequence are zero and never written out: only query columns
            // past it need their probability zeroed.
            const float p
                = chunk + j < s.positions ? expf(keys[r * kTileStride + j] - chunkLse[j]) : 0.0f;
            keys[r * kTileStride + j] = p;
            values[r * kTileStride + j] = p * (values[r * kTileStride + j] - chunkDelta[j]);
        }
        __syncwarp();
        addStripTimesTile(valueGradient, myProbabilities, gradient);
        addStripTimesTile(keyGradient, myGradient, queries);
        __syncwarp(); // the strips are read before the next chunk's products overwrite them
    }
    storeSums(myProbabilities, keyGradient);
    storeSums(myGradient, valueGradient);
    __syncwarp();
    storeWarpRows(dk + headRows * kShortHeadSize, keys, warpRow, first, s.positions, lane);
    storeWarpRows(dv + headRows * kShortHeadSize, values, warpRow, first, s.positions, lane);
}

} // namespace

} // namespace gpuplan::bench::kernels

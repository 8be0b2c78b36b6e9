#pragma once

// The selective scan's CUDA kernels (interface and the function they compute: selective_scan.h).
//
// Work split. One thread carries one state of one channel of one sequence, so a channel is 16
// threads (half a warp) and a block of 256 threads holds 16 channels; the grid covers channels
// and sequences. Every thread walks the positions in order, keeping its state in a register:
// there is no scan across threads, and a channel's 16 threads only meet to sum their terms
// over the states (y_t = C_t . h_t in the forward; du_t and d(dt)_t in the backward). They sum
// 16 positions at once with a butterfly of shuffles, after which the thread for state n holds
// position n's sum and does that position's gating, so per-position work is spread too.
//
// Inputs are staged a chunk (kScanChunk positions) at a time in shared memory as fp32: the
// step dt (softplus applied once per position and channel, not per state) and u per channel,
// B and C per state.
//
// Backward. For chunks from the last: replay the chunk from its stored state, keeping the
// state at the start of each 16-position tile; then for tiles from the last, replay the tile
// keeping every state and decay in registers and run the adjoint
//   G_t = C_t dy_t + exp(dt_{t+1} A) G_{t+1}
// back through it. dB and dC sum over all channels: over the block's 16 in shared memory, over
// blocks with fp32 atomics. dA, dD and the bias's gradient are written per sequence.

// Device code only, included by selective_scan.cu (which launches it) and by the test that
// runs it on CPU threads (tests/benchmark/kernel_emulation.h), hence the unnamed
// namespace: each includer gets its own copy.

#include "benchmark/kernels/element_types.cuh"
#include "benchmark/kernels/selective_scan.h"

#include <vector_functions.h>

#include <cmath>
#include <cstdint>

namespace gpuplan::bench::kernels {

namespace {

constexpr int kLanes = kScanMaxStates; // threads per channel, one per state
// 16 channels x 16 states = 256 threads: the backward's dB/dC sum over the block's channels is
// then one (position, state) pair per thread, and its 32 KB of terms fit beside a chunk's 16 KB
// of staged inputs in the 48 KB of static shared memory. Mamba-2.8B at batch 1 makes 320 blocks.
constexpr int kChannelsPerBlock = 16;
constexpr int kThreads = kLanes * kChannelsPerBlock;
constexpr int kTile = 16; // positions one butterfly sums at once: one per lane
constexpr int kTilesPerChunk = kScanChunk / kTile;
static_assert(kLanes == 16 && kTile == kLanes, "the butterfly below is written for 16 lanes");
static_assert(kScanChunk % kTile == 0, "a chunk is whole tiles");
static_assert(kThreads == kTile * kLanes, "the dB/dC reduction gives each thread one pair");

constexpr unsigned kAllLanes = 0xffffffffu;
// exp(x) = exp2(x log2(e)): exp2f maps to one special-function instruction.
constexpr float kLog2e = 1.4426950408889634f;
// softplus(x) = x above this, as in PyTorch's default (threshold 20).
constexpr float kSoftplusThreshold = 20.0f;

template <typename T>
__device__ __forceinline__ float load(const ScanOperand& o, int b, int t, int column)
{
    return toFloat(static_cast<const T*>(
        o.data)[b * o.batchStride + static_cast<std::int64_t>(t) * o.rowStride + column]);
}

// Offset of (b, t, column) in a contiguous [batch, length, width] tensor.
__device__ __forceinline__ std::int64_t at(int b, int t, int column, int length, int width)
{
    return (static_cast<std::int64_t>(b) * length + t) * width + column;
}

__device__ __forceinline__ float softplus(float x)
{
    return x > kSoftplusThreshold ? x : log1pf(expf(x));
}

__device__ __forceinline__ float sigmoid(float x)
{
    return 1.0f / (1.0f + expf(-x));
}

// One butterfly step over the lanes `kHalf` apart: each thread keeps the half of v its lane bit
// selects, adds its partner's copy of that half, and sends the other half.
template <int kHalf> __device__ __forceinline__ void butterflyStep(float (&v)[kTile], int lane)
{
    const bool upper = (lane & kHalf) != 0;
#pragma unroll
    for (int i = 0; i < kHalf; ++i) {
        const float send = upper ? v[i] : v[i + kHalf];
        const float keep = upper ? v[i + kHalf] : v[i];
        v[i] = keep + __shfl_xor_sync(kAllLanes, send, kHalf);
    }
}

// v[i] holds this state's term for the tile's position i. Returns the sum over the channel's
// 16 lanes (states) of position `lane`: 15 shuffles for 16 sums.
__device__ __forceinline__ float sumOverStates(float (&v)[kTile], int lane)
{
    butterflyStep<8>(v, lane);
    butterflyStep<4>(v, lane);
    butterflyStep<2>(v, lane);
    butterflyStep<1>(v, lane);
    return v[0];
}

// A chunk of inputs in fp32; zeros past the sequence's end, for channels past the last and for
// states past N, so those positions and lanes run the recurrence harmlessly (decay 1, input 0).
struct ChunkTiles {
    float2 stepAndInput[kScanChunk][kChannelsPerBlock]; // (dt, u)
    float2 bc[kScanChunk][kLanes]; // (B, C)
};

template <typename T>
__device__ void loadChunk(const ScanProblem& p, int b, int firstChannel, int t0, ChunkTiles& tiles)
{
    for (int e = threadIdx.x; e < kScanChunk * kChannelsPerBlock; e += kThreads) {
        const int i = e / kChannelsPerBlock, c = e % kChannelsPerBlock;
        const int t = t0 + i, d = firstChannel + c;
        float2 v = make_float2(0.0f, 0.0f);
        if (t < p.length && d < p.channels)
            v = make_float2(
                softplus(load<T>(p.delta, b, t, d) + p.deltaBias[d]), load<T>(p.u, b, t, d));
        tiles.stepAndInput[i][c] = v;
    }
    for (int e = threadIdx.x; e < kScanChunk * kLanes; e += kThreads) {
        const int i = e / kLanes, n = e % kLanes;
        const int t = t0 + i;
        float2 v = make_float2(0.0f, 0.0f);
        if (t < p.length && n < p.states)
            v = make_float2(load<T>(p.B, b, t, n), load<T>(p.C, b, t, n));
        tiles.bc[i][n] = v;
    }
}

// Where this thread sits: its state (lane), its channel, its sequence.
struct Place {
    int lane;
    int channelInBlock;
    int firstChannel;
    int channel;
    int batch;
    bool channelValid;
    bool stateValid;

    __device__ explicit Place(const ScanProblem& p)
        : lane(static_cast<int>(threadIdx.x) % kLanes)
        , channelInBlock(static_cast<int>(threadIdx.x) / kLanes)
        , firstChannel(static_cast<int>(blockIdx.x) * kChannelsPerBlock)
        , channel(firstChannel + channelInBlock)
        , batch(static_cast<int>(blockIdx.y))
        , channelValid(channel < p.channels)
        , stateValid(channelValid && lane < p.states)
    {
    }
};

template <typename T>
__global__ void __launch_bounds__(kThreads)
    scanForward(ScanProblem p, T* __restrict__ out, float* __restrict__ states, int chunks)
{
    __shared__ ChunkTiles tiles;
    const Place my(p);
    const float a = my.stateValid ? p.A[my.channel * p.states + my.lane] : 0.0f;
    const float a2 = a * kLog2e;
    const float skip = my.channelValid ? p.D[my.channel] : 0.0f;
    float h = 0.0f;
    for (int k = 0; k < chunks; ++k) {
        const int t0 = k * kScanChunk;
        if (my.stateValid)
            states[(static_cast<std::int64_t>(my.batch) * chunks + k) * p.channels * p.states
                + my.channel * p.states + my.lane]
                = h;
        __syncthreads(); // nobody reads the previous chunk's tiles any more
        loadChunk<T>(p, my.batch, my.firstChannel, t0, tiles);
        __syncthreads();
        for (int s = 0; s < kTilesPerChunk; ++s) {
            float y[kTile];
#pragma unroll
            for (int i = 0; i < kTile; ++i) {
                const float2 su = tiles.stepAndInput[s * kTile + i][my.channelInBlock];
                const float2 bc = tiles.bc[s * kTile + i][my.lane];
                h = exp2f(su.x * a2) * h + su.x * su.y * bc.x;
                y[i] = bc.y * h;
            }
            const float scanned = sumOverStates(y, my.lane);
            const int row = s * kTile + my.lane;
            const int t = t0 + row;
            if (my.channelValid && t < p.length) {
                const float u = tiles.stepAndInput[row][my.channelInBlock].y;
                const float z = load<T>(p.z, my.batch, t, my.channel);
                out[at(my.batch, t, my.channel, p.length, p.channels)]
                    = fromFloat<T>((scanned + skip * u) * z * sigmoid(z));
            }
        }
    }
}

template <typename T>
__global__ void __launch_bounds__(kThreads) scanBackward(
    ScanProblem p, ScanOperand dout, const float* __restrict__ states, ScanGradients g, int chunks)
{
    __shared__ ChunkTiles tiles;
    // (dB, dC) terms of one tile per position, channel and state, summed over channels below.
    __shared__ float2 partial[kTile][kChannelsPerBlock][kLanes];
    const Place my(p);
    const float a = my.stateValid ? p.A[my.channel * p.states + my.lane] : 0.0f;
    const float a2 = a * kLog2e;
    const float skip = my.channelValid ? p.D[my.channel] : 0.0f;
    T* const du = static_cast<T*>(g.du);
    T* const ddelta = static_cast<T*>(g.ddelta);
    T* const dz = static_cast<T*>(g.dz);

    float carry = 0.0f; // exp(dt_{t+1} A) G_{t+1}: what later positions pass back to position t
    float gradA = 0.0f, gradD = 0.0f, gradBias = 0.0f;
    for (int k = chunks - 1; k >= 0; --k) {
        const int t0 = k * kScanChunk;
        __syncthreads();
        loadChunk<T>(p, my.batch, my.firstChannel, t0, tiles);
        __syncthreads();

        // Replay the chunk from its stored state, keeping the state entering each tile.
        float tileStart[kTilesPerChunk];
        float h = my.stateValid
            ? states[(static_cast<std::int64_t>(my.batch) * chunks + k) * p.channels * p.states
                + my.channel * p.states + my.lane]
            : 0.0f;
#pragma unroll
        for (int s = 0; s < kTilesPerChunk; ++s) {
            tileStart[s] = h;
            if (s + 1 < kTilesPerChunk) {
#pragma unroll
                for (int i = 0; i < kTile; ++i) {
                    const float2 su = tiles.stepAndInput[s * kTile + i][my.channelInBlock];
                    const float2 bc = tiles.bc[s * kTile + i][my.lane];
                    h = exp2f(su.x * a2) * h + su.x * su.y * bc.x;
                }
            }
        }

        // Kept a loop: unrolled, tileStart would live in registers, but the kernel would be
        // four times longer for one local-memory load per tile. The 16-position loops inside
        // are unrolled, which keeps state, decay and the gradients' terms in registers.
#pragma unroll 1
        for (int s = kTilesPerChunk - 1; s >= 0; --s) {
            // Replay the tile keeping every state and decay, and y for the gate's gradient.
            float state[kTile], decay[kTile], y[kTile];
            float hTile = tileStart[s];
#pragma unroll
            for (int i = 0; i < kTile; ++i) {
                const float2 su = tiles.stepAndInput[s * kTile + i][my.channelInBlock];
                const float2 bc = tiles.bc[s * kTile + i][my.lane];
                decay[i] = exp2f(su.x * a2);
                hTile = decay[i] * hTile + su.x * su.y * bc.x;
                state[i] = hTile;
                y[i] = bc.y * hTile;
            }
            const float scanned = sumOverStates(y, my.lane);

            // This thread's position of the tile: the gate and its gradients.
            const int row = s * kTile + my.lane;
            const int t = t0 + row;
            const bool positionValid = my.channelValid && t < p.length;
            float dy = 0.0f; // gradient of C_t . h_t + D u_t
            if (positionValid) {
                const float u = tiles.stepAndInput[row][my.channelInBlock].y;
                const float z = load<T>(p.z, my.batch, t, my.channel);
                const float gradOut = load<T>(dout, my.batch, t, my.channel);
                const float sig = sigmoid(z);
                const float gated = scanned + skip * u;
                dz[at(my.batch, t, my.channel, p.length, p.channels)]
                    = fromFloat<T>(gradOut * gated * sig * (1.0f + z * (1.0f - sig)));
                dy = gradOut * z * sig;
                gradD += dy * u;
            }
            float dyAt[kTile];
#pragma unroll
            for (int i = 0; i < kTile; ++i)
                dyAt[i] = __shfl_sync(kAllLanes, dy, i, kLanes);

            // The adjoint recurrence back through the tile (counting up, so that nvcc unrolls it).
            float gradStep[kTile], gradInput[kTile];
#pragma unroll
            for (int j = 0; j < kTile; ++j) {
                const int i = kTile - 1 - j;
                const float2 su = tiles.stepAndInput[s * kTile + i][my.channelInBlock];
                const float2 bc = tiles.bc[s * kTile + i][my.lane];
                const float gradState = bc.y * dyAt[i] + carry; // G_t
                const float before = i > 0 ? state[i - 1] : tileStart[s]; // h_{t-1}
                const float viaDecay = gradState * before * decay[i]; // dL/d(dt A)
                gradStep[i] = gradState * bc.x * su.y + viaDecay * a;
                gradInput[i] = gradState * su.x * bc.x;
                gradA += viaDecay * su.x;
                partial[i][my.channelInBlock][my.lane]
                    = make_float2(gradState * su.x * su.y, dyAt[i] * state[i]);
                carry = decay[i] * gradState;
            }
            const float stepSum = sumOverStates(gradStep, my.lane);
            const float inputSum = sumOverStates(gradInput, my.lane);
            if (positionValid) {
                const float raw
                    = load<T>(p.delta, my.batch, t, my.channel) + p.deltaBias[my.channel];
                const float gradRaw = raw > kSoftplusThreshold ? stepSum : stepSum * sigmoid(raw);
                const std::int64_t o = at(my.batch, t, my.channel, p.length, p.channels);
                ddelta[o] = fromFloat<T>(gradRaw);
                du[o] = fromFloat<T>(inputSum + skip * dy);
                gradBias += gradRaw;
            }

            // dB and dC: sum the block's channels, then add into the sums over all blocks.
            __syncthreads();
            {
                const int i = static_cast<int>(threadIdx.x) / kLanes;
                const int n = static_cast<int>(threadIdx.x) % kLanes;
                float2 sum = make_float2(0.0f, 0.0f);
#pragma unroll
                for (int c = 0; c < kChannelsPerBlock; ++c) {
                    sum.x += partial[i][c][n].x;
                    sum.y += partial[i][c][n].y;
                }
                const int tt = t0 + s * kTile + i;
                if (tt < p.length && n < p.states) {
                    const std::int64_t o = at(my.batch, tt, n, p.length, p.states);
                    atomicAdd(g.dB + o, sum.x);
                    atomicAdd(g.dC + o, sum.y);
                }
            }
            __syncthreads(); // partial is rewritten by the next tile
        }
    }

    if (my.stateValid)
        g.dA[(static_cast<std::int64_t>(my.batch) * p.channels + my.channel) * p.states + my.lane]
            = gradA;
        // dD and the bias's gradient: each lane summed its own positions; add the channel's lanes.
#pragma unroll
    for (int offset = kLanes / 2; offset > 0; offset /= 2) {
        gradD += __shfl_xor_sync(kAllLanes, gradD, offset);
        gradBias += __shfl_xor_sync(kAllLanes, gradBias, offset);
    }
    if (my.channelValid && my.lane == 0) {
        const std::int64_t o = static_cast<std::int64_t>(my.batch) * p.channels + my.channel;
        g.dD[o] = gradD;
        g.ddeltaBias[o] = gradBias;
    }
}

} // namespace

} // namespace gpuplan::bench::kernels

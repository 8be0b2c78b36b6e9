#pragma once

// Runs our CUDA kernels (benchmark/kernels/*_kernels.cuh) on CPU threads, so that CI without a
// GPU executes the kernels' own indexing, masking, chunking and shuffles against the reference: one
// std::thread per CUDA thread of a block and blocks one after another; __syncthreads is a barrier
// over the block, a warp shuffle an exchange through memory between two barriers over the warp, an
// atomic add a locked add. __shared__ variables become function statics, shared by the block's
// threads (and reused by the next block).
//
// Slow (hundreds of threads meeting at barriers): for small problems only. Include it in one
// translation unit, before any CUDA header, and the kernels' .cuh after it.

// Before the CUDA headers, which keep a definition that already exists.
#define __shared__ static
#define __launch_bounds__(...)
// A kernel's dynamic shared memory (extern __shared__): emulation::dynamicShared, which the test
// sizes (and fills with NaN, so that a read of what no thread wrote shows) before the launch.
#define GPUPLAN_DYNAMIC_SHARED_FLOATS(name)                                                        \
    float* name = ::gpuplan::bench::emulation::dynamicShared.data()

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <vector_types.h>

#include <barrier>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace gpuplan::bench::emulation {

constexpr int kWarpSize = 32;

struct Block {
    std::unique_ptr<std::barrier<>> all;
    std::vector<std::unique_ptr<std::barrier<>>> warps;
    std::vector<float> exchange; // one slot per thread, for shuffles
};

inline Block* currentBlock = nullptr; // the block being run (one at a time)
inline std::mutex atomics;
inline thread_local uint3 threadIndex;
inline thread_local uint3 blockIndex;
inline dim3 blockSize; // of the launch being run
inline dim3 gridSize;
inline std::vector<float> dynamicShared;

inline int warpOf()
{
    return static_cast<int>(threadIndex.x) / kWarpSize;
}

// Value of `v` in thread `source` of this thread's warp (all lanes call together, as the
// kernels' shuffles with a full mask do).
inline float exchange(float v, int source)
{
    Block& block = *currentBlock;
    const int first = warpOf() * kWarpSize;
    block.exchange[threadIndex.x] = v;
    block.warps[static_cast<std::size_t>(warpOf())]->arrive_and_wait();
    const float result = block.exchange[static_cast<std::size_t>(first + source)];
    block.warps[static_cast<std::size_t>(warpOf())]->arrive_and_wait();
    return result;
}

// Runs body() as the kernel <<<grid, threads>>> would; threads a multiple of the warp size.
inline void launch(dim3 grid, int threads, const std::function<void()>& body)
{
    blockSize = dim3(static_cast<unsigned>(threads));
    gridSize = grid;
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx) {
                Block block;
                block.all = std::make_unique<std::barrier<>>(threads);
                for (int w = 0; w < threads / kWarpSize; ++w)
                    block.warps.push_back(std::make_unique<std::barrier<>>(kWarpSize));
                block.exchange.assign(static_cast<std::size_t>(threads), 0.0f);
                currentBlock = &block;
                std::vector<std::thread> pool;
                for (int t = 0; t < threads; ++t)
                    pool.emplace_back([&, t] {
                        threadIndex = { static_cast<unsigned>(t), 0, 0 };
                        blockIndex = { bx, by, bz };
                        body();
                    });
                for (auto& thread : pool)
                    thread.join();
                currentBlock = nullptr;
            }
}

// Runs body() as the kernel <<<grid, threads>>> would, one CUDA thread after another on this
// thread: for kernels whose threads never wait for each other (no barrier, shuffle or shared
// memory), where it is a hundred times faster than launch().
inline void launchIndependent(dim3 grid, int threads, const std::function<void()>& body)
{
    blockSize = dim3(static_cast<unsigned>(threads));
    gridSize = grid;
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx)
                for (int t = 0; t < threads; ++t) {
                    threadIndex = { static_cast<unsigned>(t), 0, 0 };
                    blockIndex = { bx, by, bz };
                    body();
                }
}

} // namespace gpuplan::bench::emulation

#define threadIdx ::gpuplan::bench::emulation::threadIndex
#define blockIdx ::gpuplan::bench::emulation::blockIndex
#define blockDim ::gpuplan::bench::emulation::blockSize
#define gridDim ::gpuplan::bench::emulation::gridSize

inline void __syncthreads()
{
    ::gpuplan::bench::emulation::currentBlock->all->arrive_and_wait();
}

inline void __syncwarp(unsigned = 0xffffffffu)
{
    using namespace ::gpuplan::bench::emulation;
    currentBlock->warps[static_cast<std::size_t>(warpOf())]->arrive_and_wait();
}

inline float __shfl_xor_sync(unsigned, float v, int laneMask)
{
    const int lane = static_cast<int>(threadIdx.x) % ::gpuplan::bench::emulation::kWarpSize;
    return ::gpuplan::bench::emulation::exchange(v, lane ^ laneMask);
}

inline float __shfl_sync(unsigned, float v, int source, int width)
{
    const int lane = static_cast<int>(threadIdx.x) % ::gpuplan::bench::emulation::kWarpSize;
    return ::gpuplan::bench::emulation::exchange(v, (lane & ~(width - 1)) | (source % width));
}

inline float atomicAdd(float* address, float v)
{
    const std::lock_guard<std::mutex> lock(::gpuplan::bench::emulation::atomics);
    const float old = *address;
    *address = old + v;
    return old;
}

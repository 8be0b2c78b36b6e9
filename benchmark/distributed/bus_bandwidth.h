#pragma once

// Algorithm and bus bandwidth of a collective, as nccl-tests defines them
// (nccl-tests/doc/PERFORMANCE.md): algbw = S / t, where S is the buffer size the operation is
// named by (the whole buffer for all-reduce; the full, gathered size for all-gather and the
// full, unreduced input for reduce-scatter), and busbw = algbw x a factor that makes the figure
// comparable with the link speed whatever the rank count n:
//   all-reduce 2(n-1)/n, reduce-scatter (n-1)/n, all-gather (n-1)/n.
// With one rank nothing crosses a link: the factor is 0. No LibTorch.

#include <cstdint>
#include <string_view>

namespace gpuplan::bench::distributed {

enum class Collective { AllReduce, ReduceScatter, AllGather };
std::string_view toString(Collective c); // all_reduce, reduce_scatter, all_gather

double busFactor(Collective c, int ranks);
double algorithmBandwidth(std::int64_t bytes, double seconds); // bytes per second; 0 if t <= 0
double busBandwidth(Collective c, int ranks, std::int64_t bytes, double seconds);

} // namespace gpuplan::bench::distributed

#include "benchmark/distributed/bus_bandwidth.h"

namespace gpuplan::bench::distributed {

std::string_view toString(Collective c)
{
    switch (c) {
    case Collective::AllReduce:
        return "all_reduce";
    case Collective::ReduceScatter:
        return "reduce_scatter";
    case Collective::AllGather:
        return "all_gather";
    }
    return "";
}

double busFactor(Collective c, int ranks)
{
    if (ranks < 2)
        return 0.0;
    const double n = ranks;
    // All-reduce moves every byte twice (a reduce-scatter, then an all-gather), each time
    // (n-1)/n of the buffer through each rank's link.
    return c == Collective::AllReduce ? 2.0 * (n - 1.0) / n : (n - 1.0) / n;
}

double algorithmBandwidth(std::int64_t bytes, double seconds)
{
    return seconds > 0.0 ? static_cast<double>(bytes) / seconds : 0.0;
}

double busBandwidth(Collective c, int ranks, std::int64_t bytes, double seconds)
{
    return algorithmBandwidth(bytes, seconds) * busFactor(c, ranks);
}

} // namespace gpuplan::bench::distributed

// Stand-ins for the backends this LibTorch lacks (benchmark/CMakeLists.txt compiles this file
// with GPUPLAN_NO_GLOO and/or GPUPLAN_NO_NCCL). They fail with a message before any rank waits
// for another, so a run never hangs on a backend that is not there.

#include "benchmark/distributed/backends.h"

#include <stdexcept>

namespace gpuplan::bench::distributed {

#ifdef GPUPLAN_NO_GLOO
bool glooCompiledIn()
{
    return false;
}

std::unique_ptr<Communicator> makeGlooCommunicator(
    const c10::intrusive_ptr<c10d::Store>&, int, int, std::chrono::milliseconds, const std::string&)
{
    throw std::runtime_error("this gpuplan-bench was built without Gloo (LibTorch's Gloo headers "
                             "were not found): multi-process CPU runs are not available");
}
#endif

#ifdef GPUPLAN_NO_NCCL
bool ncclCompiledIn()
{
    return false;
}

std::unique_ptr<Communicator> makeNcclCommunicator(
    const c10::intrusive_ptr<c10d::Store>&, int, int, std::chrono::milliseconds, int)
{
    throw std::runtime_error("this gpuplan-bench was built against a LibTorch without CUDA, so it "
                             "has no NCCL: multi-GPU runs need a build against a CUDA LibTorch "
                             "(docs/benchmark.md, \"On a GPU server\")");
}
#endif

} // namespace gpuplan::bench::distributed

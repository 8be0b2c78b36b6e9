// The CUDA backend of a LibTorch without CUDA (Debian's): no devices, so none of the
// device-specific functions is ever reached with a valid index.

#include "benchmark/cuda_backend.h"

#include <stdexcept>

namespace gpuplan::bench::cuda {

namespace {
[[noreturn]] void noCuda()
{
    throw std::runtime_error("this gpuplan-bench was built against a LibTorch without CUDA");
}
} // namespace

bool compiledIn()
{
    return false;
}
int deviceCount()
{
    return 0;
}
DeviceInfo describeDevice(int)
{
    noCuda();
}
std::string runtimeVersion()
{
    return "";
}
void synchronize(int)
{
    noCuda();
}
double timeWithEvents(int, const std::function<void()>&)
{
    noCuda();
}
std::vector<double> timePartsWithEvents(int, const std::vector<std::function<void()>>&)
{
    noCuda();
}
bool streamIsCapturing(int)
{
    return false;
}
void resetPeakMemory(int)
{
    noCuda();
}
std::int64_t peakAllocatedBytes(int)
{
    noCuda();
}
void releaseCachedMemory()
{
}

struct StepGraph::Impl { };
StepGraph::StepGraph() = default;
StepGraph::~StepGraph() = default;
std::optional<std::string> StepGraph::capture(int, const std::function<void()>&)
{
    return std::string("CUDA graphs need a LibTorch with CUDA");
}
void StepGraph::replay()
{
    noCuda();
}
bool StepGraph::captured() const
{
    return false;
}
void StepGraph::reset()
{
}

} // namespace gpuplan::bench::cuda

#include "benchmark/cuda_backend.h"

#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#include <torch/torch.h>

#include <stdexcept>

namespace gpuplan::bench::cuda {

namespace {
void check(cudaError_t status, const char* what, const char* file, int line)
{
    if (status != cudaSuccess)
        throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + what + ": "
            + cudaGetErrorString(status));
}
#define GPUPLAN_CUDA_CHECK(call) check((call), #call, __FILE__, __LINE__)
} // namespace

bool compiledIn()
{
    return true;
}

int deviceCount()
{
    return torch::cuda::is_available() ? static_cast<int>(torch::cuda::device_count()) : 0;
}

DeviceInfo describeDevice(int index)
{
    const cudaDeviceProp* props
        = at::cuda::getDeviceProperties(static_cast<c10::DeviceIndex>(index));
    DeviceInfo d;
    d.index = index;
    d.kind = "cuda";
    d.name = props->name;
    d.memoryBytes = static_cast<std::int64_t>(props->totalGlobalMem);
    d.computeCapability = std::to_string(props->major) + "." + std::to_string(props->minor);
    return d;
}

std::string runtimeVersion()
{
    int version = 0;
    if (cudaRuntimeGetVersion(&version) != cudaSuccess)
        return "";
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

void synchronize(int index)
{
    c10::cuda::CUDAGuard guard(static_cast<c10::DeviceIndex>(index));
    GPUPLAN_CUDA_CHECK(cudaDeviceSynchronize());
}

double timeWithEvents(int index, const std::function<void()>& work)
{
    return timePartsWithEvents(index, { work }).front();
}

std::vector<double> timePartsWithEvents(int index, const std::vector<std::function<void()>>& parts)
{
    c10::cuda::CUDAGuard guard(static_cast<c10::DeviceIndex>(index));
    // Timing is opt-in: a default-constructed CUDAEvent is created with cudaEventDisableTiming,
    // and elapsed_time() on it throws.
    std::vector<at::cuda::CUDAEvent> events;
    events.reserve(parts.size() + 1);
    for (std::size_t i = 0; i <= parts.size(); ++i)
        events.emplace_back(cudaEventDefault);
    events.front().record();
    for (std::size_t i = 0; i < parts.size(); ++i) {
        parts[i]();
        events[i + 1].record();
    }
    events.back().synchronize();
    std::vector<double> seconds;
    for (std::size_t i = 0; i < parts.size(); ++i)
        seconds.push_back(static_cast<double>(events[i].elapsed_time(events[i + 1])) / 1000.0);
    return seconds;
}

bool streamIsCapturing(int index)
{
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    GPUPLAN_CUDA_CHECK(cudaStreamIsCapturing(
        at::cuda::getCurrentCUDAStream(static_cast<c10::DeviceIndex>(index)).stream(), &status));
    return status != cudaStreamCaptureStatusNone;
}

void resetPeakMemory(int index)
{
    c10::cuda::CUDACachingAllocator::resetPeakStats(static_cast<c10::DeviceIndex>(index));
}

std::int64_t peakAllocatedBytes(int index)
{
    const auto stats
        = c10::cuda::CUDACachingAllocator::getDeviceStats(static_cast<c10::DeviceIndex>(index));
    return stats.allocated_bytes[0].peak; // [0]: the aggregate over all pools
}

void releaseCachedMemory()
{
    c10::cuda::CUDACachingAllocator::emptyCache();
}

namespace {

// `waiter` runs nothing queued after this call before `producer` has finished what it has
// queued so far (Python's Stream.wait_stream; LibTorch's CUDAStream has no such method).
void waitFor(const c10::cuda::CUDAStream& waiter, const c10::cuda::CUDAStream& producer)
{
    at::cuda::CUDAEvent done;
    done.record(producer);
    done.block(waiter);
}

} // namespace

namespace {

// The reason a capture failed, short enough for a note: LibTorch's messages run on for lines
// (allocator statistics, advice, a backtrace); the first two sentences say what happened.
std::string firstSentences(const std::exception& e)
{
    const auto* torchError = dynamic_cast<const c10::Error*>(&e);
    std::string why = torchError ? torchError->what_without_backtrace() : e.what();
    why = why.substr(0, why.find('\n'));
    const auto first = why.find(". ");
    const auto second = first == std::string::npos ? first : why.find(". ", first + 2);
    return second == std::string::npos ? why : why.substr(0, second + 1);
}

} // namespace

struct StepGraph::Impl {
    std::unique_ptr<at::cuda::CUDAGraph> graph;
};

StepGraph::StepGraph()
    : impl_(std::make_unique<Impl>())
{
}
StepGraph::~StepGraph() = default;

std::optional<std::string> StepGraph::capture(int index, const std::function<void()>& step)
{
    c10::cuda::CUDAGuard guard(static_cast<c10::DeviceIndex>(index));
    auto side = c10::cuda::getStreamFromPool(false, static_cast<c10::DeviceIndex>(index));
    try {
        waitFor(side, c10::cuda::getCurrentCUDAStream());
        // Blocks the caching allocator holds for the current stream cannot serve the side
        // stream, nor the graph's private pool: without handing them back, a micro-step sized
        // to fill the device fails to capture (seen on an H100 with 65 GiB cached but unused).
        synchronize(index);
        releaseCachedMemory();
        {
            // Capture must not happen on the legacy default stream, and lazily created state
            // (cuBLAS handles and workspaces, autograd buffers) must exist before it starts.
            c10::cuda::CUDAStreamGuard onSide(side);
            for (int i = 0; i < 3; ++i)
                step();
            side.synchronize();
            releaseCachedMemory();
            impl_->graph = std::make_unique<at::cuda::CUDAGraph>();
            impl_->graph->capture_begin();
            try {
                step();
            } catch (...) {
                try {
                    impl_->graph->capture_end();
                } catch (...) {
                    // The capture was already invalidated; ending it only reports that again.
                }
                throw;
            }
            impl_->graph->capture_end();
        }
        waitFor(c10::cuda::getCurrentCUDAStream(), side);
        synchronize(index);
        return std::nullopt;
    } catch (const std::exception& e) {
        impl_->graph.reset();
        (void)cudaGetLastError(); // clear the sticky-free error the failed capture left
        return firstSentences(e);
    }
}

void StepGraph::replay()
{
    impl_->graph->replay();
}
bool StepGraph::captured() const
{
    return static_cast<bool>(impl_->graph);
}
void StepGraph::reset()
{
    impl_ = std::make_unique<Impl>();
}

} // namespace gpuplan::bench::cuda

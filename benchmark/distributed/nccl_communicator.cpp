// The NCCL backend: collectives between GPUs, one process per GPU. Built only where LibTorch has
// CUDA (benchmark/CMakeLists.txt defines USE_C10D_NCCL for this file); on this project's CPU
// machines it is checked with -fsyntax-only against the CUDA and NCCL headers
// (docs/benchmark.md, "What ran where").

#include "benchmark/distributed/backends.h"

#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#include <torch/torch.h>

#include <cuda_runtime_api.h>

#include <stdexcept>

namespace gpuplan::bench::distributed {

namespace {

void check(cudaError_t status, const char* what, const char* file, int line)
{
    if (status != cudaSuccess)
        throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + what + ": "
            + cudaGetErrorString(status));
}
#define GPUPLAN_CUDA_CHECK(call) check((call), #call, __FILE__, __LINE__)

// wait() orders the caller's current stream after NCCL's; the host does not block.
class WorkPending : public PendingCollective {
public:
    explicit WorkPending(c10::intrusive_ptr<c10d::Work> work)
        : work_(std::move(work))
    {
    }
    void wait() override { work_->wait(); }

private:
    c10::intrusive_ptr<c10d::Work> work_;
};

class NcclCommunicator : public Communicator {
public:
    NcclCommunicator(
        c10::intrusive_ptr<c10d::ProcessGroupNCCL> group, int rank, int worldSize, int device)
        : Communicator(rank, worldSize)
        , group_(std::move(group))
        , device_(device)
    {
    }

    std::string backend() const override { return "nccl"; }

protected:
    std::unique_ptr<PendingCollective> startAllReduceSum(at::Tensor& buffer) override
    {
        std::vector<at::Tensor> tensors { buffer };
        return std::make_unique<WorkPending>(group_->allreduce(tensors));
    }

    std::unique_ptr<PendingCollective> startReduceScatterSum(
        at::Tensor& input, at::Tensor& output) override
    {
        return std::make_unique<WorkPending>(group_->_reduce_scatter_base(output, input));
    }

    std::unique_ptr<PendingCollective> startAllGather(
        at::Tensor& input, at::Tensor& output) override
    {
        return std::make_unique<WorkPending>(group_->_allgather_base(output, input));
    }

    void broadcastNow(at::Tensor& buffer, int root) override
    {
        std::vector<at::Tensor> tensors { buffer };
        c10d::BroadcastOptions options;
        options.rootRank = root;
        group_->broadcast(tensors, options)->wait();
    }

    double reduceScalar(double value, bool maximum) override
    {
        const auto options
            = torch::TensorOptions().dtype(torch::kDouble).device(torch::kCUDA, device_);
        std::vector<at::Tensor> tensors { torch::full({ 1 }, value, options) };
        c10d::AllreduceOptions reduce;
        reduce.reduceOp = maximum ? c10d::ReduceOp::MAX : c10d::ReduceOp::MIN;
        group_->allreduce(tensors, reduce)->wait();
        return tensors.front().item<double>(); // copies to the host: waits for the stream
    }

    // ProcessGroupNCCL::barrier() guesses the GPU from the rank until a collective has run on
    // one (rank % GPUs, wrong for rank 5 of 2 nodes x 4 ranks on 8-GPU nodes); an all-reduce
    // on this rank's own GPU guesses nothing, and item() waits for it.
    void barrierNow() override { reduceScalar(0.0, /*maximum=*/false); }

private:
    c10::intrusive_ptr<c10d::ProcessGroupNCCL> group_;
    int device_;
};

} // namespace

bool ncclCompiledIn()
{
    return true;
}

std::unique_ptr<Communicator> makeNcclCommunicator(const c10::intrusive_ptr<c10d::Store>& store,
    int rank, int worldSize, std::chrono::milliseconds timeout, int device)
{
    int visible = 0;
    GPUPLAN_CUDA_CHECK(cudaGetDeviceCount(&visible));
    if (device < 0 || device >= visible)
        throw std::runtime_error("rank " + std::to_string(rank) + " was given GPU "
            + std::to_string(device) + ", " + std::to_string(visible)
            + " visible (one process per GPU; check CUDA_VISIBLE_DEVICES "
              "and the tasks per node)");
    // NCCL binds its communicator to the current device: the GPU this rank measures on
    // (commands.cpp chooses it: its local rank, or the only GPU a scheduler lets it see).
    GPUPLAN_CUDA_CHECK(cudaSetDevice(device));
    auto options = c10d::ProcessGroupNCCL::Options::create();
    options->timeout = timeout;
    auto group = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, worldSize, options);
    return std::make_unique<NcclCommunicator>(std::move(group), rank, worldSize, device);
}

} // namespace gpuplan::bench::distributed

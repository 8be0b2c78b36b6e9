// The Gloo backend: collectives between CPU processes (the tests, and CPU trial runs). Built only
// where LibTorch's Gloo headers are found (benchmark/CMakeLists.txt defines USE_C10D_GLOO).

#include "benchmark/distributed/backends.h"

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>

namespace gpuplan::bench::distributed {

namespace {

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

// Gloo in LibTorch 1.13 has no tensor reduce-scatter: an in-place all-reduce of the whole input,
// then this rank's slice. It moves twice the bytes a real reduce-scatter would, which the
// results' notes and comm-probe's bandwidth say.
class SliceAfterAllReduce : public PendingCollective {
public:
    SliceAfterAllReduce(c10::intrusive_ptr<c10d::Work> work, at::Tensor input, at::Tensor output,
        std::int64_t offset)
        : work_(std::move(work))
        , input_(std::move(input))
        , output_(std::move(output))
        , offset_(offset)
    {
    }
    void wait() override
    {
        work_->wait();
        torch::NoGradGuard noGrad;
        output_.copy_(input_.narrow(0, offset_, output_.numel()));
    }

private:
    c10::intrusive_ptr<c10d::Work> work_;
    at::Tensor input_, output_;
    std::int64_t offset_;
};

bool isLoopback(const std::string& address)
{
    return address == "localhost" || address.rfind("127.", 0) == 0 || address == "::1";
}

class GlooCommunicator : public Communicator {
public:
    GlooCommunicator(c10::intrusive_ptr<c10d::ProcessGroupGloo> group, int rank, int worldSize)
        : Communicator(rank, worldSize)
        , group_(std::move(group))
    {
    }

    std::string backend() const override { return "gloo"; }
    std::vector<std::string> notes() const override
    {
        return { "Gloo: reduce-scatter is an all-reduce followed by a slice (LibTorch 1.13's Gloo "
                 "has no reduce-scatter), moving twice the bytes of a real one" };
    }

protected:
    std::unique_ptr<PendingCollective> startAllReduceSum(at::Tensor& buffer) override
    {
        std::vector<at::Tensor> tensors { buffer };
        return std::make_unique<WorkPending>(group_->allreduce(tensors));
    }

    std::unique_ptr<PendingCollective> startReduceScatterSum(
        at::Tensor& input, at::Tensor& output) override
    {
        std::vector<at::Tensor> tensors { input };
        auto work = group_->allreduce(tensors);
        return std::make_unique<SliceAfterAllReduce>(
            std::move(work), input, output, rank() * output.numel());
    }

    // Gloo's list all-gather copies the gathered data into the listed tensors when it is done,
    // so views of one flat output serve as the list (1.13 has no flat all-gather).
    std::unique_ptr<PendingCollective> startAllGather(
        at::Tensor& input, at::Tensor& output) override
    {
        std::vector<std::vector<at::Tensor>> outputs(1);
        for (int r = 0; r < worldSize(); ++r)
            outputs[0].push_back(output.narrow(0, r * input.numel(), input.numel()));
        std::vector<at::Tensor> inputs { input };
        return std::make_unique<WorkPending>(group_->allgather(outputs, inputs));
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
        std::vector<at::Tensor> tensors { torch::full({ 1 }, value, torch::kDouble) };
        c10d::AllreduceOptions options;
        options.reduceOp = maximum ? c10d::ReduceOp::MAX : c10d::ReduceOp::MIN;
        group_->allreduce(tensors, options)->wait();
        return tensors.front().item<double>();
    }

    void barrierNow() override { group_->barrier()->wait(); }

private:
    c10::intrusive_ptr<c10d::ProcessGroupGloo> group_;
};

} // namespace

bool glooCompiledIn()
{
    return true;
}

std::unique_ptr<Communicator> makeGlooCommunicator(const c10::intrusive_ptr<c10d::Store>& store,
    int rank, int worldSize, std::chrono::milliseconds timeout, const std::string& masterAddress)
{
    auto options = c10d::ProcessGroupGloo::Options::create(timeout);
    // GLOO_SOCKET_IFNAME picks the network interface as in PyTorch; one node on the loopback
    // address needs no name look-up at all.
    if (const char* interface = std::getenv("GLOO_SOCKET_IFNAME"); interface && *interface)
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(interface));
    else if (isLoopback(masterAddress))
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
    else
        options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    auto group = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, worldSize, options);
    return std::make_unique<GlooCommunicator>(std::move(group), rank, worldSize);
}

} // namespace gpuplan::bench::distributed

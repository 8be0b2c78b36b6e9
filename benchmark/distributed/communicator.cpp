#include "benchmark/distributed/communicator.h"

#include "benchmark/tensor_bytes.h"
#include <torch/torch.h>

namespace gpuplan::bench::distributed {

namespace {

class Done : public PendingCollective {
public:
    void wait() override { }
};

void checkFlat(const at::Tensor& t, const char* what)
{
    TORCH_CHECK(t.dim() == 1 && t.is_contiguous(), what, " must be a 1-D contiguous tensor");
}

} // namespace

void Communicator::counted(Collective collective, std::int64_t bytes)
{
    const double factor = busFactor(collective, worldSize_);
    count_.bytes += bytes;
    count_.busBytes += static_cast<std::int64_t>(static_cast<double>(bytes) * factor);
    ++count_.collectives;
}

std::unique_ptr<PendingCollective> Communicator::allReduceSum(at::Tensor& buffer)
{
    checkFlat(buffer, "all-reduce buffer");
    counted(Collective::AllReduce, tensorBytes(buffer));
    if (localOnly_ || worldSize_ == 1)
        return std::make_unique<Done>();
    return startAllReduceSum(buffer);
}

std::unique_ptr<PendingCollective> Communicator::reduceScatterSum(
    at::Tensor& input, at::Tensor& output)
{
    checkFlat(input, "reduce-scatter input");
    checkFlat(output, "reduce-scatter output");
    TORCH_CHECK(input.numel() == output.numel() * worldSize_,
        "reduce-scatter input must hold world size x output elements");
    counted(Collective::ReduceScatter, tensorBytes(input));
    if (localOnly_ || worldSize_ == 1) {
        torch::NoGradGuard noGrad;
        output.copy_(input.narrow(0, rank_ * output.numel(), output.numel()));
        return std::make_unique<Done>();
    }
    return startReduceScatterSum(input, output);
}

std::unique_ptr<PendingCollective> Communicator::allGather(at::Tensor& input, at::Tensor& output)
{
    checkFlat(input, "all-gather input");
    checkFlat(output, "all-gather output");
    TORCH_CHECK(output.numel() == input.numel() * worldSize_,
        "all-gather output must hold world size x input elements");
    counted(Collective::AllGather, tensorBytes(output));
    if (localOnly_ || worldSize_ == 1) {
        torch::NoGradGuard noGrad;
        // Alone, a rank fills every slot with its own shard: values stay finite and realistic.
        for (int r = 0; r < worldSize_; ++r) {
            auto slot = output.narrow(0, r * input.numel(), input.numel());
            if (!slot.is_same(input) && slot.data_ptr() != input.data_ptr())
                slot.copy_(input);
        }
        return std::make_unique<Done>();
    }
    return startAllGather(input, output);
}

void Communicator::broadcast(at::Tensor& buffer, int root)
{
    if (worldSize_ > 1)
        broadcastNow(buffer, root);
}

double Communicator::maxOverRanks(double value)
{
    return worldSize_ > 1 ? reduceScalar(value, /*maximum=*/true) : value;
}

double Communicator::minOverRanks(double value)
{
    return worldSize_ > 1 ? reduceScalar(value, /*maximum=*/false) : value;
}

void Communicator::barrier()
{
    if (worldSize_ > 1)
        barrierNow();
}

} // namespace gpuplan::bench::distributed

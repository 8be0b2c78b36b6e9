#pragma once

// One interface over the collectives a multi-process training step needs, whichever c10d
// backend carries them (NCCL on GPUs, Gloo on CPUs). Tensors are only named here (no LibTorch
// include), so the runner and the commands can hold a Communicator without pulling in c10d.
//
// Every collective is counted (algorithm bytes as nccl-tests names a buffer, and bus bytes) so
// a step can report what it communicated. In local-only mode every collective becomes the copy
// a rank would make if it were alone: this times a step's computation without its
// communication, on the same buffers.

#include "benchmark/distributed/bus_bandwidth.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace at {
class Tensor;
}

namespace gpuplan::bench::distributed {

// A collective in flight. wait() returns once its result is in place for the caller's work: on
// the CPU when the data is there, on a GPU when the current stream is ordered after it.
class PendingCollective {
public:
    virtual ~PendingCollective() = default;
    virtual void wait() = 0;
};

struct CommunicationCount {
    std::int64_t bytes = 0; // algorithm bytes (the buffer size each collective is named by)
    std::int64_t busBytes = 0; // bytes x the bus factor (bus_bandwidth.h)
    int collectives = 0;
};

class Communicator {
public:
    virtual ~Communicator() = default;
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;

    int rank() const { return rank_; }
    int worldSize() const { return worldSize_; }
    virtual std::string backend() const = 0; // "nccl" | "gloo"
    // How this backend carries collectives it lacks, for the results' notes.
    virtual std::vector<std::string> notes() const { return {}; }

    // In place: every rank ends with the element-wise sum.
    std::unique_ptr<PendingCollective> allReduceSum(at::Tensor& buffer);
    // `input` holds worldSize() equal slices (1-D, contiguous); rank r receives the sum of
    // slice r in `output`. The input's contents are undefined afterwards (Gloo builds this from
    // an in-place all-reduce).
    std::unique_ptr<PendingCollective> reduceScatterSum(at::Tensor& input, at::Tensor& output);
    // `output` (1-D, contiguous) receives every rank's `input` in rank order; `input` may be
    // this rank's own slice of `output`.
    std::unique_ptr<PendingCollective> allGather(at::Tensor& input, at::Tensor& output);
    void broadcast(at::Tensor& buffer, int root);
    // Host values agreed across ranks (timings, "did it fit"): not counted.
    double maxOverRanks(double value);
    double minOverRanks(double value);
    void barrier();

    void setLocalOnly(bool localOnly) { localOnly_ = localOnly; }
    bool localOnly() const { return localOnly_; }
    const CommunicationCount& count() const { return count_; }
    void resetCount() { count_ = {}; }

protected:
    Communicator(int rank, int worldSize)
        : rank_(rank)
        , worldSize_(worldSize)
    {
    }

    virtual std::unique_ptr<PendingCollective> startAllReduceSum(at::Tensor& buffer) = 0;
    virtual std::unique_ptr<PendingCollective> startReduceScatterSum(
        at::Tensor& input, at::Tensor& output)
        = 0;
    virtual std::unique_ptr<PendingCollective> startAllGather(at::Tensor& input, at::Tensor& output)
        = 0;
    virtual void broadcastNow(at::Tensor& buffer, int root) = 0;
    virtual double reduceScalar(double value, bool maximum) = 0;
    virtual void barrierNow() = 0;

private:
    void counted(Collective collective, std::int64_t bytes);

    int rank_;
    int worldSize_;
    bool localOnly_ = false;
    CommunicationCount count_;
};

// Local-only mode for one scope, the earlier mode back on every way out (an out-of-memory
// exception included: a communicator left local-only would time every later step without its
// collectives). No communicator (a single-process run): nothing to switch.
class LocalOnlyScope {
public:
    explicit LocalOnlyScope(Communicator* communicator)
        : communicator_(communicator)
        , wasLocalOnly_(communicator && communicator->localOnly())
    {
        if (communicator_)
            communicator_->setLocalOnly(true);
    }
    ~LocalOnlyScope()
    {
        if (communicator_)
            communicator_->setLocalOnly(wasLocalOnly_);
    }
    LocalOnlyScope(const LocalOnlyScope&) = delete;
    LocalOnlyScope& operator=(const LocalOnlyScope&) = delete;

private:
    Communicator* communicator_;
    bool wasLocalOnly_;
};

} // namespace gpuplan::bench::distributed

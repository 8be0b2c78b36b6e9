#pragma once

// One configuration's training step on one rank of a multi-process run, for the four parallel
// strategies (docs/benchmark.md, "Parallel strategies"). Parameters live in flat, padded
// buffers, one per model block (flat_groups.h):
//   ddp    every rank holds everything; gradients accumulate locally and are all-reduced once
//          per optimizer step, a block at a time as the last micro-step's backward finishes
//          each block (asynchronous collectives started from autograd hooks), so communication
//          overlaps the rest of that backward pass.
//   zero1  the same gradient buffers, reduce-scattered (not all-reduced) in the last
//          micro-step; AdamW updates this rank's shard with its shard of the state; the
//          updated shards are all-gathered.
//   zero2  no full gradient buffer between micro-steps: every micro-step reduce-scatters each
//          block's gradients as soon as they are complete and adds them to this rank's shard.
//   zero3  parameters sharded too: a block's parameters are gathered before its forward,
//          freed after it, gathered again before its backward (a hook on the block's output)
//          and freed when its gradients are reduce-scattered. The parameters outside blocks
//          are gathered for the whole micro-step.
// Gradients are averaged over ranks and micro-steps, so K steps equal a single process
// stepping on the whole batch (tests/distributed).

#include "benchmark/distributed/communicator.h"
#include "benchmark/distributed/flat_groups.h"
#include "benchmark/step_engine.h"
#include "benchmark/training_setup.h"

#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

namespace gpuplan::bench::distributed {

class ShardedStep : public StepEngine, private BlockHooks {
public:
    // Flattens the model's parameters, makes every rank start from rank 0's values, and
    // allocates this rank's gradients and optimizer state.
    ShardedStep(TrainableModel& model, const Configuration& configuration, const Recipe& recipe,
        const torch::Device& device, Communicator& communicator, std::vector<std::string>& notes);
    ~ShardedStep() override; // gives the model its parameters back, without communicating
    ShardedStep(const ShardedStep&) = delete;
    ShardedStep& operator=(const ShardedStep&) = delete;

    void microStep(const Batch& batch, bool closesStep = false) override;
    void optimizerStep() override;
    std::optional<std::string> checkedStep(const Batch& batch) override;
    void run(const Batch& batch, bool closesStep = false) override;
    std::optional<std::string> captureGraph(const Batch& batch) override;
    void dropGraph() override { }
    void discardGradients() override;
    StateBytes stateBytes() const override;

    // The gradients the next update will use, synchronised and averaged over ranks and
    // micro-steps: per group, the whole flat buffer (ddp) or this rank's shard (ZeRO).
    std::vector<torch::Tensor> updateGradients();
    const std::vector<ParameterGroup>& groups() const { return groups_; }

    // The collectives one optimizer step of `accumulation` micro-steps makes, without the
    // computation, on the step's own buffers (between steps: it leaves the state as it was).
    void communicateOnly(int accumulation);
    // Gives the model complete parameters with storage of their own (ZeRO-3 gathers its
    // shards); the step is finished afterwards.
    void restoreModel();

    // What the autograd hooks call back through; disarmed when the step goes, so a hook that
    // outlives it does nothing.
    struct HookTarget {
        ShardedStep* step = nullptr;
    };

private:
    struct InFlight {
        std::size_t group = 0;
        std::unique_ptr<PendingCollective> collective;
        torch::Tensor bucket; // ZeRO-2/3: the group's gradients, reduce-scattered
        torch::Tensor shard; // ZeRO-2/3: this rank's reduced slice, added when it lands
    };

    bool shardsGradientsPerMicroStep() const;
    // microStep(), returning the (scaled) loss it ran backward from.
    torch::Tensor lossOf(const Batch& batch, bool closesStep);
    void registerAccumulationHooks();
    void removeAccumulationHooks();
    void onAccumulated(std::size_t group);
    void beginSynchronisation();
    void finishSynchronisation();
    void groupReady(std::size_t group);
    void launchReadyGroups();
    void launch(std::size_t group);
    void completeOldest();
    void synchroniseNow();
    void averageGradients();
    void gather(std::size_t group);
    void release(std::size_t group);

    void beforeBlock(CheckpointedBlock& block) override;
    torch::Tensor afterBlock(CheckpointedBlock& block, torch::Tensor output) override;

    TrainableModel& model_;
    Parallelism parallelism_;
    Communicator& communicator_;
    LossSetup setup_;
    std::vector<ParameterGroup> groups_;
    std::unordered_map<const CheckpointedBlock*, std::size_t> groupOfBlock_;
    std::optional<std::size_t> outerGroup_; // parameters outside blocks
    std::vector<std::size_t> launchOrder_; // blocks last to first, then the outer group

    std::vector<torch::Tensor> fullGradients_; // ddp, zero1: [padded] per group
    std::vector<torch::Tensor> gradientShards_; // zero1 (views), zero2, zero3
    std::vector<torch::Tensor> parameterShards_; // zero1, zero2 (views); zero3 (own)
    std::unique_ptr<Optimizer> optimizer_;

    std::shared_ptr<HookTarget> hookTarget_;
    std::vector<std::shared_ptr<torch::autograd::Node>> accumulators_;
    std::vector<std::uintptr_t> hookKeys_;

    // Synchronisation of the current micro-step.
    bool armed_ = false;
    std::vector<std::size_t> accumulated_; // per group: parameters whose gradient landed
    std::vector<bool> ready_;
    std::vector<torch::Tensor> readyBuckets_; // ZeRO-2/3: gradients copied out, not launched
    std::size_t nextLaunch_ = 0; // index into launchOrder_
    std::deque<InFlight> inFlight_;
    int microSteps_ = 0; // since the last optimizer step
    bool synchronised_ = false; // ddp/zero1: the last micro-step reduced the gradients
    bool averaged_ = false; // the gradients are divided by ranks x micro-steps
    bool restored_ = false;
};

} // namespace gpuplan::bench::distributed

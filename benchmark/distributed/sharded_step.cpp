#include "benchmark/distributed/sharded_step.h"

#include "benchmark/tensor_bytes.h"
#include <torch/csrc/autograd/function_hook.h>

#include <stdexcept>

namespace gpuplan::bench::distributed {

namespace {

// ZeRO-2/3 keep at most this many groups' gradient buckets in flight while the backward pass
// goes on: enough to overlap one block's reduce-scatter with the next block's backward, few
// enough that the full gradient never exists at once.
constexpr std::size_t kMaxInFlight = 2;

std::string describe(Parallelism p, std::size_t groups, int ranks)
{
    const std::string buckets = std::to_string(groups) + " flat buffers (one per block)";
    switch (p) {
    case Parallelism::Ddp:
        return "ddp on " + std::to_string(ranks)
            + " ranks: gradients all-reduced once per "
              "optimizer step in "
            + buckets + ", started during the last micro-step's backward";
    case Parallelism::Zero1:
        return "zero1 on " + std::to_string(ranks)
            + " ranks: gradients reduce-scattered once "
              "per optimizer step in "
            + buckets + ", AdamW on this rank's shard, shards all-gathered";
    case Parallelism::Zero2:
        return "zero2 on " + std::to_string(ranks)
            + " ranks: every micro-step reduce-scatters "
              "each block's gradients as soon as they are complete ("
            + buckets + ")";
    case Parallelism::Zero3:
        return "zero3 on " + std::to_string(ranks)
            + " ranks: each block's parameters gathered "
              "before its forward and its backward, no prefetch ("
            + buckets + ")";
    case Parallelism::None:
        break;
    }
    return "";
}

} // namespace

// Runs after a parameter's gradient has been accumulated (a post hook of its AccumulateGrad
// node): the moment a group's gradients are complete is when its collective can start.
class AccumulatedHook : public torch::autograd::FunctionPostHook {
public:
    AccumulatedHook(std::shared_ptr<ShardedStep::HookTarget> target, std::size_t group,
        void (*notify)(ShardedStep&, std::size_t))
        : target_(std::move(target))
        , group_(group)
        , notify_(notify)
    {
    }
    torch::autograd::variable_list operator()(const torch::autograd::variable_list& outputs,
        const torch::autograd::variable_list& /*inputs*/) override
    {
        if (target_->step)
            notify_(*target_->step, group_);
        return outputs;
    }

private:
    std::shared_ptr<ShardedStep::HookTarget> target_;
    std::size_t group_;
    void (*notify_)(ShardedStep&, std::size_t);
};

ShardedStep::ShardedStep(TrainableModel& model, const Configuration& configuration,
    const Recipe& recipe, const torch::Device& device, Communicator& communicator,
    std::vector<std::string>& notes)
    : model_(model)
    , parallelism_(configuration.parallelism)
    , communicator_(communicator)
    , setup_(setUpMethod(model, configuration, recipe, device, notes))
    , hookTarget_(std::make_shared<HookTarget>())
{
    TORCH_CHECK(parallelism_ != Parallelism::None, "a sharded step needs a parallel strategy");
    const int rank = communicator_.rank();
    const int ranks = communicator_.worldSize();
    groups_ = flattenParameters(model_, ranks);
    torch::NoGradGuard noGrad;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        // Every rank starts from rank 0's weights, as DDP and ZeRO do.
        communicator_.broadcast(groups_[g].flat, 0);
        if (groups_[g].block)
            groupOfBlock_[groups_[g].block] = g;
        else
            outerGroup_ = g;
    }
    for (std::size_t g = groups_.size(); g-- > 0;)
        if (groups_[g].block)
            launchOrder_.push_back(g);
    if (outerGroup_)
        launchOrder_.push_back(*outerGroup_);

    for (auto& group : groups_) {
        const auto options = group.flat.options();
        const std::int64_t shard = group.shardSize(ranks);
        if (shardsGradientsPerMicroStep()) {
            for (auto& p : group.parameters)
                p.mutable_grad() = torch::Tensor();
            gradientShards_.push_back(torch::zeros({ shard }, options));
        } else {
            fullGradients_.push_back(torch::zeros({ group.padded() }, options));
            const auto views = viewsInto(group, fullGradients_.back());
            for (std::size_t i = 0; i < views.size(); ++i)
                group.parameters[i].mutable_grad() = views[i];
            if (parallelism_ == Parallelism::Zero1)
                gradientShards_.push_back(group.shardOf(fullGradients_.back(), rank, ranks));
        }
        if (parallelism_ == Parallelism::Zero1 || parallelism_ == Parallelism::Zero2)
            parameterShards_.push_back(group.shardOf(group.flat, rank, ranks));
        if (parallelism_ == Parallelism::Zero3)
            parameterShards_.push_back(group.shardOf(group.flat, rank, ranks).clone());
    }

    const OptimizerSettings settings = optimizerSettingsFor(configuration, recipe, setup_, notes);
    if (parallelism_ == Parallelism::Ddp) {
        std::vector<torch::Tensor> flats;
        for (const auto& group : groups_)
            flats.push_back(group.flat);
        optimizer_ = std::make_unique<Optimizer>(flats, fullGradients_, settings);
    } else {
        optimizer_ = std::make_unique<Optimizer>(parameterShards_, gradientShards_, settings);
    }

    accumulated_.assign(groups_.size(), 0);
    ready_.assign(groups_.size(), false);
    readyBuckets_.assign(groups_.size(), torch::Tensor());
    hookTarget_->step = this;
    registerAccumulationHooks();
    if (parallelism_ == Parallelism::Zero3) {
        // Last: until here an out-of-memory error leaves the model's parameters usable.
        for (auto& group : groups_)
            releaseStorage(group);
        ExecutionOptions execution = model_.execution();
        execution.blockHooks = this;
        model_.setExecution(execution);
    }
    notes.push_back(describe(parallelism_, groups_.size(), ranks));
    if (parallelism_ != Parallelism::Ddp) // the backend's notes are about reduce-scatter
        for (const auto& note : communicator_.notes())
            notes.push_back(note);
}

ShardedStep::~ShardedStep()
{
    if (restored_)
        return;
    // Also on the way out of an error, when a peer may be gone: no collective here. ZeRO-3's
    // model gets each slot filled with this rank's own shard (finite values; the next
    // configuration broadcasts rank 0's weights anyway).
    inFlight_.clear();
    communicator_.setLocalOnly(true);
    try {
        restoreModel();
    } catch (const std::exception&) {
        // The model is unusable after a failed restore; the run is ending with an error anyway.
    }
    communicator_.setLocalOnly(false);
}

bool ShardedStep::shardsGradientsPerMicroStep() const
{
    return parallelism_ == Parallelism::Zero2 || parallelism_ == Parallelism::Zero3;
}

void ShardedStep::registerAccumulationHooks()
{
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        for (auto& p : groups_[g].parameters) {
            // Held here: a parameter keeps its accumulator only weakly, and a new one would
            // not have the hook.
            auto accumulator = torch::autograd::impl::grad_accumulator(p);
            const auto key
                = accumulator->add_post_hook(std::make_unique<AccumulatedHook>(hookTarget_, g,
                    [](ShardedStep& step, std::size_t group) { step.onAccumulated(group); }));
            accumulators_.push_back(std::move(accumulator));
            hookKeys_.push_back(key);
        }
    }
}

void ShardedStep::removeAccumulationHooks()
{
    hookTarget_->step = nullptr;
    for (std::size_t i = 0; i < accumulators_.size(); ++i)
        accumulators_[i]->del_post_hook(hookKeys_[i]);
    accumulators_.clear();
    hookKeys_.clear();
}

void ShardedStep::onAccumulated(std::size_t group)
{
    if (!armed_)
        return;
    if (ready_[group] || ++accumulated_[group] > groups_[group].parameters.size())
        throw std::runtime_error("a parameter's gradient was accumulated twice in one backward "
                                 "pass (a weight used in two separate graphs): this parallel "
                                 "strategy cannot synchronise it");
    if (accumulated_[group] == groups_[group].parameters.size())
        groupReady(group);
}

void ShardedStep::beginSynchronisation()
{
    armed_ = true;
    std::fill(accumulated_.begin(), accumulated_.end(), 0);
    std::fill(ready_.begin(), ready_.end(), false);
    nextLaunch_ = 0;
}

void ShardedStep::finishSynchronisation()
{
    // Groups whose parameters got no gradient (unused in this forward) are complete now.
    for (const std::size_t g : launchOrder_)
        if (!ready_[g])
            groupReady(g);
    armed_ = false;
    while (!inFlight_.empty())
        completeOldest();
    if (shardsGradientsPerMicroStep())
        for (const auto& group : groups_)
            for (const auto& p : group.parameters)
                if (p.grad().defined())
                    throw std::runtime_error("a parameter's gradient arrived after its group was "
                                             "reduce-scattered: this model cannot use "
                        + std::string(toString(parallelism_)));
}

void ShardedStep::groupReady(std::size_t g)
{
    ready_[g] = true;
    if (shardsGradientsPerMicroStep()) {
        // Copy the group's gradients into one bucket and free them at once: only the buckets
        // in flight exist at full size.
        auto& group = groups_[g];
        torch::NoGradGuard noGrad;
        torch::Tensor bucket = torch::zeros({ group.padded() }, group.flat.options());
        const auto views = viewsInto(group, bucket);
        for (std::size_t i = 0; i < group.parameters.size(); ++i) {
            auto& p = group.parameters[i];
            if (p.grad().defined())
                views[i].copy_(p.grad());
            p.mutable_grad() = torch::Tensor();
        }
        readyBuckets_[g] = bucket;
        if (parallelism_ == Parallelism::Zero3)
            release(g); // every use of the group's weights in this backward is done
    }
    launchReadyGroups();
}

// Collectives must start in the same order on every rank; autograd may finish groups in
// another order than launchOrder_, so a group waits for the ones before it.
void ShardedStep::launchReadyGroups()
{
    while (nextLaunch_ < launchOrder_.size() && ready_[launchOrder_[nextLaunch_]]) {
        launch(launchOrder_[nextLaunch_]);
        ++nextLaunch_;
    }
}

void ShardedStep::launch(std::size_t g)
{
    const int ranks = communicator_.worldSize();
    InFlight work;
    work.group = g;
    switch (parallelism_) {
    case Parallelism::Ddp:
        work.collective = communicator_.allReduceSum(fullGradients_[g]);
        break;
    case Parallelism::Zero1:
        work.collective = communicator_.reduceScatterSum(fullGradients_[g], gradientShards_[g]);
        break;
    case Parallelism::Zero2:
    case Parallelism::Zero3:
        work.bucket = std::move(readyBuckets_[g]);
        work.shard = torch::empty({ groups_[g].shardSize(ranks) }, work.bucket.options());
        work.collective = communicator_.reduceScatterSum(work.bucket, work.shard);
        break;
    case Parallelism::None:
        break;
    }
    inFlight_.push_back(std::move(work));
    if (shardsGradientsPerMicroStep() && inFlight_.size() > kMaxInFlight)
        completeOldest();
}

void ShardedStep::completeOldest()
{
    InFlight work = std::move(inFlight_.front());
    inFlight_.pop_front();
    work.collective->wait();
    if (work.shard.defined()) {
        torch::NoGradGuard noGrad;
        gradientShards_[work.group].add_(work.shard);
    }
}

void ShardedStep::synchroniseNow()
{
    beginSynchronisation();
    for (const std::size_t g : launchOrder_)
        ready_[g] = true;
    launchReadyGroups();
    armed_ = false;
    while (!inFlight_.empty())
        completeOldest();
    synchronised_ = true;
}

void ShardedStep::gather(std::size_t g)
{
    auto& group = groups_[g];
    if (isMaterialized(group))
        return;
    materializeStorage(group);
    torch::NoGradGuard noGrad;
    communicator_.allGather(parameterShards_[g], group.flat)->wait();
}

void ShardedStep::release(std::size_t g)
{
    if (isMaterialized(groups_[g]))
        releaseStorage(groups_[g]);
}

void ShardedStep::beforeBlock(CheckpointedBlock& block)
{
    if (const auto it = groupOfBlock_.find(&block); it != groupOfBlock_.end())
        gather(it->second);
}

torch::Tensor ShardedStep::afterBlock(CheckpointedBlock& block, torch::Tensor output)
{
    const auto it = groupOfBlock_.find(&block);
    if (it == groupOfBlock_.end())
        return output;
    const std::size_t g = it->second;
    if (output.requires_grad()) {
        // Fires when the gradient reaches the block's output, before any of its backward.
        std::weak_ptr<HookTarget> target = hookTarget_;
        output.register_hook([target, g](const torch::Tensor&) {
            if (const auto t = target.lock(); t && t->step)
                t->step->gather(g);
        });
    }
    release(g);
    return output;
}

void ShardedStep::microStep(const Batch& batch, bool closesStep)
{
    lossOf(batch, closesStep);
}

std::optional<std::string> ShardedStep::checkedStep(const Batch& batch)
{
    const torch::Tensor loss = lossOf(batch, /*closesStep=*/true);
    auto why = nonFiniteIn(loss, updateGradients(), setup_.lossScale);
    optimizerStep();
    return why;
}

torch::Tensor ShardedStep::lossOf(const Batch& batch, bool closesStep)
{
    ++microSteps_;
    const bool synchronise = shardsGradientsPerMicroStep() || closesStep;
    if (synchronise)
        beginSynchronisation();
    if (parallelism_ == Parallelism::Zero3 && outerGroup_)
        gather(*outerGroup_);
    torch::Tensor loss = computeLoss(model_, batch, setup_);
    loss.backward();
    if (synchronise) {
        finishSynchronisation();
        synchronised_ = true;
    }
    return loss.detach();
}

void ShardedStep::run(const Batch& batch, bool closesStep)
{
    microStep(batch, closesStep);
}

std::optional<std::string> ShardedStep::captureGraph(const Batch&)
{
    return std::string("CUDA graphs are not captured in multi-process runs (collectives start "
                       "from autograd hooks)");
}

void ShardedStep::averageGradients()
{
    if (averaged_)
        return;
    if (!synchronised_)
        synchroniseNow();
    torch::NoGradGuard noGrad;
    // Sums over ranks of sums over micro-steps of micro-batch means: the mean over the batch.
    const double average = 1.0 / (communicator_.worldSize() * std::max(microSteps_, 1));
    for (auto& g : parallelism_ == Parallelism::Ddp ? fullGradients_ : gradientShards_)
        g.mul_(average);
    averaged_ = true;
}

std::vector<torch::Tensor> ShardedStep::updateGradients()
{
    averageGradients();
    return parallelism_ == Parallelism::Ddp ? fullGradients_ : gradientShards_;
}

void ShardedStep::optimizerStep()
{
    averageGradients();
    torch::NoGradGuard noGrad;
    optimizer_->step();
    if (parallelism_ == Parallelism::Zero1 || parallelism_ == Parallelism::Zero2) {
        std::vector<std::unique_ptr<PendingCollective>> gathers;
        for (std::size_t g = 0; g < groups_.size(); ++g)
            gathers.push_back(communicator_.allGather(parameterShards_[g], groups_[g].flat));
        for (auto& pending : gathers)
            pending->wait();
    }
    for (auto& g : fullGradients_)
        g.zero_();
    for (auto& g : gradientShards_)
        g.zero_();
    microSteps_ = 0;
    synchronised_ = false;
    averaged_ = false;
}

void ShardedStep::discardGradients()
{
    armed_ = false;
    while (!inFlight_.empty())
        completeOldest();
    torch::NoGradGuard noGrad;
    for (auto& g : fullGradients_)
        g.zero_();
    for (auto& g : gradientShards_)
        g.zero_();
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        readyBuckets_[g] = torch::Tensor();
        if (shardsGradientsPerMicroStep())
            for (auto& p : groups_[g].parameters)
                p.mutable_grad() = torch::Tensor();
        if (parallelism_ == Parallelism::Zero3)
            release(g);
    }
    microSteps_ = 0;
    synchronised_ = false;
    averaged_ = false;
}

StateBytes ShardedStep::stateBytes() const
{
    StateBytes bytes;
    if (parallelism_ == Parallelism::Zero3)
        for (const auto& s : parameterShards_)
            bytes.parameters += tensorBytes(s);
    else
        for (const auto& group : groups_)
            bytes.parameters += tensorBytes(group.flat);
    if (shardsGradientsPerMicroStep())
        for (const auto& s : gradientShards_)
            bytes.gradients += tensorBytes(s);
    else
        for (const auto& g : fullGradients_) // ZeRO-1's shards are views into these
            bytes.gradients += tensorBytes(g);
    bytes.optimizerState = optimizer_->stateBytes();
    return bytes;
}

void ShardedStep::communicateOnly(int accumulation)
{
    const int ranks = communicator_.worldSize();
    torch::NoGradGuard noGrad;
    std::vector<std::unique_ptr<PendingCollective>> pending;
    const auto waitAll = [&] {
        for (auto& p : pending)
            p->wait();
        pending.clear();
    };
    const auto reduceScatterScratch = [&](std::size_t g) {
        auto bucket = torch::zeros({ groups_[g].padded() }, groups_[g].flat.options());
        auto shard = torch::empty({ groups_[g].shardSize(ranks) }, bucket.options());
        communicator_.reduceScatterSum(bucket, shard)->wait();
    };
    switch (parallelism_) {
    case Parallelism::Ddp:
        for (const std::size_t g : launchOrder_)
            pending.push_back(communicator_.allReduceSum(fullGradients_[g]));
        waitAll();
        break;
    case Parallelism::Zero1:
    case Parallelism::Zero2:
        for (int a = 0; a < (parallelism_ == Parallelism::Zero2 ? accumulation : 1); ++a)
            for (const std::size_t g : launchOrder_) {
                if (parallelism_ == Parallelism::Zero1)
                    pending.push_back(
                        communicator_.reduceScatterSum(fullGradients_[g], gradientShards_[g]));
                else
                    reduceScatterScratch(g);
            }
        waitAll();
        for (std::size_t g = 0; g < groups_.size(); ++g)
            pending.push_back(communicator_.allGather(parameterShards_[g], groups_[g].flat));
        waitAll();
        break;
    case Parallelism::Zero3:
        for (int a = 0; a < accumulation; ++a) {
            if (outerGroup_)
                gather(*outerGroup_);
            for (std::size_t g = 0; g < groups_.size(); ++g) // forward
                if (groups_[g].block) {
                    gather(g);
                    release(g);
                }
            for (const std::size_t g : launchOrder_) { // backward
                gather(g);
                reduceScatterScratch(g);
                release(g);
            }
        }
        break;
    case Parallelism::None:
        break;
    }
    for (auto& g : fullGradients_)
        g.zero_();
    for (auto& g : gradientShards_)
        g.zero_();
}

void ShardedStep::restoreModel()
{
    if (restored_)
        return;
    removeAccumulationHooks();
    if (parallelism_ == Parallelism::Zero3) {
        for (std::size_t g = 0; g < groups_.size(); ++g)
            gather(g);
        ExecutionOptions execution = model_.execution();
        execution.blockHooks = nullptr;
        model_.setExecution(execution);
    }
    for (auto& group : groups_)
        for (auto& p : group.parameters)
            p.mutable_grad() = torch::Tensor();
    unflattenParameters(groups_);
    restored_ = true;
}

} // namespace gpuplan::bench::distributed

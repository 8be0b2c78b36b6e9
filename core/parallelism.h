#pragma once

// How the ranks of a multi-process training run share the work: one definition for the
// benchmark that runs each strategy, the results files that name it, and the planner that
// extrapolates from it (docs/benchmark.md, "Parallel strategies").

#include <optional>
#include <string_view>

namespace gpuplan {

// none: one process, no communicator (the single-GPU path). ddp: replicated parameters,
// gradients all-reduced once per optimizer step. zero1: optimizer state sharded. zero2:
// gradients sharded too. zero3: parameters sharded as well, gathered per block.
enum class Parallelism { None, Ddp, Zero1, Zero2, Zero3 };

// "none", "ddp", "zero1", "zero2", "zero3": the names in results files and on command lines.
std::string_view toString(Parallelism p);
std::optional<Parallelism> parallelismFromString(std::string_view text);

// Which of a GPU's training states the strategy divides among the ranks: 0 none, 1 the
// optimizer state, 2 the gradients too, 3 the parameters as well.
int shardingLevel(Parallelism p);

// The strategies that run on several GPUs, least sharding first: the order in which the
// planner tries them and breaks ties.
inline constexpr Parallelism kDataParallelStrategies[]
    = { Parallelism::Ddp, Parallelism::Zero1, Parallelism::Zero2, Parallelism::Zero3 };

// What a measured strategy is on several GPUs: one process (`none`) is ddp's replica.
Parallelism onSeveralGpus(Parallelism p);

// Bytes of the training states a strategy shards: parameters (ZeRO-3), gradients (ZeRO-2 and
// up) and optimizer state (ZeRO-1 and up).
struct TrainingStates {
    double parameters = 0.0;
    double gradients = 0.0;
    double optimizer = 0.0;
    double total() const { return parameters + gradients + optimizer; }
};
// What each of `ranks` holds of the `whole` states under `p`, and the whole states from what
// one rank held: one rule for the planner's memory checks and a measurement's unsharding.
TrainingStates statesPerRank(const TrainingStates& whole, Parallelism p, int ranks);
TrainingStates wholeStates(const TrainingStates& perRank, Parallelism p, int ranks);

} // namespace gpuplan

#include "core/parallelism.h"

#include <algorithm>

namespace gpuplan {

std::string_view toString(Parallelism p)
{
    switch (p) {
    case Parallelism::None:
        return "none";
    case Parallelism::Ddp:
        return "ddp";
    case Parallelism::Zero1:
        return "zero1";
    case Parallelism::Zero2:
        return "zero2";
    case Parallelism::Zero3:
        return "zero3";
    }
    return "none";
}

std::optional<Parallelism> parallelismFromString(std::string_view text)
{
    for (const auto p : { Parallelism::None, Parallelism::Ddp, Parallelism::Zero1,
             Parallelism::Zero2, Parallelism::Zero3 })
        if (text == toString(p))
            return p;
    return std::nullopt;
}

int shardingLevel(Parallelism p)
{
    switch (p) {
    case Parallelism::Zero1:
        return 1;
    case Parallelism::Zero2:
        return 2;
    case Parallelism::Zero3:
        return 3;
    case Parallelism::None:
    case Parallelism::Ddp:
        break;
    }
    return 0;
}

Parallelism onSeveralGpus(Parallelism p)
{
    return p == Parallelism::None ? Parallelism::Ddp : p;
}

namespace {
// Divides (or, `times`, multiplies) each state `p` shards by the ranks.
TrainingStates scaleSharded(const TrainingStates& states, Parallelism p, int ranks, bool times)
{
    const int level = shardingLevel(p);
    const double n = std::max(1, ranks);
    const auto scaled = [&](double bytes, int from) {
        return level >= from ? (times ? bytes * n : bytes / n) : bytes;
    };
    return { scaled(states.parameters, 3), scaled(states.gradients, 2),
        scaled(states.optimizer, 1) };
}
} // namespace

TrainingStates statesPerRank(const TrainingStates& whole, Parallelism p, int ranks)
{
    return scaleSharded(whole, p, ranks, /*times=*/false);
}

TrainingStates wholeStates(const TrainingStates& perRank, Parallelism p, int ranks)
{
    return scaleSharded(perRank, p, ranks, /*times=*/true);
}

} // namespace gpuplan

#include "core/parallelism.h"

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

} // namespace gpuplan

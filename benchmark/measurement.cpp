#include "benchmark/measurement.h"

namespace gpuplan::bench {

std::string_view toString(Method m)
{
    return m == Method::Naive ? "naive" : "free-lunch";
}

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

namespace {
std::string methodAndStrategy(const Configuration& c)
{
    std::string text(toString(c.method));
    if (c.parallelism != Parallelism::None)
        text.append(" ").append(toString(c.parallelism));
    return text;
}

const char* onOff(bool b)
{
    return b ? "on" : "off";
}
} // namespace

std::string Configuration::label() const
{
    return methodAndStrategy(*this) + " ckpt=" + onOff(checkpointing)
        + " offload=" + onOff(offload);
}

std::string ConfigurationResult::name() const
{
    return methodAndStrategy(configuration) + " mbs=" + std::to_string(microBatch) + " ckpt="
        + onOff(configuration.checkpointing) + " offload=" + onOff(configuration.offload);
}

const ConfigurationResult* RunReport::best() const
{
    const ConfigurationResult* fastest = nullptr;
    for (const auto& c : configurations)
        if (c.feasible() && (!fastest || c.step.median < fastest->step.median))
            fastest = &c;
    return fastest;
}

} // namespace gpuplan::bench

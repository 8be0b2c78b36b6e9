#include "benchmark/measurement.h"

#include <algorithm>

namespace gpuplan::bench {

std::string_view toString(Method m)
{
    return m == Method::Naive ? "naive" : "free-lunch";
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

std::string withoutText(const Configuration& c)
{
    return c.withheld.empty() ? std::string() : " without=" + joinedNames(c.withheld);
}
} // namespace

bool Configuration::uses(FreeLunchPart part) const
{
    return method == Method::FreeLunch
        && std::find(withheld.begin(), withheld.end(), part) == withheld.end();
}

std::string Configuration::label() const
{
    return methodAndStrategy(*this) + " ckpt=" + onOff(checkpointing) + " offload=" + onOff(offload)
        + withoutText(*this);
}

std::string ConfigurationResult::name() const
{
    return methodAndStrategy(configuration) + " mbs=" + std::to_string(microBatch)
        + " ckpt=" + onOff(configuration.checkpointing) + " offload=" + onOff(configuration.offload)
        + withoutText(configuration);
}

const ConfigurationResult* RunReport::best() const
{
    const ConfigurationResult* fastest = nullptr;
    for (const auto& c : configurations)
        // By the mean step, the time the planner prices for it.
        if (c.feasible() && (!fastest || c.stepRun.mean < fastest->stepRun.mean))
            fastest = &c;
    return fastest;
}

} // namespace gpuplan::bench

#include "core/training_estimate.h"

#include <algorithm>
#include <array>
#include <utility>

namespace gpuplan {

namespace {
constexpr std::array<std::pair<SourcePolicy, std::string_view>, 6> kPolicies { {
    { SourcePolicy::Best, "best" },
    { SourcePolicy::Paper, "paper" },
    { SourcePolicy::PaperNaive, "paper-naive" },
    { SourcePolicy::Analytic, "analytic" },
    { SourcePolicy::Measured, "measured" },
    { SourcePolicy::Extrapolated, "extrapolated" },
} };
} // namespace

std::string_view toString(EstimateSource s)
{
    switch (s) {
    case EstimateSource::Paper:
        return "paper";
    case EstimateSource::PaperNaive:
        return "paper-naive";
    case EstimateSource::Analytic:
        return "analytic";
    case EstimateSource::Measured:
        return "measured";
    case EstimateSource::Extrapolated:
        return "extrapolated";
    }
    return "analytic";
}

std::string_view toString(SourcePolicy p)
{
    for (const auto& [value, name] : kPolicies)
        if (value == p)
            return name;
    return "best";
}

std::optional<SourcePolicy> sourcePolicyFromString(std::string_view text)
{
    for (const auto& [value, name] : kPolicies)
        if (name == text)
            return value;
    return std::nullopt;
}

std::string_view toString(EstimateFlag f)
{
    switch (f) {
    case EstimateFlag::ExceedsPeak:
        return "exceeds_peak";
    case EstimateFlag::Suspect:
        return "suspect";
    case EstimateFlag::UnsynchronisedTiming:
        return "unsynchronised_timing";
    case EstimateFlag::NoPeakKnown:
        return "no_peak_known";
    case EstimateFlag::PerfectScaling:
        return "perfect_scaling";
    case EstimateFlag::MultiInstance:
        return "multi_instance";
    case EstimateFlag::OverNetwork:
        return "over_network";
    case EstimateFlag::ExchangeBound:
        return "exchange_bound";
    }
    return "";
}

std::string_view label(EstimateFlag f)
{
    switch (f) {
    case EstimateFlag::ExceedsPeak:
        return "above peak";
    case EstimateFlag::Suspect:
        return "suspect";
    case EstimateFlag::UnsynchronisedTiming:
        return "unsynchronised timing";
    case EstimateFlag::NoPeakKnown:
        return "no peak known";
    case EstimateFlag::PerfectScaling:
        return "perfect scaling";
    case EstimateFlag::MultiInstance:
        return "several instances";
    case EstimateFlag::OverNetwork:
        return "over the network";
    case EstimateFlag::ExchangeBound:
        return "exchange-bound";
    }
    return "";
}

std::string_view describe(EstimateFlag f)
{
    switch (f) {
    case EstimateFlag::ExceedsPeak:
        return "Implied utilisation is above 100% of the GPUs' peak: physically impossible, "
               "so this time is too short.";
    case EstimateFlag::Suspect:
        return "Implied utilisation is 75% of peak or more, far above what real training "
               "reaches; treat this time as optimistic.";
    case EstimateFlag::UnsynchronisedTiming:
        return "From the paper's tables, whose timer never synchronised the GPU.";
    case EstimateFlag::NoPeakKnown:
        return "No peak throughput is known for this GPU and precision, so utilisation "
               "cannot be checked.";
    case EstimateFlag::PerfectScaling:
        return "No bus bandwidth is known between these GPUs, so the estimate leaves out "
               "their exchange of gradients (and of parameters, where sharded) and assumes "
               "they train as many times faster as there are GPUs; treat this time as "
               "optimistic.";
    case EstimateFlag::MultiInstance:
        return "Needs several cloud instances, which exchange gradients over the provider's "
               "network; the offer lists no network rate, or the time is one machine's (a paper "
               "table or a measurement), so the estimate assumes they train as fast as one "
               "machine with the same GPUs: treat this time as optimistic.";
    case EstimateFlag::OverNetwork:
        return "Needs several cloud instances, whose exchange of gradients is priced over the "
               "network the offer lists at half its rate, what NCCL reached over TCP on tuned "
               "data-centre networks; no one measured this link, and over the internet (Vast.ai) "
               "or an overlay (RunPod's pods) it may be slower still.";
    case EstimateFlag::ExchangeBound:
        return "The GPUs spend more of this time exchanging gradients (and parameters, where "
               "sharded) than computing, below half the speed their compute alone would give: "
               "their link, not the GPUs, sets the time, and more GPUs over it buy little; "
               "fewer GPUs or a faster link may cost less per run.";
    }
    return "";
}

bool exchangeBound(double computeDays, double days)
{
    return computeDays > 0.0 && days > 2.0 * computeDays;
}

bool TrainingEstimate::hasFlag(EstimateFlag f) const
{
    return std::find(flags.begin(), flags.end(), f) != flags.end();
}

} // namespace gpuplan

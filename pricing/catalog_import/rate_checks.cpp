#include "pricing/catalog_import/rate_checks.h"

#include "core/limits.h"
#include "pricing/yaml_reader.h"

namespace gpuplan::catalog_import {

namespace {

enum class RateState { Empty, Zero, Implausible, Usable };

RateState judge(const std::optional<double>& rate, int gpus)
{
    if (!rate)
        return RateState::Empty;
    if (*rate == 0.0)
        return RateState::Zero;
    if (!limits::kHourlyUsd.bounds.contains(*rate) || *rate / gpus > maxUsdPerGpuHour())
        return RateState::Implausible;
    return RateState::Usable;
}

std::string stateWord(RateState state)
{
    switch (state) {
    case RateState::Empty:
        return "empty";
    case RateState::Zero:
        return "0 (a placeholder)";
    case RateState::Implausible:
        return "implausible";
    case RateState::Usable:
        break;
    }
    return "usable";
}

std::string implausibleText(const char* which)
{
    return std::string(which) + " rate left out: above the plausible $"
        + yaml::formatNumber(maxUsdPerGpuHour()) + " per GPU-hour (a placeholder)";
}

} // namespace

double maxUsdPerGpuHour()
{
    return limits::kHourlyUsd.bounds.max / limits::kGpusPerInstance.bounds.max;
}

bool dropSpotNotBelowOnDemand(std::optional<double>& spot, const std::optional<double>& onDemand)
{
    if (spot && onDemand && *spot >= *onDemand) {
        spot.reset();
        return true;
    }
    return false;
}

std::optional<std::string> checkRates(CatalogRow& row, int gpus, std::vector<AdjustedRow>& adjusted)
{
    const RateState onDemand = judge(row.onDemandUsd, gpus);
    const RateState spot = judge(row.spotUsd, gpus);
    if (onDemand != RateState::Usable && spot != RateState::Usable)
        return "no usable price: on-demand " + stateWord(onDemand) + ", spot " + stateWord(spot);
    if (onDemand == RateState::Zero)
        adjusted.push_back(
            { row.line(), "on-demand rate 0 left out: a placeholder, not a free GPU" });
    if (onDemand == RateState::Implausible)
        adjusted.push_back({ row.line(), implausibleText("on-demand") });
    if (spot == RateState::Zero)
        adjusted.push_back({ row.line(), "spot rate 0 read as no spot offer" });
    if (spot == RateState::Implausible)
        adjusted.push_back({ row.line(), implausibleText("spot") });
    if (onDemand != RateState::Usable)
        row.onDemandUsd.reset();
    if (spot != RateState::Usable)
        row.spotUsd.reset();
    if (dropSpotNotBelowOnDemand(row.spotUsd, row.onDemandUsd))
        adjusted.push_back({ row.line(), kSpotNotBelowOnDemand });
    return std::nullopt;
}

} // namespace gpuplan::catalog_import

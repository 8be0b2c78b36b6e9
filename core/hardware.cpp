#include "core/hardware.h"

namespace gpuplan {

std::optional<double> GpuSpec::peakTflopsFor(Precision p) const
{
    auto lookup = [this](Precision key) -> std::optional<double> {
        if (auto it = peakTflops.find(key); it != peakTflops.end())
            return it->second;
        return std::nullopt;
    };
    if (p == Precision::FP32) {
        // fp32 recipes run their matrix products in TF32 where the GPU has it (free lunch).
        if (auto tf32 = lookup(Precision::TF32))
            return tf32;
    }
    return lookup(p);
}

const SystemSpec* systemFor(
    const std::string& gpuId, int gpuCount, const std::vector<SystemSpec>& systems)
{
    const SystemSpec* best = nullptr;
    for (const auto& s : systems)
        if (s.gpuId == gpuId && s.gpuCount == gpuCount && (!best || s.priceUsd < best->priceUsd))
            best = &s;
    return best;
}

PowerSupplyFit ChassisSpec::powerSupplyFit(int gpuCount, double gpuWatts) const
{
    if (powerSupplies.count == 0)
        return PowerSupplyFit::NotChecked;
    const double draw = ratedDrawWatts(gpuCount, gpuWatts);
    if (draw > powerSupplies.totalWatts())
        return PowerSupplyFit::Short;
    if (powerSupplies.count > 1 && draw > powerSupplies.wattsWithOneSpare())
        return PowerSupplyFit::NoSpare;
    return PowerSupplyFit::Fits;
}

const ChassisSpec* smallestChassisFor(int gpuCount, const std::vector<ChassisSpec>& chassis)
{
    const ChassisSpec* best = nullptr;
    for (const auto& c : chassis) {
        if (c.gpuSlots < gpuCount)
            continue;
        if (!best || c.gpuSlots < best->gpuSlots
            || (c.gpuSlots == best->gpuSlots && c.priceUsd < best->priceUsd))
            best = &c;
    }
    return best;
}

} // namespace gpuplan

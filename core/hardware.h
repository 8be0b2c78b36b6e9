#pragma once

#include "core/precision.h"
#include "core/provenance.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

// A dated purchase price other than the one the planner uses (resale, retail, server quote).
struct PricePoint {
    double usd = 0.0;
    Provenance source;
};

struct GpuSpec {
    std::string id; // stable key used in every file: "a100-80gb-sxm"
    std::string name; // display name: "A100 SXM 80GB"
    double memoryGb = 0.0; // as the vendor states it (decimal GB)
    // Dense (no sparsity) peak, TFLOP/s, per precision. A missing precision means "no peak
    // known" and estimates that need it are not made, never guessed.
    std::map<Precision, double> peakTflops;
    double boardPowerWatts = 0.0;
    std::optional<double> priceUsd; // purchase price; absent = cloud-only GPU
    Provenance specSource;
    Provenance priceSource;
    std::vector<PricePoint> otherPrices; // shown for context, never used in costs
    // Names a CUDA device reports for this GPU ("NVIDIA A100-SXM4-80GB"), used by the
    // benchmark to find the peak of the local device.
    std::vector<std::string> deviceNames;

    // Peak used for a workload trained in `p`: fp32 trains in TF32 where the GPU has it.
    std::optional<double> peakTflopsFor(Precision p) const;
};

// A chassis's power supplies as its build lists them (the paper's Appendix H: 2 x 3,200 W in
// the 8-GPU server). Unknown where count is 0: then no build is checked for power.
struct PowerSupplies {
    int count = 0;
    double wattsEach = 0.0;
    Provenance source;

    double totalWatts() const { return count * wattsEach; }
    // With one supply failed or pulled, what the rest give: 0 for a single supply.
    double wattsWithOneSpare() const { return count > 1 ? (count - 1) * wattsEach : 0.0; }
};

// How a chassis's supplies meet the rated draw of the cards put in it. The paper priced SXM
// cards in its desktops (2 x H100: 1,625 W on a 1,600 W supply), so a build is flagged, never
// refused or moved to another chassis: its figures stay the paper's.
enum class PowerSupplyFit {
    NotChecked, // the supplies are not listed, or the machine is a system sold whole
    Fits, // with a supply to spare where there are several
    NoSpare, // only all its supplies together feed it: one out, and the rest fall short
    Short, // more than all its supplies together give
};

struct ChassisSpec {
    std::string id;
    std::string name;
    int gpuSlots = 0;
    double priceUsd = 0.0;
    double basePowerWatts = 0.0; // CPUs, memory, drives, fans: everything but the GPUs
    Provenance priceSource;
    Provenance powerSource;
    PowerSupplies powerSupplies;

    // What `gpuCount` cards of `gpuWatts` each and the rest of the machine draw at their rated
    // power, in W.
    double ratedDrawWatts(int gpuCount, double gpuWatts) const
    {
        return gpuCount * gpuWatts + basePowerWatts;
    }
    PowerSupplyFit powerSupplyFit(int gpuCount, double gpuWatts) const;
};

// A machine sold whole with its GPUs (an HGX or DGX server): SXM GPUs are not sold as cards,
// so "chassis + n x card" cannot price them.
struct SystemSpec {
    std::string id;
    std::string name;
    std::string gpuId;
    int gpuCount = 0;
    double priceUsd = 0.0; // GPUs included
    double basePowerWatts = 0.0; // everything but the GPUs
    Provenance priceSource;
    Provenance powerSource;
};

// A purchasable machine: n identical GPUs, either a system sold with exactly those GPUs or the
// smallest chassis that holds n cards.
struct Machine {
    const GpuSpec* gpu = nullptr;
    int gpuCount = 0;
    const ChassisSpec* chassis = nullptr;
    const SystemSpec* system = nullptr; // set: the whole machine's price and base power
};

// The system sold with exactly `gpuCount` of `gpuId` (the cheapest if several); nullptr if none.
const SystemSpec* systemFor(
    const std::string& gpuId, int gpuCount, const std::vector<SystemSpec>& systems);

// Smallest chassis (fewest slots, then cheapest) with at least `gpuCount` slots; nullptr if none.
const ChassisSpec* smallestChassisFor(int gpuCount, const std::vector<ChassisSpec>& chassis);

} // namespace gpuplan

#pragma once

// Buying a machine against renting the same GPUs for the planned runs, on the break-even's own
// terms, so that the two never disagree: the net price (after resale) plus the planned runs at
// the buy cost per run, against the runs at the cheapest pay-as-you-go cost of the same GPUs.

#include "core/evaluate.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace gpuplan {

struct PlanVerdict {
    std::size_t cloudIndex = 0; // the way to rent the same GPUs compared with
    Pricing pricing = Pricing::OnDemand; // how that offer is paid for here
    int runs = 0; // assumptions.plannedRuns
    double buyUsd = 0.0;
    double rentUsd = 0.0;
    bool buyingCheaper = false; // false on a tie: renting commits no capital
    // With ranges: whether the cheaper way stays cheaper with every input at either end of its
    // range, i.e. the runs lie outside the break-even's whole range. nullopt without ranges.
    std::optional<bool> firm;
    // The runs at the machine's run rate, and whether that outlasts its life: buying for them
    // would then take a second machine, which neither total counts.
    double months = 0.0;
    bool outlastsLife = false;
};

// Against the option's cheapest way to rent the same GPUs, or, where `chosenOffers` (indices
// into Results::cloud) names some, the cheapest pay-as-you-go price among them, as the
// break-evens against those offers are stated. nullopt when there is nothing to compare with.
std::optional<PlanVerdict> planVerdict(const Results& results, std::size_t optionIndex,
    const std::vector<std::size_t>& chosenOffers = {});

} // namespace gpuplan

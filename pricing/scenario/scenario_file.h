#pragma once

// Scenario files (`.gpuplan.yaml`): everything the user set in the planner (model, estimate
// source, budget, deadline, GPUs and counts, assumptions), so a plan can be reopened and shared.
// The catalog is not part of it: prices come from the shipped and user tables.
//
//   schema_version: 1
//   kind: gpuplan-scenario
//   model: pythia-1b
//   source: best
//   price_set: current         # optional; the shipped price set planned with (current, paper)
//   budget_usd: 40000          # optional
//   deadline_days: 30          # optional
//   gpu_counts: [1, 2, 4, 8]
//   gpus: [a100-80gb-sxm]      # optional; absent = every GPU with a price
//   assumptions: {amortization_years: 5, machine_utilization: 1.0, electricity_usd_per_kwh: 0.13,
//                 pue: 1.58, spot_restart_overhead: 0.1, indirect_rate: 0,
//                 analytic_utilization: 0.4, planned_runs: 1, runs_per_month: 1}
//   grant: {years: 3, start: 2027-01, runs_per_year: [3, 4, 3],   # optional; runs_per_year
//           equipment_year: 1, sponsor: us-federal}               # absent: spread evenly
//   view:                                                   # optional
//     log_axes: true
//     buy_vs_rent: {gpu: a100-80gb-sxm, gpu_count: 8, axis: months,
//                   offers: [{offer: lambda-8xa100-80gb, gpu_count: 8}]}
//     budget: {gpu: a100-80gb-sxm, gpu_count: 4}    # or {offer: lambda-8xa100-80gb, gpu_count: 8}

#include "core/costing/grant_budget.h"
#include "core/evaluate.h"
#include "pricing/load_issue.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan {

inline constexpr std::string_view kScenarioSuffix = ".gpuplan.yaml";

// How the plan was looked at in the desktop planner: not part of the cost model (core/ never
// sees it), but reopening a file shows the same charts. Unset fields leave the views as they are.
// A cloud offer ticked in Buy vs rent: the offer's id and the GPU count it was priced for
// (one offer appears once per count), stable across price edits, unlike a row index.
struct ScenarioCloudChoice {
    std::string offerId;
    int gpuCount = 0;

    bool operator==(const ScenarioCloudChoice&) const = default;
};

struct ScenarioView {
    std::optional<bool> logAxes; // the Planner's log axes
    std::optional<std::string> buyGpuId; // the Buy vs rent machine: GPU and count
    std::optional<int> buyGpuCount;
    std::optional<bool> buyMonths; // x axis in months at the run rate (else runs)
    std::optional<std::vector<ScenarioCloudChoice>> buyOffers; // the ticked offers
    // What the Budget tab budgets: a machine (GPU and count) or a way to rent.
    std::optional<std::string> budgetGpuId;
    std::optional<int> budgetGpuCount;
    std::optional<ScenarioCloudChoice> budgetOffer;
    // With budgetOffer: by the offer's reserved terms, not its cheapest pay-as-you-go rate
    // (`terms: reserved`).
    bool budgetReservedTerms = false;

    bool operator==(const ScenarioView&) const = default;
};

// The grant a budget is written for (the Budget tab, `gpuplan-cli budget`'s options): part of
// the plan, so it is saved with it. The sponsor is an id of the catalog's sponsor presets; one
// the catalog does not know is the caller's to report, like an unknown model.
struct ScenarioGrant {
    GrantPlan plan;
    std::optional<std::string> sponsorId;

    bool operator==(const ScenarioGrant&) const = default;
};

struct ScenarioRead {
    std::optional<Scenario> scenario; // catalog left null: the caller supplies its own
    std::optional<std::string> priceSet; // absent in files written before price sets
    ScenarioView view;
    std::optional<ScenarioGrant> grant; // absent: the Budget tab's defaults
    std::vector<LoadIssue> issues; // file:line:column for each problem
};

// Reads a scenario; missing assumptions keep the values of `defaults` (and their provenance).
// With `catalog`, its ids are checked at their line and column: a model it does not know is an
// error; a GPU it does not know is warned about and left out of the selection (a file saved
// before a GPU left the tables still opens).
ScenarioRead readScenario(std::string_view text, const std::string& fileName,
    const Assumptions& defaults, const Catalog* catalog = nullptr);

// The scenario as YAML, which readScenario reads back to the same settings; `price_set` is the
// scenario's catalog's.
std::string writeScenario(const Scenario& scenario, const ScenarioView& view = {},
    const std::optional<ScenarioGrant>& grant = std::nullopt);

} // namespace gpuplan

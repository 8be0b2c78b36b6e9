#pragma once

#include "core/catalog.h"
#include "core/costing/indirect.h"
#include "core/costing/owning.h"
#include "core/costing/renting.h"
#include "core/training_estimate.h"
#include "core/uncertainty.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

// What the user set. The catalog is shared and immutable; a scenario is cheap to copy.
struct Scenario {
    std::shared_ptr<const Catalog> catalog;
    std::string modelId;
    SourcePolicy source = SourcePolicy::Best;
    std::vector<int> gpuCounts { 1, 2, 4, 8 };
    // The GPUs to buy and to rent; empty = every GPU with a purchase price, every offer.
    std::vector<std::string> gpuIds;
    Assumptions assumptions; // usually catalog->defaults, edited by the user
    std::optional<double> budgetUsd; // hardware budget for "fastest within budget"
    std::optional<double> deadlineDays; // for "cheapest within deadline"
    // The sponsor whose rules put each cost in or out of the indirect (F&A) base
    // (Catalog::sponsors), in every per-run cost, break-even and plan as in the grant budget.
    // Empty: cloudSpendOnlyRules() (F&A on cloud spend only, every machine exempt equipment).
    std::string sponsorId;
    // The day the plan is made (YYYY-MM-DD), to age every price; empty: prices are not aged.
    // Views pass the clock's date; tests fix it.
    std::string today;
    // Where the uncertain inputs sit in their ranges (core/uncertainty.h); all 0: the stated
    // values. Sensitivity moves one input at a time through this.
    InputPositions positions;
    // Fill the *Range fields of the results (four more evaluations, at the ends of the inputs).
    bool ranges = true;
    // Seeded Monte Carlo: this many sampled scenarios for p10/p50/p90 and the recommendation's
    // robustness (Results::monteCarlo); 0: none.
    int monteCarloSamples = 0;
    std::uint64_t seed = 1;
};

// A break-even as a range: low with every input at the end that favours buying, high at the
// end that favours renting. nullopt: at that end buying never pays off.
struct BreakEvenRange {
    std::optional<double> low;
    std::optional<double> high;
};

// `range` ordered and holding `value` (its point): months need not follow the runs, since at
// the corner in buying's favour fewer, longer runs fit a month. An end that is missing stays
// missing (never: unbounded, so it holds any value), and the other end still holds the value.
BreakEvenRange spanningItsValue(BreakEvenRange range, std::optional<double> value);

// How old one price is on Scenario::today.
struct PriceAge {
    std::optional<int> months; // nullopt: undated, or no today given
    bool stale = false; // older than assumptions.staleMonths (or undated)
    // Which of a machine's prices it is ("GPU", "system", "chassis"; where stale, every stale
    // one: "GPU and chassis"): a fresh GPU price with a stale chassis was flagged "stale price",
    // and the price tables showed the GPU's as fresh. Empty for a rental's rate.
    std::string of;
};

// Buying a machine against one pay-as-you-go price (on-demand or spot) of one cloud offer of
// the same GPUs and count. Reservations are commitments, not per-run prices: no break-even.
struct OfferBreakEven {
    std::size_t cloudIndex = 0; // into Results::cloud
    Pricing pricing = Pricing::OnDemand;
    double costPerRunUsd = 0.0;
    // nullopt: renting stays cheaper per run than buying's cost per run (buyCostPerRunUsd).
    std::optional<double> runs;
    std::optional<double> months; // at the machine's run rate (OwnedOption::runsPerMonth)
    bool withinLifespan = false; // those months end within the machine's life
    BreakEvenRange runsRange;
};

// One machine the user could buy.
struct OwnedOption {
    const GpuSpec* gpu = nullptr;
    const ChassisSpec* chassis = nullptr; // for n cards; null when a system is bought
    const SystemSpec* system = nullptr; // a machine sold with its GPUs (HGX, DGX)
    int gpuCount = 0;
    // How the chassis's supplies meet the cards' rated draw: the paper's 8-GPU server (2 x
    // 3,200 W) with 8 RTX 3090s (3,270 W) has none to spare, its 2-GPU desktop (1,600 W) with
    // 2 H100 SXM (1,625 W) falls short. A build made for those cards may cost more.
    PowerSupplyFit powerSupplyFit = PowerSupplyFit::NotChecked; // a system: not checked
    TrainingEstimate estimate;
    double machineCostUsd = 0.0;
    OwningCosts owning; // beyond the price: hosting, support, staff, resale (0 by default)
    double experimentCostUsd = 0.0; // amortised (the paper's Fig. 7 bottom)
    double energyCostUsd = 0.0; // per run
    double powerKw = 0.0; // drawn from the grid (PUE included)
    // Buying against renting: the net price (price - resale) up front, then per run the
    // electricity and the owning costs of the months a run takes at runsPerMonth.
    double netCapexUsd = 0.0;
    double buyCostPerRunUsd = 0.0;
    // The oldest of the machine's prices (GPU card or system, chassis).
    PriceAge priceAge;
    std::string priceDate; // that price's date
    bool paretoHardware = false; // on the days-vs-machine-cost frontier
    bool paretoExperiment = false; // on the days-vs-per-experiment-cost frontier
    bool withinBudget = true;
    bool withinDeadline = true;
    // The project plan: plannedRuns back to back.
    // Machine less its resale value + energy + monthly owning costs, for all runs: the plan
    // verdict's buy total.
    double planTotalUsd = 0.0;
    double planAmortizedUsd = 0.0; // per-experiment + energy, for all runs
    double planCalendarDays = 0.0;
    // Against the cheapest on-demand cloud offer of the same GPU and count, if any.
    std::optional<std::size_t> cheapestCloudIndex;
    std::optional<double> breakEvenRuns;
    // At runsPerMonth.
    std::optional<double> breakEvenMonths;
    // Those months end within the machine's life (assumptions.amortizationYears); past it, the
    // machine is retired before buying pays off at this run rate.
    bool breakEvenWithinLifespan = false;
    // The run rate the months are counted at: assumptions.runsPerMonth, capped at what the
    // machine fits back to back.
    double runsPerMonth = 0.0;
    // Against every on-demand and spot price of every offer of the same GPUs and count, in the
    // order of Results::cloud, on-demand before spot.
    std::vector<OfferBreakEven> breakEvens;
    // Ranges (Scenario::ranges): each figure with every input at its low and high end.
    Interval daysRange; // the estimate's daysLow..daysHigh
    Interval machineCostRange;
    Interval netCapexRange;
    Interval experimentCostRange;
    Interval energyCostRange;
    Interval buyCostPerRunRange;
    Interval planTotalRange;
    Interval planAmortizedRange;
    BreakEvenRange breakEvenRunsRange; // against cheapestCloudIndex at its point pricing
    BreakEvenRange breakEvenMonthsRange;
};

// One way to rent the same work.
// A reservation against paying on demand for the plan: the term is paid whatever the runs use.
struct Commitment {
    double years = 0.0;
    double termCostUsd = 0.0; // every hour of the term, for the rates a run bills, F&A on
    double runsInTerm = 0.0; // how many runs fit into the term back to back
    // Runs from which the commitment costs less than paying on demand for them (nullopt when
    // there is no on-demand rate to compare with).
    std::optional<double> breakEvenRuns;
    // Its range (Results::hasRanges): the term over a run's on-demand cost at each end of the
    // training days. An offer's reserved and on-demand rates move together (one list), so the
    // days move it, and the two cost corners give its ends.
    std::optional<Interval> breakEvenRunsRange;
    // The offer whose on-demand rate breakEvenRuns compares with where it is not the term's
    // own: an offer of terms only, set beside its instance's on-demand offer (same provider,
    // GPUs per instance and region; AWS's P4 terms, dated apart from its post-cut on-demand
    // rate). Empty: the offer's own rate, or none.
    std::string onDemandOfferId;
    // Terms the plan's runs take one after another (reservationTerms at the run rate).
    int termsForPlan = 0;
    // Those terms cost the plan less than its runs on demand. (Until 2026-11-28 only a plan
    // that fit into one term could: 10 runs needing two 1-year terms at $92,768 were said not
    // to beat $106,272 on demand.)
    bool beatsOnDemandForPlan = false;
    // The same verdict at the low and the high cost corner (Results::hasRanges), where the
    // training days move both the break-even and the runs that fit into the term: where either
    // differs from beatsOnDemandForPlan, the ranges leave the verdict open.
    std::optional<bool> beatsOnDemandAtLowCost;
    std::optional<bool> beatsOnDemandAtHighCost;
};

struct CloudOption {
    const CloudOffer* offer = nullptr;
    const GpuSpec* gpu = nullptr;
    int gpuCount = 0; // GPUs used for the run
    // Machines rented (instancesNeeded): more than one exchange gradients over the provider's
    // network, priced where the offer lists it (flagged over_network), else not (the time is one
    // machine's, flagged multi_instance).
    int instances = 0;
    int ratesBilled = 0; // the offer's hourly rates paid for (ratesBilled): 8 for a pod of 8 GPUs
    TrainingEstimate estimate;
    std::optional<double> onDemandCostUsd;
    std::optional<double> spotCostUsd;
    std::vector<double> reservedCostUsd; // one per offer->reserved, same order
    std::vector<Commitment> commitments; // one per offer->reserved, same order
    // The lowest pay-as-you-go cost (on-demand or spot). A reservation is paid for its whole
    // term whether used or not, so its per-run cost only counts when nothing else is offered.
    std::optional<double> cheapestCostUsd;
    Pricing cheapestPricing = Pricing::OnDemand;
    std::optional<double> cheapestReservedYears; // the term, when the cheapest is a reservation
    bool cheapestIsCommitment = false; // only a reservation: not pay-as-you-go
    double spotDays = 0.0; // a run's length on spot instances (restarts included)
    // Allocations and shared clusters: days before the first run (applying) and per run
    // (queueing), counted into the plan's calendar days.
    double waitDaysPerRun = 0.0;
    PriceAge rateAge;
    // plannedRuns at the cheapest rate; an offer of reservations only: the whole terms they take.
    double planTotalUsd = 0.0;
    // An offer of reservations only: what a planned run costs in those whole terms
    // (planTotalUsd / plannedRuns), the figure to set beside pay-as-you-go per-run costs: the
    // term's rate per run (cheapestCostUsd) leaves out the hours paid for and not used (the
    // paper's AWS p4de 5-year term: $4,968 a run at the rate, about $50k a run of a 20-run
    // plan). nullopt otherwise.
    std::optional<double> termsPerPlannedRunUsd;
    // Any offer that lists reserved terms: the whole terms of the term that costs the planned
    // runs least (for an offer of terms only, its planTotalUsd). Where the offer also rents by
    // the hour, what budgeting it by its terms would cost the plan (the Budget tab ranks such
    // offers by it).
    std::optional<double> reservedTermsPlanUsd;
    double planCalendarDays = 0.0;
    // Ranges (Scenario::ranges), as for OwnedOption.
    Interval daysRange;
    std::optional<Interval> onDemandCostRange;
    std::optional<Interval> spotCostRange;
    // A spot run's days (spotDays) at the corners spotCostRange is at: the run's days and the
    // restart overhead, each at its own range (not daysRange scaled by the stated overhead).
    Interval spotDaysRange;
    Interval cheapestCostRange;
    Interval planTotalRange;
};

// Why a (GPU, count) has no option: structured, so that each view words it its own way.
enum class UnavailableReason {
    NoChassis, // no chassis has that many GPU slots
    SoldOnlyAsSystem, // no card price, and no system of that count (detail: the counts sold)
    Infeasible, // the source says it does not fit (detail: the source's note)
    // The analytic estimate's GPUs cannot hold the model's training state: only offloading to
    // CPU memory trains it, at a speed FLOPs cannot tell (detail: the estimate's note).
    NeedsOffloading,
    NoEstimate, // the source has nothing for it
    NoPrice, // the price set has no price for the GPU (reported where asked for by --gpus, or
             // where a source other than the analytic one has a time for it)
};

// An (GPU, count) the source knows to be infeasible, or has no estimate for.
struct Unavailable {
    std::string gpuId;
    int gpuCount = 0;
    UnavailableReason reason = UnavailableReason::NoEstimate;
    // Infeasible: where it is published as such ("published so in the paper, Table 1 ..."),
    // which views put after "infeasible: "; NeedsOffloading: why the state does not fit.
    std::string detail;
};

// Which rule chose Results::recommended (views word it with the budget and deadline).
enum class RecommendationRule {
    None, // no budget and no deadline: nothing to recommend
    FastestWithinBudget,
    CheapestWithinDeadline,
    CheapestWithinBoth,
};

// Something the views should tell the user about the scenario as a whole.
struct Warning {
    enum class Kind {
        NoCatalog,
        UnknownModel, // subject: the model id
        OfferUnknownGpu, // subject: the offer id, detail: the GPU id
        // subject: the model id; detail: the devices it was measured on that the GPU table does
        // not know, "name (file)", comma-separated (empty: none)
        NoEstimateForAnyMachine,
        // One run takes longer than the machine's life (the amortisation period), so its share
        // of the machine exceeds the price. subject: the GPU's name; detail: the GPU counts,
        // comma-separated ("1,2").
        RunOutlastsLife,
        // Scenario::sponsorId is not among the catalog's sponsors: F&A falls on cloud spend
        // only. subject: the sponsor id.
        UnknownSponsor,
    };
    Kind kind = Kind::NoCatalog;
    std::string subject;
    std::string detail;
};

// p10, p50 and p90 of a sampled figure. Break-even runs count "never" as +infinity.
struct Percentiles {
    double p10 = 0.0;
    double p50 = 0.0;
    double p90 = 0.0;
};

struct OptionSamples {
    Percentiles trainingDays;
    Percentiles machineCostUsd;
    Percentiles experimentCostUsd;
    Percentiles breakEvenRuns; // against the cheapest way to rent the same GPUs
    double paysOffShare = 0.0; // share of samples in which buying pays off within its life
};

// Seeded Monte Carlo over every input's range (triangular, mode at the stated value; each
// estimate, price and rate drawn on its own, the assumptions once per sample).
struct MonteCarloSummary {
    int samples = 0;
    std::uint64_t seed = 0;
    std::vector<OptionSamples> options; // by index into Results::options
    // Per option: the share of samples in which it is the recommended one.
    std::vector<double> recommendedShare;
    double noRecommendationShare = 0.0; // samples in which nothing meets the budget/deadline
};

struct Results {
    const Workload* workload = nullptr;
    std::string priceSet; // the catalog's shipped price set
    std::string today; // the day price ages are counted to (Scenario::today)
    SourcePolicy source = SourcePolicy::Best;
    Assumptions assumptions;
    std::optional<double> budgetUsd;
    std::optional<double> deadlineDays;
    // The rules the indirect rate was applied by: the scenario's sponsor's, or
    // cloudSpendOnlyRules() where it names none (or one the catalog lacks).
    SponsorRules indirectRules = cloudSpendOnlyRules();
    // Feasible, by GPU (the catalog's order, or Scenario::gpuIds' where it names some), then count.
    std::vector<OwnedOption> options;
    std::vector<CloudOption> cloud; // in the catalog's offer order, then by count
    std::vector<Unavailable> unavailable;
    // Offers left out because no source times the model on their GPUs at any count they rent
    // (bf16 on a V100, which has no bf16 peak: nothing is guessed), listed rather than dropped
    // without a word; only for the best and analytic sources, where such a gap is not the
    // source's own choice. In the tables' order.
    struct UntimedOffer {
        const CloudOffer* offer = nullptr;
        const GpuSpec* gpu = nullptr;
        // Why: the training state does not fit the GPUs' memory at any count rented (an
        // infeasible estimate), else no source has an estimate at all (no peak for the
        // model's precision).
        bool stateDoesNotFit = false;
    };
    std::vector<UntimedOffer> untimedOffers;
    RecommendationRule recommendationRule = RecommendationRule::None;
    std::optional<std::size_t> recommended; // index into options; none: no machine meets them
    // The option the rule would have picked had a time above its GPUs' peak counted: a machine
    // cannot train faster than its peak, so outside the paper's own tables such a time is not a
    // candidate (recommendationSetAside words it). None when it would have picked the same.
    std::optional<std::size_t> setAsideAbovePeak;
    std::vector<Warning> warnings;
    bool hasRanges = false; // the *Range fields are filled
    std::optional<MonteCarloSummary> monteCarlo;
};

// How firm the recommendation is: the share of sampled cases in which the recommended option
// is still the one chosen, and the option chosen most often otherwise. Needs Monte Carlo and a
// recommendation rule.
struct RecommendationRobustness {
    double share = 0.0;
    std::optional<std::size_t> alternative; // index into Results::options
    double alternativeShare = 0.0;
    double noneShare = 0.0; // nothing meets the rule
};
std::optional<RecommendationRobustness> recommendationRobustness(const Results& results);

// The machine the buy-vs-rent comparison and the report default to: the recommended one, else
// the cheapest per experiment among those whose time does not exceed the GPUs' peak and that
// an offer rents (dropping the second condition, then the first, where none meets them);
// nullopt without options.
std::optional<std::size_t> defaultMachineToCompare(const Results& results);

// Indices into results.cloud of the offers with the same GPU type and count as the option.
std::vector<std::size_t> matchingCloudOffers(const Results& results, std::size_t optionIndex);
// The other way: the machine to buy with the same GPU type and count as cloud option
// `cloudIndex`; nullopt where none is sold.
std::optional<std::size_t> matchingOwnedOption(const Results& results, std::size_t cloudIndex);

// The only place costs are computed. Pure: same scenario, same results. An unknown model id
// yields Results with workload == nullptr and a warning.
Results evaluate(const Scenario& scenario);

} // namespace gpuplan

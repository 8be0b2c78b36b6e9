#include "core/evaluate.h"

#include "core/costing/break_even.h"
#include "core/costing/calendar.h"
#include "core/costing/owning.h"
#include "core/costing/plan.h"
#include "core/costing/reservation.h"
#include "core/decisions.h"
#include "core/estimators.h"
#include "core/instance_network.h"
#include "core/price_age.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace gpuplan {

namespace {

// A GPU can be bought as cards (it has a price) or inside a system of some count.
bool purchasable(const Catalog& c, const GpuSpec& g)
{
    return g.priceUsd || std::any_of(c.systems.begin(), c.systems.end(), [&g](const SystemSpec& s) {
        return s.gpuId == g.id;
    });
}

// The GPUs the scenario names (Scenario::gpuIds), else every GPU of the catalog.
std::vector<const GpuSpec*> consideredGpus(const Scenario& s)
{
    std::vector<const GpuSpec*> gpus;
    if (s.gpuIds.empty()) {
        for (const auto& g : s.catalog->gpus)
            gpus.push_back(&g);
        return gpus;
    }
    for (const auto& id : s.gpuIds)
        if (const auto* g = s.catalog->findGpu(id))
            gpus.push_back(g);
    return gpus;
}

// "8" or "4 or 8": the counts a GPU is sold in as systems.
std::string systemCounts(const Catalog& c, const GpuSpec& g)
{
    std::set<int> sold; // an HGX and a DGX of 8 GPUs are one count
    for (const auto& s : c.systems)
        if (s.gpuId == g.id)
            sold.insert(s.gpuCount);
    std::string counts;
    for (int n : sold)
        counts += (counts.empty() ? "" : " or ") + std::to_string(n);
    return counts;
}

// isStale's rule on one parse of the dates: evaluate() ages every price and rate in each of
// its corner evaluations, and with a thousand imported offers the parsing showed in profiles.
PriceAge ageOf(const Provenance& price, const Scenario& s)
{
    const std::optional<int> months = monthsOld(price.date, s.today);
    return { months, isStaleAge(months, s.today, s.assumptions.staleMonths), {} };
}

// The machine for (GPU, count): a system sold with exactly those GPUs, else n cards in the
// smallest chassis that holds them; nullopt with the reason when neither exists.
std::optional<Machine> machineFor(const Catalog& c, const GpuSpec& gpu, int count, Unavailable& why)
{
    if (const SystemSpec* system = systemFor(gpu.id, count, c.systems))
        return Machine { &gpu, count, nullptr, system };
    why = { gpu.id, count, UnavailableReason::SoldOnlyAsSystem, systemCounts(c, gpu) };
    if (!gpu.priceUsd)
        return std::nullopt;
    const ChassisSpec* chassis = smallestChassisFor(count, c.chassis);
    why = { gpu.id, count, UnavailableReason::NoChassis, {} };
    if (!chassis)
        return std::nullopt;
    return Machine { &gpu, count, chassis, nullptr };
}

Unavailable unavailable(const GpuSpec& gpu, int count, const std::optional<TrainingEstimate>& e)
{
    // An analytic estimate is refused only for memory (estimators.h): not a measured "does
    // not fit", since offloading may still train it (the paper's Pythia-2.8B on one RTX 3090).
    if (e && !e->feasible)
        return { gpu.id, count,
            e->source == EstimateSource::Analytic ? UnavailableReason::NeedsOffloading
                                                  : UnavailableReason::Infeasible,
            e->note };
    return { gpu.id, count, UnavailableReason::NoEstimate, {} };
}

// The sources that price a link between machines they were not timed on (analytic, and
// extrapolated, which `best` tries): a paper table or a measurement timed one machine.
bool pricesALink(SourcePolicy policy)
{
    return policy == SourcePolicy::Best || policy == SourcePolicy::Analytic
        || policy == SourcePolicy::Extrapolated;
}

// The key an estimate's training days are drawn by in Monte Carlo: one per GPU and count, so
// that buying and renting the same GPUs share it.
std::string daysKey(const GpuSpec& gpu, int count)
{
    return "days " + gpu.id + " " + std::to_string(count);
}

// The estimate's days moved to its position in daysLow..daysHigh. `acrossInstancesOf`: an
// offer whose instances exchange over its network, drawn apart from one machine of the same
// GPUs: how fast a network goes is not how fast the GPUs compute. Fully apart, though both
// share the analytic utilisation's range, so Monte Carlo spreads such a break-even a little
// wider than it is; drawn together it had tied the network's range to the compute's.
void moveDays(TrainingEstimate& e, const GpuSpec& gpu, int count, const InputPositions& at,
    const CloudOffer* acrossInstancesOf = nullptr)
{
    if (!at.itemSeed && at.trainingDays == 0.0)
        return; // the stated value: no key to build
    // Keys only for Monte Carlo's own draws: the corners move every estimate alike.
    const double position = !at.itemSeed ? at.trainingDays
        : acrossInstancesOf ? at.days(daysKey(gpu, count) + " over " + acrossInstancesOf->id)
                            : at.days(daysKey(gpu, count));
    e.days = atPosition(e.daysLow, e.days, e.daysHigh, position);
}

// estimateTraining once per GPU and count in one evaluation: an imported catalog rents the same
// GPUs in hundreds of offers, and asking for each offer's estimate again (the measurements
// searched, the notes formatted) was most of a 500-offer replot.
class Estimates {
public:
    Estimates(const Scenario& s, const Workload& w)
        : s_(s)
        , w_(w)
    {
    }
    std::optional<TrainingEstimate> at(const GpuSpec& gpu, int count)
    {
        const auto key = std::make_pair(&gpu, count);
        auto found = known_.find(key);
        if (found == known_.end())
            found = known_
                        .emplace(key,
                            estimateTraining(*s_.catalog, s_.source, w_, gpu, count,
                                s_.assumptions.analyticUtilization))
                        .first;
        return found->second;
    }
    // On GPUs in several machines over `between` (core/instance_network.h): not kept, as only
    // offers that list a network ask, each for its own.
    std::optional<TrainingEstimate> across(
        const GpuSpec& gpu, int count, const Interconnect& between)
    {
        return estimateTraining(
            *s_.catalog, s_.source, w_, gpu, count, s_.assumptions.analyticUtilization, &between);
    }

private:
    const Scenario& s_;
    const Workload& w_;
    std::map<std::pair<const GpuSpec*, int>, std::optional<TrainingEstimate>> known_;
};

// GPUs the price set cannot sell, said where it matters: a GPU the user named, or one a
// published or measured time exists for (the paper's A100 SXM in a price set without it). The
// analytic estimate exists for every GPU with a peak, so it alone would list them all.
void addUnpricedGpus(const Scenario& s, Estimates& estimates, Results& r)
{
    for (const GpuSpec* gpu : consideredGpus(s)) {
        if (purchasable(*s.catalog, *gpu))
            continue;
        for (int count : s.gpuCounts) {
            const auto estimate = estimates.at(*gpu, count);
            const bool published
                = estimate && estimate->feasible && estimate->source != EstimateSource::Analytic;
            if (!s.gpuIds.empty() || published)
                r.unavailable.push_back({ gpu->id, count, UnavailableReason::NoPrice, {} });
        }
    }
}

void addOwnedOptions(const Scenario& s, Estimates& estimates, Results& r)
{
    const auto& a = s.assumptions;
    const SponsorRules& rules = r.indirectRules;
    addUnpricedGpus(s, estimates, r);
    for (const GpuSpec* gpu : consideredGpus(s)) {
        if (!purchasable(*s.catalog, *gpu))
            continue; // addUnpricedGpus says where that matters
        for (int count : s.gpuCounts) {
            Unavailable why;
            const auto machine = machineFor(*s.catalog, *gpu, count, why);
            if (!machine) {
                r.unavailable.push_back(why);
                continue;
            }
            auto estimate = estimates.at(*gpu, count);
            if (!estimate || !estimate->feasible) {
                r.unavailable.push_back(unavailable(*gpu, count, estimate));
                continue;
            }
            moveDays(*estimate, *gpu, count, s.positions);
            OwnedOption o;
            o.gpu = gpu;
            o.chassis = machine->chassis;
            o.system = machine->system;
            if (machine->chassis)
                o.powerSupplyFit = machine->chassis->powerSupplyFit(count, gpu->boardPowerWatts);
            o.gpuCount = count;
            o.estimate = std::move(*estimate);
            o.machineCostUsd = machineCostUsd(*machine, s.positions);
            // Equipment or supplies by the stated price, as the budget books it (owning.h).
            o.owning = owningCosts(o.machineCostUsd, machineItPowerKw(*machine), a, rules,
                machineCategory(machineCostUsd(*machine), rules));
            o.experimentCostUsd = experimentCostUsd(o.owning.lifetimeUsd, o.estimate.days, a);
            o.powerKw = machinePowerKw(*machine, a);
            o.energyCostUsd = withIndirectUsd(
                energyCostUsd(o.powerKw, o.estimate.days, a), BudgetCategory::Energy, rules, a);
            // A machine cannot run more experiments a month than fit back to back.
            o.runsPerMonth = cappedRunsPerMonth(o.estimate.days, a);
            o.netCapexUsd = o.owning.netPurchaseUsd();
            o.buyCostPerRunUsd
                = o.energyCostUsd + owningCostPerRunUsd(o.owning.monthlyUsd, o.runsPerMonth);
            // Net of resale, as the break-even and the plan verdict count it: a table's buy total
            // above the rent total must mean buying costs more.
            const OwnedPlan plan = ownedPlan(o.netCapexUsd, o.owning.monthlyUsd,
                o.experimentCostUsd, o.energyCostUsd, o.estimate.days, o.runsPerMonth, a);
            o.planTotalUsd = plan.totalUsd;
            o.planAmortizedUsd = plan.amortizedUsd;
            o.planCalendarDays = plan.calendarDays;
            // The oldest of the prices the machine is made of carries the machine's age; a stale
            // one first, so that a fresh chassis does not hide a card dated after today.
            const std::pair<const Provenance*, const char*> prices[] = {
                machine->system ? std::pair { &machine->system->priceSource, "system" }
                                : std::pair { &gpu->priceSource, "GPU" },
                { machine->chassis ? &machine->chassis->priceSource : nullptr, "chassis" },
            };
            std::string staleParts; // "GPU and chassis": every stale one, not the oldest only
            for (const auto& [price, of] : prices) {
                if (!price)
                    continue;
                PriceAge age = ageOf(*price, s);
                age.of = of;
                if (age.stale)
                    staleParts += (staleParts.empty() ? "" : " and ") + std::string(of);
                if (o.priceDate.empty() || age.stale > o.priceAge.stale
                    || (age.stale == o.priceAge.stale
                        && age.months.value_or(0) > o.priceAge.months.value_or(0))) {
                    o.priceAge = age;
                    o.priceDate = price->date;
                }
            }
            if (o.priceAge.stale)
                o.priceAge.of = staleParts;
            r.options.push_back(std::move(o));
        }
    }
}

// The paper's own tables reproduce the paper's figures and pick (Fig. 7: 8x RTX 3090 within
// $40,000, at 128% of peak, on the frontier), with the caution the views add. Any other source
// weighs only times its GPUs can reach: an impossible time would win a budget or deadline rule,
// and push real machines off the frontier, precisely because it is too short.
bool countsImpossibleTimes(SourcePolicy source)
{
    return source == SourcePolicy::Paper || source == SourcePolicy::PaperNaive;
}

bool possibleTime(const OwnedOption& o)
{
    return !o.estimate.hasFlag(EstimateFlag::ExceedsPeak);
}

void markFrontiers(const Scenario& s, Results& r)
{
    std::vector<std::size_t> ids;
    std::vector<TradeoffPoint> byMachine;
    std::vector<TradeoffPoint> byExperiment;
    for (std::size_t i = 0; i < r.options.size(); ++i) {
        const OwnedOption& o = r.options[i];
        if (!countsImpossibleTimes(s.source) && !possibleTime(o))
            continue;
        ids.push_back(i);
        byMachine.push_back({ o.estimate.days, o.machineCostUsd });
        byExperiment.push_back({ o.estimate.days, o.experimentCostUsd });
    }
    for (auto k : paretoFrontier(byMachine))
        r.options[ids[k]].paretoHardware = true;
    for (auto k : paretoFrontier(byExperiment))
        r.options[ids[k]].paretoExperiment = true;
}

std::optional<std::size_t> applyRule(
    const Results& r, const std::vector<TradeoffPoint>& points, const std::vector<std::size_t>& ids)
{
    std::vector<TradeoffPoint> candidates;
    for (std::size_t i : ids)
        candidates.push_back(points[i]);
    std::optional<std::size_t> pick;
    switch (r.recommendationRule) {
    case RecommendationRule::CheapestWithinBoth:
        pick = cheapestWithinBoth(candidates, *r.budgetUsd, *r.deadlineDays);
        break;
    case RecommendationRule::FastestWithinBudget:
        pick = fastestWithinBudget(candidates, *r.budgetUsd);
        break;
    case RecommendationRule::CheapestWithinDeadline:
        pick = cheapestWithinDeadline(candidates, *r.deadlineDays);
        break;
    case RecommendationRule::None:
        break;
    }
    return pick ? std::optional<std::size_t>(ids[*pick]) : std::nullopt;
}

void recommend(const Scenario& s, Results& r)
{
    std::vector<TradeoffPoint> points;
    std::vector<std::size_t> all;
    std::vector<std::size_t> possible;
    for (std::size_t i = 0; i < r.options.size(); ++i) {
        auto& o = r.options[i];
        points.push_back({ o.estimate.days, o.machineCostUsd });
        o.withinBudget = !s.budgetUsd || o.machineCostUsd <= *s.budgetUsd;
        o.withinDeadline = !s.deadlineDays || o.estimate.days <= *s.deadlineDays;
        all.push_back(i);
        if (possibleTime(o))
            possible.push_back(i);
    }
    if (s.budgetUsd && s.deadlineDays)
        r.recommendationRule = RecommendationRule::CheapestWithinBoth;
    else if (s.budgetUsd)
        r.recommendationRule = RecommendationRule::FastestWithinBudget;
    else if (s.deadlineDays)
        r.recommendationRule = RecommendationRule::CheapestWithinDeadline;
    const auto unfiltered = applyRule(r, points, all);
    r.recommended = countsImpossibleTimes(s.source) ? unfiltered : applyRule(r, points, possible);
    if (unfiltered && unfiltered != r.recommended)
        r.setAsideAbovePeak = unfiltered;
}

// A cloud rate moved to its position in its range (rateRange).
double rateAt(double usdPerHour, const CloudOffer& offer, Pricing pricing, const InputPositions& at)
{
    if (!at.itemSeed && at.cloudRates == 0.0)
        return usdPerHour;
    const bool spot = pricing == Pricing::Spot;
    const double position
        = at.itemSeed ? at.rate("rate " + offer.id + (spot ? " spot" : " list")) : at.cloudRates;
    return atPosition(rateRange(usdPerHour, spot), usdPerHour, position);
}

// A term against paying `onDemandRunUsd` a run on demand: the runs from which one term costs
// less, and whether the terms the plan takes cost its runs less.
void weighAgainstOnDemand(Commitment& m, double onDemandRunUsd, int plannedRuns)
{
    m.breakEvenRuns = m.termCostUsd / onDemandRunUsd;
    m.beatsOnDemandForPlan
        = m.termsForPlan > 0 && m.termCostUsd * m.termsForPlan < plannedRuns * onDemandRunUsd;
}

// Prices each reserved term of the offer. Without a pay-as-you-go rate, the cheapest is the term
// that costs the plan least in all, each term paid whole however few runs use it (chosen by a
// run's share of its term, one run had looked cheap, and the term with the lowest share is not
// the cheapest for few runs): returns what that term costs the plan.
std::optional<double> priceReservations(const Assumptions& a, const SponsorRules& rules,
    const InputPositions& at, CloudOption& c, bool payAsYouGo)
{
    std::optional<double> planUsd;
    const auto& offer = *c.offer;
    const double days = c.estimate.days;
    for (auto reserved : offer.reserved) {
        reserved.usdPerHour = rateAt(reserved.usdPerHour, offer, Pricing::Reserved, at);
        const double perRun
            = cloudCostUsd(reserved.usdPerHour, c.ratesBilled, days, Pricing::Reserved, a, rules);
        c.reservedCostUsd.push_back(perRun);
        Commitment commitment;
        commitment.years = reserved.years;
        commitment.termCostUsd
            = commitmentCostUsd(reserved.usdPerHour, c.ratesBilled, reserved.years, a, rules);
        commitment.runsInTerm = days > 0.0 ? reserved.years * calendar::kDaysPerYear / days : 0.0;
        // The terms the plan's runs take one after another, at the run rate
        // (core/costing/reservation.h): the plan total counts them, and so does the verdict.
        const int terms = reservationTerms(a.plannedRuns,
            runsPerReservationTerm(commitment.runsInTerm, commitment.years, a.runsPerMonth));
        commitment.termsForPlan = terms;
        const double termsUsd = commitment.termCostUsd * terms;
        if (c.onDemandCostUsd && *c.onDemandCostUsd > 0.0)
            weighAgainstOnDemand(commitment, *c.onDemandCostUsd, a.plannedRuns);
        c.commitments.push_back(commitment);
        if (terms > 0 && (!planUsd || termsUsd < *planUsd)) {
            planUsd = termsUsd;
            if (payAsYouGo) // priced per run at its hourly rate; the terms are an alternative
                continue;
            c.cheapestCostUsd = perRun;
            c.cheapestPricing = Pricing::Reserved;
            c.cheapestReservedYears = reserved.years;
        }
    }
    return planUsd;
}

void priceCloudOption(
    const Assumptions& a, const SponsorRules& rules, const InputPositions& at, CloudOption& c)
{
    const auto& offer = *c.offer;
    const double days = c.estimate.days;
    c.spotDays = spotRunDays(days, a);
    c.waitDaysPerRun = offer.queueWaitDays;
    std::optional<double> reservedPlanUsd; // the whole terms that cost the plan least
    if (offer.kind == OfferKind::Allocation) {
        // Granted time: no cash, but the application and the queue take calendar time.
        c.cheapestCostUsd = 0.0;
        c.cheapestPricing = Pricing::Allocation;
    } else {
        auto consider = [&c](double cost, Pricing pricing) {
            if (!c.cheapestCostUsd || cost < *c.cheapestCostUsd) {
                c.cheapestCostUsd = cost;
                c.cheapestPricing = pricing;
            }
        };
        if (offer.onDemandUsdPerHour) {
            c.onDemandCostUsd
                = cloudCostUsd(rateAt(*offer.onDemandUsdPerHour, offer, Pricing::OnDemand, at),
                    c.ratesBilled, days, Pricing::OnDemand, a, rules);
            consider(*c.onDemandCostUsd, Pricing::OnDemand);
        }
        if (offer.spotUsdPerHour) {
            c.spotCostUsd = cloudCostUsd(rateAt(*offer.spotUsdPerHour, offer, Pricing::Spot, at),
                c.ratesBilled, days, Pricing::Spot, a, rules);
            consider(*c.spotCostUsd, Pricing::Spot);
        }
        const bool payAsYouGo = c.cheapestCostUsd.has_value();
        reservedPlanUsd = priceReservations(a, rules, at, c, payAsYouGo);
        c.cheapestIsCommitment = !payAsYouGo && c.cheapestCostUsd.has_value();
    }
    if (c.cheapestCostUsd) {
        const RentedPlan plan = rentedPlan(*c.cheapestCostUsd, runDays(days, c.cheapestPricing, a),
            offer.queueWaitDays, offer.applicationLeadDays, a);
        c.reservedTermsPlanUsd = reservedPlanUsd;
        c.planTotalUsd = c.cheapestIsCommitment ? reservedPlanUsd.value_or(0.0) : plan.totalUsd;
        if (c.cheapestIsCommitment && a.plannedRuns > 0)
            c.termsPerPlannedRunUsd = c.planTotalUsd / a.plannedRuns;
        c.planCalendarDays = plan.calendarDays;
    }
}

void addCloudOptions(const Scenario& s, Estimates& estimates, Results& r)
{
    const auto& a = s.assumptions;
    // At most one option per offer and count: growing the vector moved every option so far.
    r.cloud.reserve(s.catalog->cloudOffers.size() * s.gpuCounts.size());
    const auto wanted = [&s](const std::string& gpuId) {
        return s.gpuIds.empty()
            || std::find(s.gpuIds.begin(), s.gpuIds.end(), gpuId) != s.gpuIds.end();
    };
    const bool listUntimed = s.source == SourcePolicy::Best || s.source == SourcePolicy::Analytic;
    for (const auto& offer : s.catalog->cloudOffers) {
        const GpuSpec* gpu = s.catalog->findGpu(offer.gpuId);
        if (!gpu) {
            r.warnings.push_back({ Warning::Kind::OfferUnknownGpu, offer.id, offer.gpuId });
            continue;
        }
        if (!wanted(offer.gpuId))
            continue; // Scenario::gpuIds chooses the GPUs to rent as well as to buy
        bool rentable = false; // at some count it rents
        bool timed = false;
        bool infeasible = false; // an estimate said the state does not fit
        const auto network = NetworkBetweenInstances::of(offer);
        for (int count : s.gpuCounts) {
            if (count < offer.gpusPerInstance)
                continue; // an 8-GPU instance is not a way to rent 2 GPUs
            rentable = true;
            const int instances = instancesNeeded(offer, count);
            // Several machines exchange over the network the offer lists, where it lists one and
            // the source can price a link. Where neither such source has a time (no peak for
            // the precision; the state fits only by offloading, which the paper timed on one
            // machine: Pythia-6.9B on 2 RTX 3090s), one machine's time stands, flagged.
            std::optional<TrainingEstimate> estimate;
            if (instances > 1 && network && pricesALink(s.source))
                estimate = estimates.across(*gpu, count, network->link());
            const bool overNetwork
                = estimate && estimate->feasible && pricesTheLinkBetween(*estimate);
            if (!overNetwork)
                if (auto oneMachine = estimates.at(*gpu, count);
                    oneMachine && (oneMachine->feasible || !estimate))
                    estimate = std::move(oneMachine);
            if (!estimate || !estimate->feasible) {
                infeasible = infeasible || estimate.has_value();
                continue;
            }
            timed = true;
            moveDays(*estimate, *gpu, count, s.positions, overNetwork ? &offer : nullptr);
            CloudOption c;
            c.offer = &offer;
            c.gpu = gpu;
            c.gpuCount = count;
            c.instances = instances;
            c.ratesBilled = ratesBilled(offer, count);
            c.estimate = std::move(*estimate);
            if (overNetwork)
                c.estimate.flags.push_back(EstimateFlag::OverNetwork);
            else if (instances > 1)
                c.estimate.flags.push_back(EstimateFlag::MultiInstance);
            priceCloudOption(a, r.indirectRules, s.positions, c);
            c.rateAge = ageOf(offer.source, s);
            if (c.cheapestCostUsd)
                r.cloud.push_back(std::move(c));
        }
        if (rentable && !timed && listUntimed)
            r.untimedOffers.push_back({ &offer, gpu, infeasible });
    }
}

// Every on-demand and spot price of one cloud option against buying `o`.
void addBreakEvens(
    OwnedOption& o, std::size_t cloudIndex, const CloudOption& c, const Assumptions& a)
{
    const std::pair<const std::optional<double>*, Pricing> prices[]
        = { { &c.onDemandCostUsd, Pricing::OnDemand }, { &c.spotCostUsd, Pricing::Spot } };
    for (const auto& [cost, pricing] : prices) {
        if (!*cost)
            continue;
        OfferBreakEven b;
        b.cloudIndex = cloudIndex;
        b.pricing = pricing;
        b.costPerRunUsd = **cost;
        b.runs = breakEvenRuns(o.netCapexUsd, b.costPerRunUsd, o.buyCostPerRunUsd);
        if (b.runs)
            b.months = monthsAtRunRate(*b.runs, o.runsPerMonth);
        b.withinLifespan = b.months && withinLifespan(*b.months, a);
        o.breakEvens.push_back(b);
    }
}

// An offer of terms only is weighed against the on-demand rate of its instance's own offer
// where the tables list the two apart (same provider, GPU, GPUs per instance and region, and
// the same GPUs rented): split to give each rate its date, AWS's P4 terms had lost the
// comparison ("no on-demand rate to compare with").
void compareTermsWithTheirInstancesOnDemand(Results& r)
{
    const int runs = r.assumptions.plannedRuns;
    for (CloudOption& c : r.cloud) {
        if (c.onDemandCostUsd || c.commitments.empty() || c.offer->kind != OfferKind::Cloud)
            continue;
        for (const CloudOption& other : r.cloud) {
            if (&other == &c || other.offer->kind != OfferKind::Cloud || !other.onDemandCostUsd
                || !(*other.onDemandCostUsd > 0.0) || other.gpuCount != c.gpuCount
                || !sameInstance(*other.offer, *c.offer))
                continue;
            for (Commitment& m : c.commitments) {
                m.onDemandOfferId = other.offer->id;
                weighAgainstOnDemand(m, *other.onDemandCostUsd, runs);
            }
            break;
        }
    }
}

void compareWithCloud(Results& r)
{
    for (std::size_t optionIndex = 0; optionIndex < r.options.size(); ++optionIndex) {
        auto& o = r.options[optionIndex];
        for (std::size_t i : matchingCloudOffers(r, optionIndex)) {
            const auto& c = r.cloud[i];
            addBreakEvens(o, i, c, r.assumptions);
            // Against ways to pay for the same GPUs per run: not a reservation's term, and not
            // an allocation's granted time (no cash, but neither bought nor unlimited).
            if (c.cheapestIsCommitment || c.offer->kind == OfferKind::Allocation)
                continue;
            if (!o.cheapestCloudIndex
                || *c.cheapestCostUsd < *r.cloud[*o.cheapestCloudIndex].cheapestCostUsd)
                o.cheapestCloudIndex = i;
        }
        if (o.cheapestCloudIndex)
            o.breakEvenRuns = breakEvenRuns(
                o.netCapexUsd, *r.cloud[*o.cheapestCloudIndex].cheapestCostUsd, o.buyCostPerRunUsd);
        if (o.breakEvenRuns)
            o.breakEvenMonths = monthsAtRunRate(*o.breakEvenRuns, o.runsPerMonth);
        o.breakEvenWithinLifespan
            = o.breakEvenMonths && withinLifespan(*o.breakEvenMonths, r.assumptions);
    }
}

// The options sorted by GPU, then count: one warning per GPU with the counts whose run is
// longer than the machine's life.
void warnRunsOutlastingLife(Results& r)
{
    for (std::size_t i = 0; i < r.options.size();) {
        const GpuSpec* gpu = r.options[i].gpu;
        std::string counts;
        for (; i < r.options.size() && r.options[i].gpu == gpu; ++i)
            if (runOutlastsLife(r.options[i].estimate.days, r.assumptions))
                counts += (counts.empty() ? "" : ",") + std::to_string(r.options[i].gpuCount);
        if (!counts.empty())
            r.warnings.push_back({ Warning::Kind::RunOutlastsLife, gpu->name, counts });
    }
}

} // namespace

std::optional<std::size_t> defaultMachineToCompare(const Results& r)
{
    if (r.recommended)
        return r.recommended;
    // The cheapest per experiment whose time is physically possible (an estimate above the
    // GPUs' peak, the paper's unsynchronised timing, is cheap because it is too short) and that
    // some offer rents (else there is nothing to compare buying with); failing that, the
    // cheapest possible one, then the cheapest.
    const auto possible = possibleTime;
    const auto rentable = [](const OwnedOption& o) { return o.cheapestCloudIndex.has_value(); };
    std::optional<std::size_t> cheapest;
    for (int tier = 0; tier < 3 && !cheapest; ++tier) {
        for (std::size_t i = 0; i < r.options.size(); ++i) {
            const OwnedOption& o = r.options[i];
            if ((tier < 2 && !possible(o)) || (tier < 1 && !rentable(o)))
                continue;
            if (!cheapest || o.experimentCostUsd < r.options[*cheapest].experimentCostUsd)
                cheapest = i;
        }
    }
    return cheapest;
}

std::vector<std::size_t> matchingCloudOffers(const Results& r, std::size_t optionIndex)
{
    std::vector<std::size_t> out;
    if (optionIndex >= r.options.size())
        return out;
    const auto& o = r.options[optionIndex];
    for (std::size_t i = 0; i < r.cloud.size(); ++i)
        if (r.cloud[i].gpu == o.gpu && r.cloud[i].gpuCount == o.gpuCount)
            out.push_back(i);
    return out;
}

std::optional<std::size_t> matchingOwnedOption(const Results& r, std::size_t cloudIndex)
{
    if (cloudIndex >= r.cloud.size())
        return std::nullopt;
    const auto& c = r.cloud[cloudIndex];
    for (std::size_t i = 0; i < r.options.size(); ++i)
        if (r.options[i].gpu == c.gpu && r.options[i].gpuCount == c.gpuCount)
            return i;
    return std::nullopt;
}

namespace {

// The scenario with each assumption moved to its position in its range.
Scenario withMovedAssumptions(const Scenario& in)
{
    Scenario s = in;
    for (const auto& spec : kAssumptionSpecs) {
        const double position = in.positions.assumption(spec.id);
        if (position == 0.0 || !movedAsAssumption(spec.id))
            continue;
        const double value = assumptionValue(in.assumptions, spec.id);
        setAssumptionValue(
            s.assumptions, spec.id, atPosition(assumptionRange(spec.id, value), value, position));
    }
    return s;
}

Results evaluateAt(const Scenario& in)
{
    const Scenario s = withMovedAssumptions(in);
    Results r;
    r.source = s.source;
    r.assumptions = s.assumptions;
    r.budgetUsd = s.budgetUsd;
    r.deadlineDays = s.deadlineDays;
    r.today = s.today;
    if (!s.catalog) {
        r.warnings.push_back({ Warning::Kind::NoCatalog, {}, {} });
        return r;
    }
    r.priceSet = s.catalog->priceSet;
    if (!s.sponsorId.empty()) {
        if (const SponsorRules* sponsor = s.catalog->findSponsor(s.sponsorId))
            r.indirectRules = *sponsor;
        else
            r.warnings.push_back({ Warning::Kind::UnknownSponsor, s.sponsorId, {} });
    }
    r.workload = s.catalog->findWorkload(s.modelId);
    if (!r.workload) {
        r.warnings.push_back({ Warning::Kind::UnknownModel, s.modelId, {} });
        return r;
    }
    Estimates estimates(s, *r.workload);
    addOwnedOptions(s, estimates, r);
    markFrontiers(s, r);
    recommend(s, r);
    addCloudOptions(s, estimates, r);
    compareTermsWithTheirInstancesOnDemand(r);
    compareWithCloud(r);
    // Only where the source times none of the machines asked for: with times but no price (the
    // paper's A100 SXM in a price set without it) the unavailable list says why.
    const auto timed = [&] {
        for (const GpuSpec* gpu : consideredGpus(s))
            for (int count : s.gpuCounts)
                if (const auto e = estimates.at(*gpu, count); e && e->feasible)
                    return true;
        return false;
    };
    if (r.options.empty() && !timed()) {
        // Measurements of this model on a device the GPU table does not know (a CPU run, a GPU
        // without an entry) are kept but cannot be priced: named, or they vanish without a word.
        std::string unpriced;
        for (const MeasuredResult& m : s.catalog->measured)
            if (m.modelId == r.workload->id && (m.gpuId.empty() || !s.catalog->findGpu(m.gpuId))) {
                const std::string device = m.deviceName + " (" + m.file + ")";
                if (unpriced.find(device) == std::string::npos)
                    unpriced += (unpriced.empty() ? "" : ", ") + device;
            }
        r.warnings.push_back({ Warning::Kind::NoEstimateForAnyMachine, r.workload->id, unpriced });
    }
    warnRunsOutlastingLife(r);
    return r;
}

// Which way raising an assumption moves costs (+1 up, -1 down), and break-even runs.
double costDirection(AssumptionId id)
{
    switch (id) {
    case AssumptionId::AmortizationYears:
    case AssumptionId::MachineUtilization:
    case AssumptionId::ResaleFraction:
    case AssumptionId::RunsPerMonth:
        return -1.0;
    default:
        return 1.0;
    }
}

double breakEvenDirection(AssumptionId id)
{
    switch (id) {
    case AssumptionId::AmortizationYears:
    case AssumptionId::MachineUtilization:
    case AssumptionId::PlannedRuns:
    case AssumptionId::StaleMonths:
    case AssumptionId::AnalyticUtilization:
        return 0.0; // break-even runs do not depend on it
    case AssumptionId::ResaleFraction: // less to recover from renting's savings
    case AssumptionId::SpotRestartOverhead: // renting dearer
    case AssumptionId::IndirectRate:
    case AssumptionId::RunsPerMonth: // the owning costs spread over more runs
        return -1.0;
    default:
        return 1.0; // electricity, PUE and the owning costs make each owned run dearer
    }
}

// Every input at the end that moves costs (sign +1: up, -1: down).
InputPositions costCorner(double sign)
{
    InputPositions at;
    at.trainingDays = at.purchasePrices = at.cloudRates = sign;
    for (const auto& spec : kAssumptionSpecs)
        at.assumption(spec.id) = sign * costDirection(spec.id);
    return at;
}

// Every input at the end that moves break-even runs (sign -1: buying pays off soonest).
InputPositions breakEvenCorner(double sign)
{
    InputPositions at;
    at.purchasePrices = sign;
    at.cloudRates = -sign;
    at.trainingDays = -sign; // longer runs make renting dearer per run than owning
    for (const auto& spec : kAssumptionSpecs)
        at.assumption(spec.id) = sign * breakEvenDirection(spec.id);
    return at;
}

Interval ordered(double a, double b)
{
    return { std::min(a, b), std::max(a, b) };
}

bool sameOptions(const Results& a, const Results& b)
{
    if (a.options.size() != b.options.size() || a.cloud.size() != b.cloud.size())
        return false;
    for (std::size_t i = 0; i < a.options.size(); ++i)
        if (a.options[i].gpu != b.options[i].gpu || a.options[i].gpuCount != b.options[i].gpuCount)
            return false;
    for (std::size_t i = 0; i < a.cloud.size(); ++i)
        if (a.cloud[i].offer != b.cloud[i].offer || a.cloud[i].gpuCount != b.cloud[i].gpuCount)
            return false;
    return true;
}

// The runs to break even against one offer at one pricing in another evaluation of the same
// options; nullopt when it never pays off there.
std::optional<double> breakEvenIn(
    const OwnedOption& o, std::size_t cloudIndex, Pricing pricing, const OwnedOption& other)
{
    for (const auto& b : other.breakEvens)
        if (b.cloudIndex == cloudIndex && b.pricing == pricing)
            return b.runs;
    (void)o;
    return std::nullopt;
}

// A cloud option's cheapest cost per run at a corner of the ranges, priced as at the point: an
// offer of reservations only at the term the point chose (a corner that chose another term gave
// a range that left out its own point).
double cheapestCostAtCorner(const CloudOption& point, const CloudOption& corner)
{
    if (point.cheapestIsCommitment && point.cheapestReservedYears)
        for (std::size_t k = 0; k < point.commitments.size() && k < corner.reservedCostUsd.size();
             ++k)
            if (point.commitments[k].years == *point.cheapestReservedYears)
                return corner.reservedCostUsd[k];
    return corner.cheapestCostUsd.value_or(0.0);
}

// Evaluates the scenario with the inputs at `at` and hands the results to `take` if they list
// the same options. One corner at a time: keeping five Results alive at once costs more in
// the allocator than the evaluations themselves.
template <typename Take>
bool atCorner(const Scenario& s, const Results& r, const InputPositions& at, Take take)
{
    Scenario corner = s;
    corner.positions = at;
    const Results x = evaluateAt(corner);
    if (!sameOptions(r, x))
        return false;
    take(x);
    return true;
}

void addRanges(const Scenario& s, Results& r)
{
    // Costs: every input at its low end, then at its high end.
    const bool costs = atCorner(s, r, costCorner(-1.0), [&r](const Results& low) {
        for (std::size_t i = 0; i < r.options.size(); ++i) {
            auto& o = r.options[i];
            const auto& l = low.options[i];
            o.daysRange = { o.estimate.daysLow, o.estimate.daysHigh };
            o.machineCostRange = { l.machineCostUsd, l.machineCostUsd };
            o.netCapexRange = { l.netCapexUsd, l.netCapexUsd };
            o.experimentCostRange = { l.experimentCostUsd, l.experimentCostUsd };
            o.energyCostRange = { l.energyCostUsd, l.energyCostUsd };
            o.buyCostPerRunRange = { l.buyCostPerRunUsd, l.buyCostPerRunUsd };
            o.planTotalRange = { l.planTotalUsd, l.planTotalUsd };
            o.planAmortizedRange = { l.planAmortizedUsd, l.planAmortizedUsd };
        }
        for (std::size_t i = 0; i < r.cloud.size(); ++i) {
            auto& c = r.cloud[i];
            const auto& l = low.cloud[i];
            c.daysRange = { c.estimate.daysLow, c.estimate.daysHigh };
            if (l.onDemandCostUsd)
                c.onDemandCostRange = Interval { *l.onDemandCostUsd, *l.onDemandCostUsd };
            if (l.spotCostUsd)
                c.spotCostRange = Interval { *l.spotCostUsd, *l.spotCostUsd };
            c.spotDaysRange = { l.spotDays, l.spotDays };
            const double cheapest = cheapestCostAtCorner(c, l);
            c.cheapestCostRange = { cheapest, cheapest };
            c.planTotalRange = { l.planTotalUsd, l.planTotalUsd };
            for (std::size_t j = 0; j < c.commitments.size(); ++j) {
                if (const auto runs = l.commitments[j].breakEvenRuns)
                    c.commitments[j].breakEvenRunsRange = Interval { *runs, *runs };
                c.commitments[j].beatsOnDemandAtLowCost = l.commitments[j].beatsOnDemandForPlan;
            }
        }
    }) && atCorner(s, r, costCorner(1.0), [&r](const Results& high) {
        for (std::size_t i = 0; i < r.options.size(); ++i) {
            auto& o = r.options[i];
            const auto& h = high.options[i];
            o.machineCostRange = ordered(o.machineCostRange.low, h.machineCostUsd);
            o.netCapexRange = ordered(o.netCapexRange.low, h.netCapexUsd);
            o.experimentCostRange = ordered(o.experimentCostRange.low, h.experimentCostUsd);
            o.energyCostRange = ordered(o.energyCostRange.low, h.energyCostUsd);
            o.buyCostPerRunRange = ordered(o.buyCostPerRunRange.low, h.buyCostPerRunUsd);
            o.planTotalRange = ordered(o.planTotalRange.low, h.planTotalUsd);
            o.planAmortizedRange = ordered(o.planAmortizedRange.low, h.planAmortizedUsd);
        }
        for (std::size_t i = 0; i < r.cloud.size(); ++i) {
            auto& c = r.cloud[i];
            const auto& h = high.cloud[i];
            if (c.onDemandCostRange && h.onDemandCostUsd)
                c.onDemandCostRange = ordered(c.onDemandCostRange->low, *h.onDemandCostUsd);
            if (c.spotCostRange && h.spotCostUsd)
                c.spotCostRange = ordered(c.spotCostRange->low, *h.spotCostUsd);
            c.spotDaysRange = ordered(c.spotDaysRange.low, h.spotDays);
            c.cheapestCostRange = ordered(c.cheapestCostRange.low, cheapestCostAtCorner(c, h));
            c.planTotalRange = ordered(c.planTotalRange.low, h.planTotalUsd);
            for (std::size_t j = 0; j < c.commitments.size(); ++j) {
                auto& range = c.commitments[j].breakEvenRunsRange;
                if (range && h.commitments[j].breakEvenRuns)
                    range = ordered(range->low, *h.commitments[j].breakEvenRuns);
                c.commitments[j].beatsOnDemandAtHighCost = h.commitments[j].beatsOnDemandForPlan;
            }
        }
    });
    if (!costs)
        return;
    // Break-even: every input in buying's favour, then in renting's.
    auto breakEvens = [&r](const Results& corner, bool low) {
        for (std::size_t i = 0; i < r.options.size(); ++i) {
            auto& o = r.options[i];
            const auto& other = corner.options[i];
            for (auto& b : o.breakEvens)
                (low ? b.runsRange.low : b.runsRange.high)
                    = breakEvenIn(o, b.cloudIndex, b.pricing, other);
            if (!o.cheapestCloudIndex)
                continue;
            const std::size_t c = *o.cheapestCloudIndex;
            const auto runs = breakEvenIn(o, c, r.cloud[c].cheapestPricing, other);
            (low ? o.breakEvenRunsRange.low : o.breakEvenRunsRange.high) = runs;
            (low ? o.breakEvenMonthsRange.low : o.breakEvenMonthsRange.high)
                = runs ? monthsAtRunRate(*runs, other.runsPerMonth) : std::nullopt;
        }
    };
    if (!atCorner(s, r, breakEvenCorner(-1.0), [&](const Results& x) { breakEvens(x, true); })
        || !atCorner(s, r, breakEvenCorner(1.0), [&](const Results& x) { breakEvens(x, false); }))
        return;
    // The months need not follow the runs: at the corner in buying's favour the runs are
    // longer, fewer fit a month, and the fewer runs can take more months than at the stated
    // values (4xRTX 5090 against Vast for Mamba-2.8B: 0.611 months, its range 0.394-0.610).
    for (auto& o : r.options)
        o.breakEvenMonthsRange = spanningItsValue(o.breakEvenMonthsRange, o.breakEvenMonths);
    r.hasRanges = true;
}

// The value at quantile q of sorted values (linear between neighbours).
double quantile(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
        return 0.0;
    const double at = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(at));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    const double a = sorted[below], b = sorted[above];
    if (!std::isfinite(a) || !std::isfinite(b))
        return at - static_cast<double>(below) > 0.0 ? b : a;
    return a + (at - static_cast<double>(below)) * (b - a);
}

Percentiles percentiles(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return { quantile(values, 0.1), quantile(values, 0.5), quantile(values, 0.9) };
}

void addMonteCarlo(const Scenario& s, Results& r)
{
    const std::size_t n = r.options.size();
    const auto samples = static_cast<std::size_t>(s.monteCarloSamples);
    std::vector<std::vector<double>> days(n), machine(n), experiment(n), breakEven(n);
    std::vector<int> chosen(n, 0), paysOff(n, 0);
    int none = 0;
    int used = 0;
    SeededDraws draws(s.seed);
    Scenario sample = s;
    for (std::size_t k = 0; k < samples; ++k) {
        sample.positions = {};
        for (const auto& spec : kAssumptionSpecs)
            sample.positions.assumption(spec.id) = draws.position();
        sample.positions.itemSeed = draws.next();
        const Results drawn = evaluateAt(sample);
        if (!sameOptions(r, drawn))
            continue;
        ++used;
        for (std::size_t i = 0; i < n; ++i) {
            const auto& o = drawn.options[i];
            days[i].push_back(o.estimate.days);
            machine[i].push_back(o.machineCostUsd);
            experiment[i].push_back(o.experimentCostUsd);
            std::optional<double> runs;
            if (r.options[i].cheapestCloudIndex) {
                const std::size_t c = *r.options[i].cheapestCloudIndex;
                runs = breakEvenIn(o, c, r.cloud[c].cheapestPricing, o);
            }
            breakEven[i].push_back(runs.value_or(std::numeric_limits<double>::infinity()));
            // Paying off after the machine is retired is not paying off, as the table's "past
            // life" says: counted so, 8xH100 paid off in 100% of samples beside it (review).
            const auto months = runs ? monthsAtRunRate(*runs, o.runsPerMonth) : std::nullopt;
            if (months && withinLifespan(*months, drawn.assumptions))
                ++paysOff[i];
        }
        if (drawn.recommended)
            ++chosen[*drawn.recommended];
        else
            ++none;
    }
    MonteCarloSummary mc;
    mc.samples = used;
    mc.seed = s.seed;
    const double total = used > 0 ? used : 1.0;
    for (std::size_t i = 0; i < n; ++i) {
        OptionSamples o;
        o.trainingDays = percentiles(days[i]);
        o.machineCostUsd = percentiles(machine[i]);
        o.experimentCostUsd = percentiles(experiment[i]);
        o.breakEvenRuns = percentiles(breakEven[i]);
        o.paysOffShare = paysOff[i] / total;
        mc.options.push_back(o);
        mc.recommendedShare.push_back(chosen[i] / total);
    }
    mc.noRecommendationShare = none / total;
    r.monteCarlo = std::move(mc);
}

} // namespace

BreakEvenRange spanningItsValue(BreakEvenRange range, std::optional<double> value)
{
    auto& [low, high] = range;
    if (low && high && *low > *high)
        std::swap(*low, *high);
    if (value) {
        // Only a bounded end moves: a high end of "never" already lies above any value.
        if (low)
            low = std::min(*low, *value);
        if (high)
            high = std::max(*high, *value);
    }
    return range;
}

Results evaluate(const Scenario& s)
{
    Results r = evaluateAt(s);
    if (!r.workload)
        return r;
    if (s.ranges)
        addRanges(s, r);
    if (s.monteCarloSamples > 0)
        addMonteCarlo(s, r);
    return r;
}

std::optional<RecommendationRobustness> recommendationRobustness(const Results& r)
{
    if (!r.monteCarlo || r.recommendationRule == RecommendationRule::None
        || r.monteCarlo->samples == 0)
        return std::nullopt;
    const auto& shares = r.monteCarlo->recommendedShare;
    RecommendationRobustness out;
    out.noneShare = r.monteCarlo->noRecommendationShare;
    if (r.recommended && *r.recommended < shares.size())
        out.share = shares[*r.recommended];
    else
        out.share = out.noneShare;
    for (std::size_t i = 0; i < shares.size(); ++i) {
        if (r.recommended && i == *r.recommended)
            continue;
        if (shares[i] > out.alternativeShare) {
            out.alternative = i;
            out.alternativeShare = shares[i];
        }
    }
    return out;
}

} // namespace gpuplan

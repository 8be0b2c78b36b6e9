#include "core/evaluate.h"

#include "core/costing/break_even.h"
#include "core/costing/calendar.h"
#include "core/costing/owning.h"
#include "core/costing/plan.h"
#include "core/decisions.h"
#include "core/estimators.h"
#include "core/price_age.h"

#include <algorithm>
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

std::vector<const GpuSpec*> purchasableGpus(const Scenario& s)
{
    std::vector<const GpuSpec*> gpus;
    if (s.gpuIds.empty()) {
        for (const auto& g : s.catalog->gpus)
            if (purchasable(*s.catalog, g))
                gpus.push_back(&g);
        return gpus;
    }
    for (const auto& id : s.gpuIds)
        if (const auto* g = s.catalog->findGpu(id); g && purchasable(*s.catalog, *g))
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

PriceAge ageOf(const Provenance& price, const Scenario& s)
{
    return { monthsOld(price.date, s.today), isStale(price, s.today, s.assumptions.staleMonths) };
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
    if (e && !e->feasible)
        return { gpu.id, count, UnavailableReason::Infeasible, e->note };
    return { gpu.id, count, UnavailableReason::NoEstimate, {} };
}

void addOwnedOptions(const Scenario& s, const Workload& w, Results& r)
{
    const auto& a = s.assumptions;
    for (const GpuSpec* gpu : purchasableGpus(s)) {
        for (int count : s.gpuCounts) {
            Unavailable why;
            const auto machine = machineFor(*s.catalog, *gpu, count, why);
            if (!machine) {
                r.unavailable.push_back(why);
                continue;
            }
            auto estimate
                = estimateTraining(*s.catalog, s.source, w, *gpu, count, a.analyticUtilization);
            if (!estimate || !estimate->feasible) {
                r.unavailable.push_back(unavailable(*gpu, count, estimate));
                continue;
            }
            OwnedOption o;
            o.gpu = gpu;
            o.chassis = machine->chassis;
            o.system = machine->system;
            o.gpuCount = count;
            o.estimate = std::move(*estimate);
            o.machineCostUsd = machineCostUsd(*machine);
            o.owning = owningCosts(o.machineCostUsd, machineItPowerKw(*machine), a);
            o.experimentCostUsd = experimentCostUsd(o.owning.lifetimeUsd, o.estimate.days, a);
            o.powerKw = machinePowerKw(*machine, a);
            o.energyCostUsd = energyCostUsd(o.powerKw, o.estimate.days, a);
            // A machine cannot run more experiments a month than fit back to back.
            o.runsPerMonth = cappedRunsPerMonth(o.estimate.days, a);
            o.netCapexUsd = o.machineCostUsd - o.owning.resaleUsd;
            o.buyCostPerRunUsd
                = o.energyCostUsd + owningCostPerRunUsd(o.owning.monthlyUsd, o.runsPerMonth);
            const OwnedPlan plan = ownedPlan(o.machineCostUsd, o.owning.monthlyUsd,
                o.experimentCostUsd, o.energyCostUsd, o.estimate.days, o.runsPerMonth, a);
            o.planTotalUsd = plan.totalUsd;
            o.planAmortizedUsd = plan.amortizedUsd;
            o.planCalendarDays = plan.calendarDays;
            // The oldest of the prices the machine is made of carries the machine's age.
            for (const Provenance* price :
                { machine->system ? &machine->system->priceSource : &gpu->priceSource,
                    machine->chassis ? &machine->chassis->priceSource : nullptr }) {
                if (!price)
                    continue;
                const PriceAge age = ageOf(*price, s);
                if (o.priceDate.empty() || age.stale > o.priceAge.stale
                    || age.months.value_or(0) > o.priceAge.months.value_or(0)) {
                    o.priceAge = age;
                    o.priceDate = price->date;
                }
            }
            r.options.push_back(std::move(o));
        }
    }
}

void markFrontiers(Results& r)
{
    std::vector<TradeoffPoint> byMachine;
    std::vector<TradeoffPoint> byExperiment;
    for (const auto& o : r.options) {
        byMachine.push_back({ o.estimate.days, o.machineCostUsd });
        byExperiment.push_back({ o.estimate.days, o.experimentCostUsd });
    }
    for (auto i : paretoFrontier(byMachine))
        r.options[i].paretoHardware = true;
    for (auto i : paretoFrontier(byExperiment))
        r.options[i].paretoExperiment = true;
}

void recommend(const Scenario& s, Results& r)
{
    std::vector<TradeoffPoint> points;
    for (auto& o : r.options) {
        points.push_back({ o.estimate.days, o.machineCostUsd });
        o.withinBudget = !s.budgetUsd || o.machineCostUsd <= *s.budgetUsd;
        o.withinDeadline = !s.deadlineDays || o.estimate.days <= *s.deadlineDays;
    }
    if (s.budgetUsd && s.deadlineDays) {
        r.recommendationRule = RecommendationRule::CheapestWithinBoth;
        r.recommended = cheapestWithinBoth(points, *s.budgetUsd, *s.deadlineDays);
    } else if (s.budgetUsd) {
        r.recommendationRule = RecommendationRule::FastestWithinBudget;
        r.recommended = fastestWithinBudget(points, *s.budgetUsd);
    } else if (s.deadlineDays) {
        r.recommendationRule = RecommendationRule::CheapestWithinDeadline;
        r.recommended = cheapestWithinDeadline(points, *s.deadlineDays);
    }
}

void priceReservations(const Assumptions& a, CloudOption& c, bool payAsYouGo)
{
    const auto& offer = *c.offer;
    const double days = c.estimate.days;
    for (const auto& reserved : offer.reserved) {
        const double perRun
            = cloudCostUsd(reserved.usdPerHour, c.instances, days, Pricing::Reserved, a);
        c.reservedCostUsd.push_back(perRun);
        Commitment commitment;
        commitment.years = reserved.years;
        commitment.termCostUsd
            = commitmentCostUsd(reserved.usdPerHour, c.instances, reserved.years, a);
        commitment.runsInTerm = days > 0.0 ? reserved.years * calendar::kDaysPerYear / days : 0.0;
        if (c.onDemandCostUsd && *c.onDemandCostUsd > 0.0) {
            commitment.breakEvenRuns = commitment.termCostUsd / *c.onDemandCostUsd;
            commitment.beatsOnDemandForPlan = a.plannedRuns <= commitment.runsInTerm
                && a.plannedRuns > *commitment.breakEvenRuns;
        }
        c.commitments.push_back(commitment);
        if (!payAsYouGo && (!c.cheapestCostUsd || perRun < *c.cheapestCostUsd)) {
            c.cheapestCostUsd = perRun;
            c.cheapestPricing = Pricing::Reserved;
            c.cheapestReservedYears = reserved.years;
        }
    }
}

void priceCloudOption(const Assumptions& a, CloudOption& c)
{
    const auto& offer = *c.offer;
    const double days = c.estimate.days;
    c.spotDays = spotRunDays(days, a);
    c.waitDaysPerRun = offer.queueWaitDays;
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
                = cloudCostUsd(*offer.onDemandUsdPerHour, c.instances, days, Pricing::OnDemand, a);
            consider(*c.onDemandCostUsd, Pricing::OnDemand);
        }
        if (offer.spotUsdPerHour) {
            c.spotCostUsd
                = cloudCostUsd(*offer.spotUsdPerHour, c.instances, days, Pricing::Spot, a);
            consider(*c.spotCostUsd, Pricing::Spot);
        }
        const bool payAsYouGo = c.cheapestCostUsd.has_value();
        priceReservations(a, c, payAsYouGo);
        c.cheapestIsCommitment = !payAsYouGo && c.cheapestCostUsd.has_value();
    }
    if (c.cheapestCostUsd) {
        const RentedPlan plan = rentedPlan(*c.cheapestCostUsd, runDays(days, c.cheapestPricing, a),
            offer.queueWaitDays, offer.applicationLeadDays, a);
        c.planTotalUsd = plan.totalUsd;
        c.planCalendarDays = plan.calendarDays;
    }
}

void addCloudOptions(const Scenario& s, const Workload& w, Results& r)
{
    const auto& a = s.assumptions;
    for (const auto& offer : s.catalog->cloudOffers) {
        const GpuSpec* gpu = s.catalog->findGpu(offer.gpuId);
        if (!gpu) {
            r.warnings.push_back({ Warning::Kind::OfferUnknownGpu, offer.id, offer.gpuId });
            continue;
        }
        for (int count : s.gpuCounts) {
            if (count < offer.gpusPerInstance)
                continue; // an 8-GPU instance is not a way to rent 2 GPUs
            auto estimate
                = estimateTraining(*s.catalog, s.source, w, *gpu, count, a.analyticUtilization);
            if (!estimate || !estimate->feasible)
                continue;
            CloudOption c;
            c.offer = &offer;
            c.gpu = gpu;
            c.gpuCount = count;
            c.instances = instancesNeeded(offer, count);
            c.estimate = std::move(*estimate);
            if (c.instances > 1)
                c.estimate.flags.push_back(EstimateFlag::MultiInstance);
            priceCloudOption(a, c);
            c.rateAge = ageOf(offer.source, s);
            if (c.cheapestCostUsd)
                r.cloud.push_back(std::move(c));
        }
    }
}

// Every on-demand and spot price of one cloud option against buying `o`.
void addBreakEvens(OwnedOption& o, std::size_t cloudIndex, const CloudOption& c)
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
        o.breakEvens.push_back(b);
    }
}

void compareWithCloud(Results& r)
{
    for (std::size_t optionIndex = 0; optionIndex < r.options.size(); ++optionIndex) {
        auto& o = r.options[optionIndex];
        for (std::size_t i : matchingCloudOffers(r, optionIndex)) {
            const auto& c = r.cloud[i];
            addBreakEvens(o, i, c);
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
    }
}

} // namespace

std::optional<std::size_t> defaultMachineToCompare(const Results& r)
{
    if (r.recommended)
        return r.recommended;
    if (r.options.empty())
        return std::nullopt;
    const auto cheapest = std::min_element(
        r.options.begin(), r.options.end(), [](const OwnedOption& a, const OwnedOption& b) {
            return a.experimentCostUsd < b.experimentCostUsd;
        });
    return static_cast<std::size_t>(cheapest - r.options.begin());
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

Results evaluate(const Scenario& s)
{
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
    r.workload = s.catalog->findWorkload(s.modelId);
    if (!r.workload) {
        r.warnings.push_back({ Warning::Kind::UnknownModel, s.modelId, {} });
        return r;
    }
    addOwnedOptions(s, *r.workload, r);
    markFrontiers(r);
    recommend(s, r);
    addCloudOptions(s, *r.workload, r);
    compareWithCloud(r);
    if (r.options.empty())
        r.warnings.push_back({ Warning::Kind::NoEstimateForAnyMachine, r.workload->id, {} });
    return r;
}

} // namespace gpuplan

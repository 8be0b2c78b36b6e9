#include "core/evaluate.h"

#include "core/costing/break_even.h"
#include "core/costing/owning.h"
#include "core/costing/plan.h"
#include "core/decisions.h"
#include "core/estimators.h"

#include <algorithm>

namespace gpuplan {

namespace {

std::vector<const GpuSpec*> purchasableGpus(const Scenario& s)
{
    std::vector<const GpuSpec*> gpus;
    if (s.gpuIds.empty()) {
        for (const auto& g : s.catalog->gpus)
            if (g.priceUsd)
                gpus.push_back(&g);
        return gpus;
    }
    for (const auto& id : s.gpuIds)
        if (const auto* g = s.catalog->findGpu(id); g && g->priceUsd)
            gpus.push_back(g);
    return gpus;
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
            const ChassisSpec* chassis = smallestChassisFor(count, s.catalog->chassis);
            if (!chassis) {
                r.unavailable.push_back({ gpu->id, count, UnavailableReason::NoChassis, {} });
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
            o.chassis = chassis;
            o.gpuCount = count;
            o.estimate = std::move(*estimate);
            const Machine machine { gpu, count, chassis };
            o.machineCostUsd = machineCostUsd(machine);
            o.experimentCostUsd = experimentCostUsd(o.machineCostUsd, o.estimate.days, a);
            o.powerKw = machinePowerKw(machine, a);
            o.energyCostUsd = energyCostUsd(o.powerKw, o.estimate.days, a);
            const OwnedPlan plan = ownedPlan(
                o.machineCostUsd, o.experimentCostUsd, o.energyCostUsd, o.estimate.days, a);
            o.planTotalUsd = plan.totalUsd;
            o.planAmortizedUsd = plan.amortizedUsd;
            o.planCalendarDays = plan.calendarDays;
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

void priceCloudOption(const Assumptions& a, CloudOption& c)
{
    const auto& offer = *c.offer;
    const double days = c.estimate.days;
    auto consider = [&c](double cost, Pricing pricing, std::optional<double> term) {
        if (!c.cheapestCostUsd || cost < *c.cheapestCostUsd) {
            c.cheapestCostUsd = cost;
            c.cheapestPricing = pricing;
            c.cheapestReservedYears = term;
        }
    };
    c.spotDays = spotRunDays(days, a);
    if (offer.onDemandUsdPerHour) {
        c.onDemandCostUsd
            = cloudCostUsd(*offer.onDemandUsdPerHour, c.instances, days, Pricing::OnDemand, a);
        consider(*c.onDemandCostUsd, Pricing::OnDemand, std::nullopt);
    }
    if (offer.spotUsdPerHour) {
        c.spotCostUsd = cloudCostUsd(*offer.spotUsdPerHour, c.instances, days, Pricing::Spot, a);
        consider(*c.spotCostUsd, Pricing::Spot, std::nullopt);
    }
    const bool payAsYouGo = c.cheapestCostUsd.has_value();
    for (const auto& reserved : offer.reserved) {
        const double cost
            = cloudCostUsd(reserved.usdPerHour, c.instances, days, Pricing::Reserved, a);
        c.reservedCostUsd.push_back(cost);
        if (!payAsYouGo)
            consider(cost, Pricing::Reserved, reserved.years);
    }
    c.cheapestIsCommitment = !payAsYouGo && c.cheapestCostUsd.has_value();
    if (c.cheapestCostUsd) {
        const RentedPlan plan
            = rentedPlan(*c.cheapestCostUsd, runDays(days, c.cheapestPricing, a), a);
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
        b.runs = breakEvenRuns(o.machineCostUsd, b.costPerRunUsd, o.energyCostUsd);
        if (b.runs)
            b.months = monthsAtRunRate(*b.runs, o.runsPerMonth);
        o.breakEvens.push_back(b);
    }
}

void compareWithCloud(const Assumptions& a, Results& r)
{
    for (std::size_t optionIndex = 0; optionIndex < r.options.size(); ++optionIndex) {
        auto& o = r.options[optionIndex];
        // A machine cannot run more experiments a month than fit back to back.
        o.runsPerMonth = cappedRunsPerMonth(o.estimate.days, a);
        for (std::size_t i : matchingCloudOffers(r, optionIndex)) {
            const auto& c = r.cloud[i];
            addBreakEvens(o, i, c);
            if (c.cheapestIsCommitment)
                continue;
            if (!o.cheapestCloudIndex
                || *c.cheapestCostUsd < *r.cloud[*o.cheapestCloudIndex].cheapestCostUsd)
                o.cheapestCloudIndex = i;
        }
        if (o.cheapestCloudIndex)
            o.breakEvenRuns = breakEvenRuns(
                o.machineCostUsd, *r.cloud[*o.cheapestCloudIndex].cheapestCostUsd, o.energyCostUsd);
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
    if (!s.catalog) {
        r.warnings.push_back({ Warning::Kind::NoCatalog, {}, {} });
        return r;
    }
    r.workload = s.catalog->findWorkload(s.modelId);
    if (!r.workload) {
        r.warnings.push_back({ Warning::Kind::UnknownModel, s.modelId, {} });
        return r;
    }
    addOwnedOptions(s, *r.workload, r);
    markFrontiers(r);
    recommend(s, r);
    addCloudOptions(s, *r.workload, r);
    compareWithCloud(s.assumptions, r);
    if (r.options.empty())
        r.warnings.push_back({ Warning::Kind::NoEstimateForAnyMachine, r.workload->id, {} });
    return r;
}

} // namespace gpuplan

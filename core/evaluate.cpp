#include "core/evaluate.h"

#include "core/decisions.h"
#include "core/estimators.h"

#include <algorithm>
#include <cstdio>

namespace gpuplan {

namespace {

constexpr double kDaysPerMonth = 365.25 / 12.0;

std::string usd(double value)
{
    // "$40,000": grouping by hand keeps core free of locales.
    char digits[32];
    std::snprintf(digits, sizeof digits, "%.0f", value);
    std::string raw = digits;
    std::string grouped;
    const std::size_t start = raw[0] == '-' ? 1 : 0;
    for (std::size_t i = start; i < raw.size(); ++i) {
        if (i > start && (raw.size() - i) % 3 == 0)
            grouped += ',';
        grouped += raw[i];
    }
    return (start ? "-$" : "$") + grouped;
}

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

std::string unavailableReason(const Scenario& s, const std::optional<TrainingEstimate>& e)
{
    if (e && !e->feasible)
        return "infeasible: " + e->note;
    return "no " + std::string(toString(s.source)) + " estimate";
}

void addOwnedOptions(const Scenario& s, const Workload& w, Results& r)
{
    const auto& a = s.assumptions;
    for (const GpuSpec* gpu : purchasableGpus(s)) {
        for (int count : s.gpuCounts) {
            const ChassisSpec* chassis = smallestChassisFor(count, s.catalog->chassis);
            if (!chassis) {
                r.unavailable.push_back(
                    { gpu->id, count, "no chassis with " + std::to_string(count) + " GPU slots" });
                continue;
            }
            auto estimate
                = estimateTraining(*s.catalog, s.source, w, *gpu, count, a.analyticUtilization);
            if (!estimate || !estimate->feasible) {
                r.unavailable.push_back({ gpu->id, count, unavailableReason(s, estimate) });
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
            o.planTotalUsd = o.machineCostUsd + a.plannedRuns * o.energyCostUsd;
            o.planAmortizedUsd = a.plannedRuns * (o.experimentCostUsd + o.energyCostUsd);
            o.planCalendarDays = a.plannedRuns * o.estimate.days;
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
        r.recommended = cheapestWithinBoth(points, *s.budgetUsd, *s.deadlineDays);
        r.recommendationReason = "cheapest machine within the " + usd(*s.budgetUsd)
            + " budget that trains within " + std::to_string(static_cast<int>(*s.deadlineDays))
            + " days";
    } else if (s.budgetUsd) {
        r.recommended = fastestWithinBudget(points, *s.budgetUsd);
        r.recommendationReason = "fastest machine within the " + usd(*s.budgetUsd) + " budget";
    } else if (s.deadlineDays) {
        r.recommended = cheapestWithinDeadline(points, *s.deadlineDays);
        r.recommendationReason = "cheapest machine that trains within "
            + std::to_string(static_cast<int>(*s.deadlineDays)) + " days";
    }
    if ((s.budgetUsd || s.deadlineDays) && !r.recommended)
        r.recommendationReason = "no machine meets the constraints";
}

void priceCloudOption(const Assumptions& a, CloudOption& c)
{
    const auto& offer = *c.offer;
    const double days = c.estimate.days;
    auto consider = [&c](double cost, const std::string& pricing) {
        if (!c.cheapestCostUsd || cost < *c.cheapestCostUsd) {
            c.cheapestCostUsd = cost;
            c.cheapestPricing = pricing;
        }
    };
    if (offer.onDemandUsdPerHour) {
        c.onDemandCostUsd = cloudCostUsd(*offer.onDemandUsdPerHour, c.instances, days, false, a);
        consider(*c.onDemandCostUsd, "on-demand");
    }
    if (offer.spotUsdPerHour) {
        c.spotCostUsd = cloudCostUsd(*offer.spotUsdPerHour, c.instances, days, true, a);
        consider(*c.spotCostUsd, "spot");
    }
    const bool payAsYouGo = c.cheapestCostUsd.has_value();
    for (const auto& reserved : offer.reserved) {
        const double cost = cloudCostUsd(reserved.usdPerHour, c.instances, days, false, a);
        c.reservedCostUsd.push_back(cost);
        char label[48];
        std::snprintf(label, sizeof label, "reserved %g-yr", reserved.years);
        if (!payAsYouGo)
            consider(cost, label);
    }
    c.cheapestIsCommitment = !payAsYouGo && c.cheapestCostUsd.has_value();
    if (c.cheapestCostUsd) {
        const bool spot = c.cheapestPricing == "spot";
        c.planTotalUsd = a.plannedRuns * *c.cheapestCostUsd;
        c.planCalendarDays = a.plannedRuns * (spot ? spotRunDays(days, a) : days);
    }
}

void addCloudOptions(const Scenario& s, const Workload& w, Results& r)
{
    const auto& a = s.assumptions;
    for (const auto& offer : s.catalog->cloudOffers) {
        const GpuSpec* gpu = s.catalog->findGpu(offer.gpuId);
        if (!gpu) {
            r.warnings.push_back("cloud offer " + offer.id + " names unknown GPU " + offer.gpuId);
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

void compareWithCloud(const Assumptions& a, Results& r)
{
    for (auto& o : r.options) {
        for (std::size_t i = 0; i < r.cloud.size(); ++i) {
            const auto& c = r.cloud[i];
            if (c.gpu != o.gpu || c.gpuCount != o.gpuCount || c.cheapestIsCommitment)
                continue;
            if (!o.cheapestCloudIndex
                || *c.cheapestCostUsd < *r.cloud[*o.cheapestCloudIndex].cheapestCostUsd)
                o.cheapestCloudIndex = i;
        }
        if (o.cheapestCloudIndex)
            o.breakEvenRuns = breakEvenRuns(
                o.machineCostUsd, *r.cloud[*o.cheapestCloudIndex].cheapestCostUsd, o.energyCostUsd);
        // A machine cannot run more experiments a month than fit back to back.
        const double capacityPerMonth = kDaysPerMonth / o.estimate.days;
        o.runsPerMonth = std::min(a.runsPerMonth, capacityPerMonth);
        if (o.breakEvenRuns && o.runsPerMonth > 0.0)
            o.breakEvenMonths = *o.breakEvenRuns / o.runsPerMonth;
    }
}

} // namespace

Results evaluate(const Scenario& s)
{
    Results r;
    r.source = s.source;
    r.assumptions = s.assumptions;
    if (!s.catalog) {
        r.warnings.push_back("no catalog loaded");
        return r;
    }
    r.workload = s.catalog->findWorkload(s.modelId);
    if (!r.workload) {
        r.warnings.push_back("unknown model: " + s.modelId);
        return r;
    }
    addOwnedOptions(s, *r.workload, r);
    markFrontiers(r);
    recommend(s, r);
    addCloudOptions(s, *r.workload, r);
    compareWithCloud(s.assumptions, r);
    if (r.options.empty())
        r.warnings.push_back("no machine has a " + std::string(toString(s.source))
            + " estimate for " + r.workload->id);
    return r;
}

} // namespace gpuplan

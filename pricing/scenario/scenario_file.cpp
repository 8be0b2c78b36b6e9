#include "pricing/scenario/scenario_file.h"

#include "pricing/yaml_reader.h"

#include <yaml-cpp/yaml.h>

namespace gpuplan {

namespace {

constexpr std::string_view kKind = "gpuplan-scenario";
constexpr int kMaxGpuCount = 4096;

struct NumberField {
    const char* key;
    yaml::Range range;
    double Assumptions::*member;
};

// The same bounds as gpuplan-cli plan's options.
const NumberField kAssumptionFields[] = {
    { "amortization_years", { 0.1, 50.0 }, &Assumptions::amortizationYears },
    { "machine_utilization", { 0.01, 1.0 }, &Assumptions::machineUtilization },
    { "electricity_usd_per_kwh", { 0.0, 10.0 }, &Assumptions::electricityUsdPerKwh },
    { "pue", { 1.0, 5.0 }, &Assumptions::pue },
    { "spot_restart_overhead", { 0.0, 10.0 }, &Assumptions::spotRestartOverhead },
    { "indirect_rate", { 0.0, 2.0 }, &Assumptions::indirectRate },
    { "analytic_utilization", { 0.01, 1.0 }, &Assumptions::analyticUtilization },
    { "runs_per_month", { 0.01, 1e4 }, &Assumptions::runsPerMonth },
};

void readAssumptions(yaml::Reader& in, const YAML::Node& node, Assumptions& a)
{
    if (!in.expectMap(node, "assumptions"))
        return;
    in.warnUnknownKeys(node,
        { "amortization_years", "machine_utilization", "electricity_usd_per_kwh", "pue",
            "spot_restart_overhead", "indirect_rate", "analytic_utilization", "planned_runs",
            "runs_per_month" },
        "assumptions");
    for (const auto& f : kAssumptionFields)
        if (auto v = in.number(node, f.key, "assumptions", f.range, /*required=*/false))
            a.*f.member = *v;
    if (auto runs = in.integer(node, "planned_runs", "assumptions", { 1, 1e6 }, false))
        a.plannedRuns = static_cast<int>(*runs);
}

std::vector<int> readCounts(yaml::Reader& in, const YAML::Node& node)
{
    std::vector<int> counts;
    if (!in.expectSequence(node, "gpu_counts"))
        return counts;
    for (const auto& item : node)
        if (auto n = in.number(item, "gpu_counts", { 1, kMaxGpuCount }))
            counts.push_back(static_cast<int>(*n));
    if (counts.empty())
        in.error(node, "gpu_counts needs at least one count");
    return counts;
}

ScenarioView readView(yaml::Reader& in, const YAML::Node& node)
{
    ScenarioView view;
    if (!in.expectMap(node, "view"))
        return view;
    in.warnUnknownKeys(node, { "log_axes", "buy_vs_rent" }, "view");
    view.logAxes = in.boolean(node, "log_axes", "view", /*required=*/false);
    if (const YAML::Node buy = node["buy_vs_rent"]; buy && in.expectMap(buy, "buy_vs_rent")) {
        in.warnUnknownKeys(buy, { "gpu", "gpu_count", "axis", "offers" }, "buy_vs_rent");
        const auto gpu = in.id(buy, "gpu", "buy_vs_rent");
        const auto count = in.integer(buy, "gpu_count", "buy_vs_rent", { 1, kMaxGpuCount });
        if (gpu && count) {
            view.buyGpuId = *gpu;
            view.buyGpuCount = static_cast<int>(*count);
        }
        if (const auto axis = in.string(buy, "axis", "buy_vs_rent", /*required=*/false)) {
            if (*axis == "runs" || *axis == "months")
                view.buyMonths = *axis == "months";
            else
                in.error(buy["axis"], "axis must be runs or months, not '" + *axis + "'");
        }
        if (const YAML::Node offers = buy["offers"];
            offers && in.expectSequence(offers, "offers")) {
            std::vector<ScenarioCloudChoice> chosen;
            for (const YAML::Node& offer : offers) {
                if (!in.expectMap(offer, "offer"))
                    continue;
                in.warnUnknownKeys(offer, { "offer", "gpu_count" }, "offer");
                const auto id = in.id(offer, "offer", "offer");
                const auto n = in.integer(offer, "gpu_count", "offer", { 1, kMaxGpuCount });
                if (id && n)
                    chosen.push_back({ *id, static_cast<int>(*n) });
            }
            view.buyOffers = std::move(chosen);
        }
    }
    return view;
}

} // namespace

ScenarioRead readScenario(
    std::string_view text, const std::string& fileName, const Assumptions& defaults)
{
    ScenarioRead out;
    yaml::Reader in(fileName, out.issues);
    const auto root = in.parse(text);
    if (!root)
        return out;
    const std::size_t errorsBefore = in.errorCount();
    in.warnUnknownKeys(*root,
        { "schema_version", "kind", "model", "source", "budget_usd", "deadline_days", "gpu_counts",
            "gpus", "assumptions", "view" },
        "scenario");
    if (auto kind = in.string(*root, "kind", "scenario"); kind && *kind != kKind)
        in.error((*root)["kind"],
            "kind must be '" + std::string(kKind) + "', not '" + *kind
                + "': this is not a scenario file");
    Scenario s;
    s.assumptions = defaults;
    if (auto model = in.id(*root, "model", "scenario"))
        s.modelId = *model;
    if (auto source = in.string(*root, "source", "scenario", /*required=*/false)) {
        if (auto policy = sourcePolicyFromString(*source))
            s.source = *policy;
        else
            in.error((*root)["source"],
                "unknown source '" + *source
                    + "' (best, paper, paper-naive, analytic or measured)");
    }
    s.budgetUsd = in.number(*root, "budget_usd", "scenario", { 1.0, 1e10 }, false);
    s.deadlineDays = in.number(*root, "deadline_days", "scenario", { 0.01, 1e6 }, false);
    if (const YAML::Node counts = (*root)["gpu_counts"])
        s.gpuCounts = readCounts(in, counts);
    if (const YAML::Node gpus = (*root)["gpus"]; gpus && in.expectSequence(gpus, "gpus")) {
        for (const auto& g : gpus) {
            if (g.IsScalar() && !g.Scalar().empty())
                s.gpuIds.push_back(g.Scalar());
            else
                in.error(g, "gpus: each entry must be a GPU id");
        }
    }
    if (const YAML::Node a = (*root)["assumptions"])
        readAssumptions(in, a, s.assumptions);
    if (const YAML::Node view = (*root)["view"])
        out.view = readView(in, view);
    if (in.errorCount() == errorsBefore)
        out.scenario = std::move(s);
    return out;
}

std::string writeScenario(const Scenario& s, const ScenarioView& view)
{
    YAML::Emitter out;
    out.SetDoublePrecision(10);
    out << YAML::BeginMap;
    out << YAML::Key << "schema_version" << YAML::Value << yaml::kSchemaVersion;
    out << YAML::Key << "kind" << YAML::Value << std::string(kKind);
    out << YAML::Key << "model" << YAML::Value << s.modelId;
    out << YAML::Key << "source" << YAML::Value << std::string(toString(s.source));
    if (s.budgetUsd)
        out << YAML::Key << "budget_usd" << YAML::Value << *s.budgetUsd;
    if (s.deadlineDays)
        out << YAML::Key << "deadline_days" << YAML::Value << *s.deadlineDays;
    out << YAML::Key << "gpu_counts" << YAML::Value << YAML::Flow << s.gpuCounts;
    if (!s.gpuIds.empty())
        out << YAML::Key << "gpus" << YAML::Value << YAML::Flow << s.gpuIds;
    out << YAML::Key << "assumptions" << YAML::Value << YAML::BeginMap;
    for (const auto& f : kAssumptionFields)
        out << YAML::Key << f.key << YAML::Value << s.assumptions.*f.member;
    out << YAML::Key << "planned_runs" << YAML::Value << s.assumptions.plannedRuns;
    out << YAML::EndMap;
    if (view != ScenarioView {}) {
        out << YAML::Key << "view" << YAML::Value << YAML::BeginMap;
        if (view.logAxes)
            out << YAML::Key << "log_axes" << YAML::Value << *view.logAxes;
        if (view.buyGpuId && view.buyGpuCount) {
            out << YAML::Key << "buy_vs_rent" << YAML::Value << YAML::Flow << YAML::BeginMap;
            out << YAML::Key << "gpu" << YAML::Value << *view.buyGpuId;
            out << YAML::Key << "gpu_count" << YAML::Value << *view.buyGpuCount;
            if (view.buyMonths)
                out << YAML::Key << "axis" << YAML::Value << (*view.buyMonths ? "months" : "runs");
            if (view.buyOffers) {
                out << YAML::Key << "offers" << YAML::Value << YAML::BeginSeq;
                for (const auto& offer : *view.buyOffers)
                    out << YAML::BeginMap << YAML::Key << "offer" << YAML::Value << offer.offerId
                        << YAML::Key << "gpu_count" << YAML::Value << offer.gpuCount
                        << YAML::EndMap;
                out << YAML::EndSeq;
            }
            out << YAML::EndMap;
        }
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

} // namespace gpuplan

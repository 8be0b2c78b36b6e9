#include "pricing/scenario/scenario_file.h"

#include "core/limits.h"
#include "pricing/catalog_loader.h"
#include "pricing/yaml_reader.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>

namespace gpuplan {

namespace {

constexpr std::string_view kKind = "gpuplan-scenario";
// The citation of a value a scenario file keeps that the user did not choose and the tables no
// longer give (they changed since it was saved): neither theirs nor the tables' source's.
constexpr std::string_view kScenarioValue
    = "the value saved with the scenario; the price tables now give another";

// Bounds from the assumption table (core/assumption_table.h), as in price tables and the CLI.
// `userSupplied`: the keys the file marks as the user's own figures (user_supplied); a value
// the user chose is cited as theirs, one from the tables of its day as the scenario's.
void readAssumptions(yaml::Reader& in, const YAML::Node& node,
    const std::vector<std::string>& userSupplied, Assumptions& a)
{
    if (!in.expectMap(node, "assumptions"))
        return;
    in.warnUnknownKeys(node, assumptionKeys(), "assumptions");
    for (const auto& spec : kAssumptionSpecs) {
        const auto value = in.number(
            node, spec.key, "assumptions", spec.bounds, spec.wholeNumber, /*required=*/false);
        if (!value)
            continue;
        const bool chosen
            = std::find(userSupplied.begin(), userSupplied.end(), spec.key) != userSupplied.end();
        chooseAssumptionValue(a, spec.id, *value);
        Provenance& source = a.source(spec.id);
        if (chosen) {
            source = {};
            source.source = std::string(kUserSupplied);
        } else if (source.source == kUserSupplied)
            source.source = std::string(kScenarioValue);
    }
}

std::vector<std::string> readUserSupplied(yaml::Reader& in, const YAML::Node& node)
{
    std::vector<std::string> keys;
    if (!in.expectSequence(node, "user_supplied"))
        return keys;
    for (const auto& item : node) {
        const bool known = item.IsScalar()
            && std::any_of(kAssumptionSpecs.begin(), kAssumptionSpecs.end(),
                [&item](const AssumptionSpec& spec) { return spec.key == item.Scalar(); });
        // Not one of ours (a newer gpuplan's assumption): warned and left out, as unknown keys
        // under assumptions are, so that the file still opens.
        if (known)
            keys.push_back(item.Scalar());
        else
            in.warning(item,
                "user_supplied: '" + (item.IsScalar() ? item.Scalar() : std::string("?"))
                    + "' is not an assumption's key; ignored");
    }
    return keys;
}

std::vector<int> readCounts(yaml::Reader& in, const YAML::Node& node)
{
    std::vector<int> counts;
    if (!in.expectSequence(node, "gpu_counts"))
        return counts;
    for (const auto& item : node)
        if (auto n = in.integer(item, "gpu_counts", limits::kGpuCount.bounds)) {
            // Twice drew every machine of that count twice.
            if (std::find(counts.begin(), counts.end(), static_cast<int>(*n)) != counts.end())
                in.error(item, "gpu_counts: " + item.Scalar() + " is listed twice");
            counts.push_back(static_cast<int>(*n));
        }
    if (counts.empty())
        in.error(node, "gpu_counts needs at least one count");
    return counts;
}

// "YYYY-MM": the month a grant starts (labels only, so no day); the price tables' date rule.
bool parseMonth(const std::string& text, GrantPlan& plan)
{
    if (text.size() != 7 || !yaml::isIsoDate(text))
        return false;
    const int year = std::stoi(text.substr(0, 4));
    if (!limits::kGrantStartYear.contains(year))
        return false;
    plan.startYear = year;
    plan.startMonth = std::stoi(text.substr(5));
    return true;
}

// The grant section; what checkGrantPlan can say without a target (the run plan's length, the
// year of purchase) is checked here, so the error names the line.
std::optional<ScenarioGrant> readGrant(yaml::Reader& in, const YAML::Node& node)
{
    if (!in.expectMap(node, "grant"))
        return std::nullopt;
    const std::size_t errorsBefore = in.errorCount();
    in.warnUnknownKeys(
        node, { "years", "start", "runs_per_year", "equipment_year", "sponsor" }, "grant");
    ScenarioGrant grant;
    if (const auto years = in.integer(node, "years", "grant", limits::kGrantYears.bounds))
        grant.plan.years = static_cast<int>(*years);
    if (const auto start = in.string(node, "start", "grant", /*required=*/false);
        start && !parseMonth(*start, grant.plan))
        in.error(node["start"],
            "start must be a month, YYYY-MM, from "
                + std::to_string(static_cast<int>(limits::kGrantStartYear.min)) + " to "
                + std::to_string(static_cast<int>(limits::kGrantStartYear.max)) + ", not '" + *start
                + "'");
    if (const YAML::Node runs = node["runs_per_year"];
        runs && in.expectSequence(runs, "runs_per_year")) {
        for (const YAML::Node& item : runs)
            if (const auto n = in.integer(item, "runs_per_year", limits::kRunsPerYear.bounds))
                grant.plan.runsPerYear.push_back(static_cast<int>(*n));
        if (in.errorCount() == errorsBefore
            && grant.plan.runsPerYear.size() != static_cast<std::size_t>(grant.plan.years))
            in.error(runs,
                "runs_per_year has " + std::to_string(grant.plan.runsPerYear.size())
                    + " entries for a grant of " + std::to_string(grant.plan.years)
                    + " years: give one per year");
    }
    if (const auto year = in.integer(node, "equipment_year", "grant",
            { 1.0, limits::kGrantYears.bounds.max }, /*required=*/false)) {
        grant.plan.equipmentYear = static_cast<int>(*year);
        if (grant.plan.equipmentYear > grant.plan.years)
            in.error(node["equipment_year"],
                "equipment_year " + std::to_string(grant.plan.equipmentYear)
                    + " is not a year of a " + std::to_string(grant.plan.years) + "-year grant");
    }
    if (node["sponsor"])
        if (const auto sponsor = in.id(node, "sponsor", "grant"))
            grant.sponsorId = *sponsor;
    if (in.errorCount() != errorsBefore)
        return std::nullopt;
    return grant;
}

ScenarioView readView(yaml::Reader& in, const YAML::Node& node)
{
    ScenarioView view;
    if (!in.expectMap(node, "view"))
        return view;
    in.warnUnknownKeys(node, { "log_axes", "buy_vs_rent", "budget" }, "view");
    view.logAxes = in.boolean(node, "log_axes", "view", /*required=*/false);
    if (const YAML::Node buy = node["buy_vs_rent"]; buy && in.expectMap(buy, "buy_vs_rent")) {
        in.warnUnknownKeys(buy, { "gpu", "gpu_count", "axis", "offers" }, "buy_vs_rent");
        const auto gpu = in.id(buy, "gpu", "buy_vs_rent");
        const auto count = in.integer(buy, "gpu_count", "buy_vs_rent", limits::kGpuCount.bounds);
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
                const auto n = in.integer(offer, "gpu_count", "offer", limits::kGpuCount.bounds);
                if (id && n)
                    chosen.push_back({ *id, static_cast<int>(*n) });
            }
            view.buyOffers = std::move(chosen);
        }
    }
    if (const YAML::Node budget = node["budget"]; budget && in.expectMap(budget, "budget")) {
        in.warnUnknownKeys(budget, { "gpu", "offer", "gpu_count", "terms" }, "budget");
        const auto count = in.integer(budget, "gpu_count", "budget", limits::kGpuCount.bounds);
        const auto gpu = budget["gpu"] ? in.id(budget, "gpu", "budget") : std::nullopt;
        const auto offer = budget["offer"] ? in.id(budget, "offer", "budget") : std::nullopt;
        if (budget["gpu"].IsDefined() == budget["offer"].IsDefined())
            in.error(budget,
                "budget needs a gpu (a machine) or an offer (a way to rent), not "
                    + std::string(budget["gpu"] ? "both" : "neither"));
        else if (count && gpu) {
            view.budgetGpuId = *gpu;
            view.budgetGpuCount = static_cast<int>(*count);
        } else if (count && offer)
            view.budgetOffer = ScenarioCloudChoice { *offer, static_cast<int>(*count) };
        if (const YAML::Node terms = budget["terms"]) {
            const auto value = in.string(budget, "terms", "budget");
            if (value && *value != "reserved")
                in.error(terms, "budget terms must be 'reserved', not '" + *value + "'");
            else if (value && budget["gpu"] && !budget["offer"])
                in.error(terms, "budget terms go with an offer (a way to rent), not a gpu");
            else if (value)
                view.budgetReservedTerms = true;
        }
    }
    return view;
}

// The document's sections, once parsed; what is read lands in `out` only where nothing in
// it is wrong.
void readScenarioDocument(yaml::Reader& in, const YAML::Node& root, const Assumptions& defaults,
    const Catalog* catalog, ScenarioRead& out)
{
    const std::size_t errorsBefore = in.errorCount();
    in.warnUnknownKeys(root,
        { "schema_version", "kind", "model", "source", "price_set", "budget_usd", "deadline_days",
            "gpu_counts", "gpus", "assumptions", "user_supplied", "grant", "view" },
        "scenario");
    if (auto kind = in.string(root, "kind", "scenario"); kind && *kind != kKind)
        in.error(root["kind"],
            "kind must be '" + std::string(kKind) + "', not '" + *kind
                + "': this is not a scenario file");
    Scenario s;
    s.assumptions = defaults;
    if (auto model = in.id(root, "model", "scenario")) {
        s.modelId = *model;
        if (catalog && !catalog->findWorkload(*model))
            in.error(root["model"],
                "model '" + *model + "' is not in the price tables (see the Planner's model list)");
    }
    if (auto source = in.string(root, "source", "scenario", /*required=*/false)) {
        if (auto policy = sourcePolicyFromString(*source))
            s.source = *policy;
        else
            in.error(root["source"],
                "unknown source '" + *source
                    + "' (best, paper, paper-naive, analytic, measured or extrapolated)");
    }
    if (auto set = in.string(root, "price_set", "scenario", /*required=*/false)) {
        if (isPriceSet(*set))
            out.priceSet = *set;
        else
            in.error(
                root["price_set"], "unknown price_set '" + *set + "' (" + priceSetChoices() + ")");
    }
    s.budgetUsd = in.number(root, "budget_usd", "scenario", limits::kBudgetUsd.bounds, false);
    s.deadlineDays
        = in.number(root, "deadline_days", "scenario", limits::kDeadlineDays.bounds, false);
    if (const YAML::Node counts = root["gpu_counts"])
        s.gpuCounts = readCounts(in, counts);
    if (const YAML::Node gpus = root["gpus"]; gpus && in.expectSequence(gpus, "gpus")) {
        for (const auto& g : gpus) {
            if (!g.IsScalar() || g.Scalar().empty())
                in.error(g, "gpus: each entry must be a GPU id");
            else if (std::find(s.gpuIds.begin(), s.gpuIds.end(), g.Scalar()) != s.gpuIds.end())
                in.error(g, "gpus: '" + g.Scalar() + "' is listed twice");
            else if (catalog && !catalog->findGpu(g.Scalar()))
                // Kept, it selected nothing: the scenario opened on empty charts without a word.
                in.warning(g,
                    "gpus: '" + g.Scalar()
                        + "' is not in the price tables; left out of the GPUs shown");
            else
                s.gpuIds.push_back(g.Scalar());
        }
        // None known: no selection is every GPU, which the warnings' "left out" must not hide.
        if (catalog && s.gpuIds.empty() && gpus.size() > 0)
            in.warning(
                gpus, "gpus: none of the GPUs listed is in the price tables; every GPU is shown");
    }
    std::vector<std::string> userSupplied;
    if (const YAML::Node chosen = root["user_supplied"])
        userSupplied = readUserSupplied(in, chosen);
    if (const YAML::Node a = root["assumptions"])
        readAssumptions(in, a, userSupplied, s.assumptions);
    if (const YAML::Node grant = root["grant"])
        out.grant = readGrant(in, grant);
    if (const YAML::Node view = root["view"])
        out.view = readView(in, view);
    if (in.errorCount() == errorsBefore)
        out.scenario = std::move(s);
}

} // namespace

ScenarioRead readScenario(std::string_view text, const std::string& fileName,
    const Assumptions& defaults, const Catalog* catalog)
{
    ScenarioRead out;
    yaml::Reader in(fileName, out.issues);
    if (const auto root = in.parse(text);
        root && !in.guarded([&] { readScenarioDocument(in, *root, defaults, catalog, out); }))
        out.scenario.reset(); // read in part: nothing of it is opened
    return out;
}

std::string writeScenario(
    const Scenario& s, const ScenarioView& view, const std::optional<ScenarioGrant>& grant)
{
    YAML::Emitter out;
    out.SetDoublePrecision(10);
    out << YAML::BeginMap;
    out << YAML::Key << "schema_version" << YAML::Value << yaml::kSchemaVersion;
    out << YAML::Key << "kind" << YAML::Value << std::string(kKind);
    out << YAML::Key << "model" << YAML::Value << s.modelId;
    out << YAML::Key << "source" << YAML::Value << std::string(toString(s.source));
    if (s.catalog && !s.catalog->priceSet.empty())
        out << YAML::Key << "price_set" << YAML::Value << s.catalog->priceSet;
    if (s.budgetUsd)
        out << YAML::Key << "budget_usd" << YAML::Value << *s.budgetUsd;
    if (s.deadlineDays)
        out << YAML::Key << "deadline_days" << YAML::Value << *s.deadlineDays;
    out << YAML::Key << "gpu_counts" << YAML::Value << YAML::Flow << s.gpuCounts;
    if (!s.gpuIds.empty())
        out << YAML::Key << "gpus" << YAML::Value << YAML::Flow << s.gpuIds;
    out << YAML::Key << "assumptions" << YAML::Value << YAML::BeginMap;
    for (const auto& spec : kAssumptionSpecs) {
        out << YAML::Key << std::string(spec.key) << YAML::Value;
        if (spec.wholeNumber)
            out << static_cast<long long>(assumptionValue(s.assumptions, spec.id));
        else
            out << assumptionValue(s.assumptions, spec.id);
    }
    out << YAML::EndMap;
    // Which of them are the user's own figures, so that a proposal cites them as such when the
    // file is opened again against tables that may have changed.
    std::vector<std::string> userSupplied;
    for (const auto& spec : kAssumptionSpecs)
        if (s.assumptions.source(spec.id).source == kUserSupplied)
            userSupplied.emplace_back(spec.key);
    if (!userSupplied.empty())
        out << YAML::Key << "user_supplied" << YAML::Value << YAML::Flow << userSupplied;
    if (grant) {
        const GrantPlan& plan = grant->plan;
        char start[16];
        std::snprintf(start, sizeof start, "%04d-%02d", plan.startYear, plan.startMonth);
        out << YAML::Key << "grant" << YAML::Value << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "years" << YAML::Value << plan.years;
        out << YAML::Key << "start" << YAML::Value << std::string(start);
        if (!plan.runsPerYear.empty())
            out << YAML::Key << "runs_per_year" << YAML::Value << YAML::Flow << plan.runsPerYear;
        out << YAML::Key << "equipment_year" << YAML::Value << plan.equipmentYear;
        if (grant->sponsorId)
            out << YAML::Key << "sponsor" << YAML::Value << *grant->sponsorId;
        out << YAML::EndMap;
    }
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
        if ((view.budgetGpuId && view.budgetGpuCount) || view.budgetOffer) {
            out << YAML::Key << "budget" << YAML::Value << YAML::Flow << YAML::BeginMap;
            if (view.budgetOffer) {
                out << YAML::Key << "offer" << YAML::Value << view.budgetOffer->offerId << YAML::Key
                    << "gpu_count" << YAML::Value << view.budgetOffer->gpuCount;
                if (view.budgetReservedTerms)
                    out << YAML::Key << "terms" << YAML::Value << "reserved";
            } else
                out << YAML::Key << "gpu" << YAML::Value << *view.budgetGpuId << YAML::Key
                    << "gpu_count" << YAML::Value << *view.budgetGpuCount;
            out << YAML::EndMap;
        }
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

} // namespace gpuplan

#include "pricing/section_readers.h"

#include <algorithm>
#include <set>

namespace gpuplan {

namespace {

using yaml::Range;

// Every bound comes from core/limits.h, shared with the scenario files, the CLI and the GUI.
constexpr Range kPriceUsd = limits::kPriceUsd.bounds;
constexpr Range kMemoryGb = limits::kMemoryGb.bounds;
constexpr Range kPeakTflops = limits::kPeakTflops.bounds;
constexpr Range kPowerWatts = limits::kPowerWatts.bounds;
constexpr Range kGpuSlots = limits::kGpuSlots.bounds;
constexpr Range kPowerSupplies = limits::kPowerSupplies.bounds;
constexpr Range kEquipmentThresholdUsd = limits::kEquipmentThresholdUsd.bounds;
constexpr Range kGpusPerInstance = limits::kGpusPerInstance.bounds;
constexpr Range kMaxGpusPerInstance = limits::kMaxGpusPerInstance.bounds;
constexpr Range kHourlyUsd = limits::kHourlyUsd.bounds;
constexpr Range kReservedYears = limits::kReservedYears.bounds;
constexpr Range kParameters = limits::kParameters.bounds;
constexpr Range kTrainingFlops = limits::kTrainingFlops.bounds;
constexpr Range kBatch = limits::kBatch.bounds;
constexpr Range kSteps = limits::kSteps.bounds;
constexpr Range kTokensOrPixels = limits::kTokensOrPixels.bounds;
constexpr Range kDays = limits::kTrainingDays.bounds;
// A reference table's cell the source leaves empty (no figure; null is an infeasible one).
constexpr std::string_view kBlankReferenceCell = "blank";
constexpr Range kGpuCount = limits::kGpuCount.bounds;
constexpr Range kWaitDays = limits::kWaitDays.bounds;

std::string named(std::string_view kind, const std::string& id)
{
    return std::string(kind) + " '" + id + "'";
}

PendingReference referenceAt(const yaml::Reader& reader, const YAML::Node& at,
    PendingReference::Kind kind, std::string id, std::string context)
{
    const auto mark = at.Mark();
    return { kind, std::move(id), std::move(context), reader.fileName(), mark.line + 1,
        mark.column + 1 };
}

// Runs `readOne` for each map in the list `section`, with the common list checks.
// Two entries with the same `key` (an id; the GPU a price set prices) are an error: the later
// would silently replace the earlier.
template <typename ReadOne>
void forEachEntry(yaml::Reader& reader, const YAML::Node& root, const char* section,
    const char* entryKind, ReadOne readOne, const char* key = "id")
{
    const YAML::Node list = root[section];
    if (!list)
        return;
    if (!reader.expectSequence(list, section))
        return;
    if (list.size() > yaml::kMaxEntries) {
        reader.error(list,
            std::string(section) + " has " + std::to_string(list.size()) + " entries, more than "
                + std::to_string(yaml::kMaxEntries));
        return;
    }
    std::set<std::string> ids;
    for (const auto& entry : list) {
        if (!reader.expectMap(entry, std::string("an entry of ") + section))
            continue;
        if (entry[key] && entry[key].IsScalar() && !ids.insert(entry[key].Scalar()).second) {
            reader.error(entry[key],
                "duplicate " + named(entryKind, entry[key].Scalar()) + " in " + section);
            continue;
        }
        readOne(entry);
    }
}

// Reads an entry and reports whether it produced no new error (an entry with errors is
// left out of the catalog).
template <typename Body> bool withoutNewErrors(const yaml::Reader& reader, Body body)
{
    const auto errorsBefore = reader.errorCount();
    body();
    return reader.errorCount() == errorsBefore;
}

class LayerReader {
public:
    explicit LayerReader(yaml::Reader& reader)
        : m_reader(reader)
    {
    }

    CatalogLayer read(const YAML::Node& root)
    {
        // A file with nothing to read is a mistake, most likely another kind of gpuplan file.
        bool anySection = false;
        for (const char* section : { "gpus", "gpu_prices", "chassis", "systems", "cloud_offers",
                 "models", "assumptions", "reference_tables", "sponsors" })
            anySection = anySection || root[section];
        if (!anySection) {
            const YAML::Node kind = root["kind"];
            const bool results
                = kind && kind.IsScalar() && kind.Scalar() == "gpuplan-bench-results";
            m_reader.error(root,
                results ? "this is a gpuplan-bench results file, not a price table: give it with "
                          "--results (or File > Import measurements)"
                        : "no price table in the file (gpus, gpu_prices, chassis, systems, "
                          "cloud_offers, models, assumptions, reference_tables or sponsors)");
            return std::move(m_layer);
        }
        m_reader.warnUnknownKeys(root,
            { "schema_version", "title", "description", "gpus", "gpu_prices", "chassis", "systems",
                "cloud_offers", "models", "assumptions", "reference_tables", "sponsors" },
            "the file");
        forEachEntry(m_reader, root, "gpus", "gpu", [this](const YAML::Node& n) { gpu(n); });
        forEachEntry(
            m_reader, root, "gpu_prices", "price of gpu",
            [this](const YAML::Node& n) { gpuPrice(n); }, "gpu");
        forEachEntry(
            m_reader, root, "chassis", "chassis", [this](const YAML::Node& n) { chassis(n); });
        forEachEntry(
            m_reader, root, "systems", "system", [this](const YAML::Node& n) { system(n); });
        forEachEntry(m_reader, root, "cloud_offers", "cloud offer",
            [this](const YAML::Node& n) { cloudOffer(n); });
        forEachEntry(m_reader, root, "models", "model", [this](const YAML::Node& n) { model(n); });
        forEachEntry(
            m_reader, root, "sponsors", "sponsor", [this](const YAML::Node& n) { sponsor(n); });
        if (const YAML::Node a = root["assumptions"])
            assumptions(a);
        if (const YAML::Node tables = root["reference_tables"];
            tables && m_reader.expectSequence(tables, "reference_tables"))
            for (const auto& t : tables)
                referenceTable(t);
        return std::move(m_layer);
    }

private:
    void gpu(const YAML::Node& n)
    {
        GpuSpec g;
        const bool ok = withoutNewErrors(m_reader, [&] {
            g.id = m_reader.id(n, "id", "a gpu").value_or("");
            const std::string what = named("gpu", g.id);
            m_reader.warnUnknownKeys(n,
                { "id", "name", "memory_gb", "board_power_watts", "peak_tflops", "spec", "price",
                    "other_prices", "device_names" },
                what);
            g.name = m_reader.string(n, "name", what).value_or("");
            g.memoryGb = m_reader.number(n, "memory_gb", what, kMemoryGb).value_or(0.0);
            g.boardPowerWatts
                = m_reader.number(n, "board_power_watts", what, kPowerWatts).value_or(0.0);
            if (const YAML::Node peaks = n["peak_tflops"];
                peaks && m_reader.expectMap(peaks, "peak_tflops of " + what)) {
                for (auto it = peaks.begin(); it != peaks.end(); ++it) {
                    const auto precision = precisionFromString(it->first.Scalar());
                    if (!precision) {
                        m_reader.error(it->first,
                            "unknown precision '" + it->first.Scalar() + "' in " + what
                                + " (fp32, tf32, fp16, bf16)");
                        continue;
                    }
                    if (auto v = m_reader.number(it->second,
                            "peak_tflops." + it->first.Scalar() + " of " + what, kPeakTflops))
                        g.peakTflops[*precision] = *v;
                }
            }
            if (const YAML::Node spec = n["spec"]; spec && m_reader.expectMap(spec, "spec")) {
                m_reader.warnUnknownKeys(spec, { "date", "source", "note" }, "spec of " + what);
                g.specSource = m_reader.provenance(spec, "spec of " + what);
            } else if (!spec)
                m_reader.error(n, what + " is missing 'spec' (date and source of its figures)");
            readPrices(n, what, g.priceUsd, g.priceSource, g.otherPrices);
            if (const YAML::Node names = n["device_names"];
                names && m_reader.expectSequence(names, "device_names of " + what))
                for (const auto& name : names)
                    if (name.IsScalar())
                        g.deviceNames.push_back(name.Scalar());
        });
        if (ok)
            m_layer.catalog.gpus.push_back(std::move(g));
    }

    // `price` ({usd, date, source, note}) and `other_prices` (dated context, never used in
    // costs) of a GPU, in its own entry or in a price set's gpu_prices.
    void readPrices(const YAML::Node& n, const std::string& what, std::optional<double>& usd,
        Provenance& source, std::vector<PricePoint>& others)
    {
        if (const YAML::Node price = n["price"];
            price && m_reader.expectMap(price, "price of " + what)) {
            usd = m_reader.number(price, "usd", "price of " + what, kPriceUsd);
            source = m_reader.priceProvenance(price, "price of " + what);
        }
        if (const YAML::Node list = n["other_prices"];
            list && m_reader.expectSequence(list, "other_prices of " + what)) {
            for (const auto& other : list) {
                if (!m_reader.expectMap(other, "an entry of other_prices of " + what))
                    continue;
                PricePoint point;
                point.usd = m_reader.number(other, "usd", "other price of " + what, kPriceUsd)
                                .value_or(0.0);
                point.source = m_reader.priceProvenance(other, "other price of " + what);
                others.push_back(std::move(point));
            }
        }
    }

    // A price set prices GPUs defined elsewhere (pricing/data/gpus.yaml holds the specs).
    void gpuPrice(const YAML::Node& n)
    {
        GpuPriceEntry p;
        const bool ok = withoutNewErrors(m_reader, [&] {
            m_reader.warnUnknownKeys(n, { "gpu", "price", "other_prices" }, "a gpu price");
            p.gpuId = m_reader.id(n, "gpu", "a gpu price").value_or("");
            const std::string what = named("gpu", p.gpuId);
            if (!n["price"] && !n["other_prices"])
                m_reader.error(
                    n, "the price of " + what + " has neither 'price' nor 'other_prices'");
            readPrices(n, what, p.priceUsd, p.priceSource, p.otherPrices);
            if (!p.gpuId.empty()) // where 'gpu' is missing, its node has no place to name
                m_layer.references.push_back(referenceAt(
                    m_reader, n["gpu"], PendingReference::Kind::Gpu, p.gpuId, "gpu_prices"));
        });
        if (ok)
            m_layer.gpuPrices.push_back(std::move(p));
    }

    // A machine sold with its GPUs: its price includes them.
    void system(const YAML::Node& n)
    {
        SystemSpec sys;
        const bool ok = withoutNewErrors(m_reader, [&] {
            sys.id = m_reader.id(n, "id", "a system").value_or("");
            const std::string what = named("system", sys.id);
            m_reader.warnUnknownKeys(
                n, { "id", "name", "gpu", "gpu_count", "price", "base_power" }, what);
            sys.name = m_reader.string(n, "name", what).value_or("");
            if (auto gpu = m_reader.id(n, "gpu", what)) {
                sys.gpuId = *gpu;
                m_layer.references.push_back(
                    referenceAt(m_reader, n["gpu"], PendingReference::Kind::Gpu, *gpu, what));
            }
            sys.gpuCount
                = static_cast<int>(m_reader.integer(n, "gpu_count", what, kGpuSlots).value_or(0));
            readPricedPower(
                n, what, sys.priceUsd, sys.priceSource, sys.basePowerWatts, sys.powerSource);
        });
        if (ok)
            m_layer.catalog.systems.push_back(std::move(sys));
    }

    // `price` and `base_power`, both required: what a chassis or a system costs and draws.
    void readPricedPower(const YAML::Node& n, const std::string& what, double& priceUsd,
        Provenance& priceSource, double& baseWatts, Provenance& powerSource)
    {
        if (const YAML::Node price = n["price"]; !price) {
            m_reader.error(n, what + " is missing 'price'");
        } else if (m_reader.expectMap(price, "price of " + what)) {
            priceUsd = m_reader.number(price, "usd", "price of " + what, kPriceUsd).value_or(0.0);
            priceSource = m_reader.priceProvenance(price, "price of " + what);
        }
        if (const YAML::Node power = n["base_power"]; !power) {
            m_reader.error(n, what + " is missing 'base_power'");
        } else if (m_reader.expectMap(power, "base_power of " + what)) {
            m_reader.warnUnknownKeys(
                power, { "watts", "date", "source", "note" }, "base_power of " + what);
            baseWatts = m_reader.number(power, "watts", "base_power of " + what, kPowerWatts)
                            .value_or(0.0);
            powerSource = m_reader.provenance(power, "base_power of " + what);
        }
    }

    // A sponsor's budget rules: the equipment threshold and the categories the indirect rate
    // applies to.
    void sponsor(const YAML::Node& n)
    {
        SponsorRules rules;
        const bool ok = withoutNewErrors(m_reader, [&] {
            rules.id = m_reader.id(n, "id", "a sponsor").value_or("");
            const std::string what = named("sponsor", rules.id);
            m_reader.warnUnknownKeys(n,
                { "id", "name", "equipment_threshold_usd", "indirect_on", "date", "source",
                    "note" },
                what);
            rules.name = m_reader.string(n, "name", what).value_or("");
            rules.equipmentThresholdUsd
                = m_reader.number(n, "equipment_threshold_usd", what, kEquipmentThresholdUsd)
                      .value_or(0.0);
            rules.source = m_reader.provenance(n, what);
            const YAML::Node on = n["indirect_on"];
            if (!on) {
                m_reader.error(n,
                    what
                        + " is missing 'indirect_on' (the categories the indirect rate applies "
                          "to; [] for none)");
                return;
            }
            if (!m_reader.expectSequence(on, "indirect_on of " + what))
                return;
            for (const auto& key : on) {
                const auto category
                    = key.IsScalar() ? budgetCategoryFromString(key.Scalar()) : std::nullopt;
                if (!category) {
                    // The list from the categories themselves: written out, it left out
                    // fringe when that was added.
                    std::string known;
                    for (std::size_t i = 0; i < kBudgetCategoryCount; ++i)
                        known.append(i ? ", " : "")
                            .append(toString(static_cast<BudgetCategory>(i)));
                    m_reader.error(key,
                        "unknown budget category '" + (key.IsScalar() ? key.Scalar() : "")
                            + "' in indirect_on of " + what + " (" + known + ")");
                    continue;
                }
                rules.carriesIndirect[static_cast<std::size_t>(*category)] = true;
            }
        });
        if (ok)
            m_layer.catalog.sponsors.push_back(std::move(rules));
    }

    void chassis(const YAML::Node& n)
    {
        ChassisSpec c;
        const bool ok = withoutNewErrors(m_reader, [&] {
            c.id = m_reader.id(n, "id", "a chassis").value_or("");
            const std::string what = named("chassis", c.id);
            m_reader.warnUnknownKeys(
                n, { "id", "name", "gpu_slots", "price", "base_power", "power_supply" }, what);
            c.name = m_reader.string(n, "name", what).value_or("");
            c.gpuSlots
                = static_cast<int>(m_reader.integer(n, "gpu_slots", what, kGpuSlots).value_or(0));
            readPricedPower(n, what, c.priceUsd, c.priceSource, c.basePowerWatts, c.powerSource);
            // Optional: without it no build is refused or flagged for power.
            if (const YAML::Node supply = n["power_supply"];
                supply && m_reader.expectMap(supply, "power_supply of " + what)) {
                const std::string of = "power_supply of " + what;
                m_reader.warnUnknownKeys(
                    supply, { "count", "watts", "date", "source", "note" }, of);
                c.powerSupplies.count = static_cast<int>(
                    m_reader.integer(supply, "count", of, kPowerSupplies).value_or(0));
                c.powerSupplies.wattsEach
                    = m_reader.number(supply, "watts", of, kPowerWatts).value_or(0.0);
                c.powerSupplies.source = m_reader.provenance(supply, of);
            }
        });
        if (ok)
            m_layer.catalog.chassis.push_back(std::move(c));
    }

    // The only GPU counts one instance takes (GCP's 1, 2, 4 or 8 V100s), ascending from
    // gpus_per_instance, each a multiple of it: each count is billed as that many rates, and
    // the smallest is what makes every count rentable (as instances of it).
    std::vector<int> instanceGpuCounts(
        const YAML::Node& node, int gpusPerInstance, const std::string& what)
    {
        std::vector<int> counts;
        const std::string field = "instance_gpu_counts of " + what;
        if (!m_reader.expectSequence(node, field))
            return counts;
        for (const auto& item : node) {
            const auto gpus = m_reader.number(item, field, kMaxGpusPerInstance);
            if (!gpus)
                continue;
            const int count = static_cast<int>(*gpus);
            if (count != *gpus)
                m_reader.error(item, field + ": " + item.Scalar() + " is not a whole number");
            else if (count % gpusPerInstance != 0)
                m_reader.error(item,
                    field + ": " + item.Scalar() + " is not a multiple of its gpus_per_instance ("
                        + std::to_string(gpusPerInstance) + ")");
            else if (!counts.empty() && count <= counts.back())
                m_reader.error(item,
                    field + ": " + item.Scalar() + " does not follow "
                        + std::to_string(counts.back())
                        + " (list the counts ascending, once each)");
            else
                counts.push_back(count);
        }
        if (node.size() == 0)
            m_reader.error(node, field + " is empty: list the GPU counts one instance takes");
        else if (counts.empty() || counts.front() != gpusPerInstance)
            m_reader.error(node,
                field + " must start at its gpus_per_instance (" + std::to_string(gpusPerInstance)
                    + "), the instance its rate is for");
        return counts;
    }

    void cloudOffer(const YAML::Node& n)
    {
        CloudOffer o;
        const bool ok = withoutNewErrors(m_reader, [&] {
            o.id = m_reader.id(n, "id", "a cloud offer").value_or("");
            const std::string what = named("cloud offer", o.id);
            m_reader.warnUnknownKeys(n,
                { "id", "kind", "provider", "instance", "gpu", "gpus_per_instance",
                    "max_gpus_per_instance", "instance_gpu_counts", "network", "region",
                    "on_demand_usd_per_hour", "spot_usd_per_hour", "reserved",
                    "application_lead_days", "queue_wait_days", "date", "source", "note" },
                what);
            if (auto kind = m_reader.string(n, "kind", what, /*required=*/false)) {
                if (auto k = offerKindFromString(*kind))
                    o.kind = *k;
                else
                    m_reader.error(n["kind"],
                        "kind of " + what + " must be cloud, campus or allocation, not '" + *kind
                            + "'");
            }
            o.applicationLeadDays
                = m_reader.number(n, "application_lead_days", what, kWaitDays, false).value_or(0.0);
            o.queueWaitDays
                = m_reader.number(n, "queue_wait_days", what, kWaitDays, false).value_or(0.0);
            o.provider = m_reader.string(n, "provider", what).value_or("");
            o.instance = m_reader.string(n, "instance", what).value_or("");
            if (auto gpu = m_reader.id(n, "gpu", what)) {
                o.gpuId = *gpu;
                m_layer.references.push_back(
                    referenceAt(m_reader, n["gpu"], PendingReference::Kind::Gpu, *gpu, what));
            }
            o.gpusPerInstance = static_cast<int>(
                m_reader.integer(n, "gpus_per_instance", what, kGpusPerInstance).value_or(1));
            if (auto most = m_reader.integer(
                    n, "max_gpus_per_instance", what, kMaxGpusPerInstance, /*required=*/false)) {
                // Each gpus_per_instance of them at the rate: a remainder would be GPUs
                // nothing bills.
                if (*most < o.gpusPerInstance || *most % o.gpusPerInstance != 0)
                    m_reader.error(n["max_gpus_per_instance"],
                        "max_gpus_per_instance of " + what + " (" + std::to_string(*most)
                            + ") must be its gpus_per_instance ("
                            + std::to_string(o.gpusPerInstance) + ") or a multiple of it");
                else
                    o.maxGpusPerInstance = static_cast<int>(*most);
            }
            if (const YAML::Node counts = n["instance_gpu_counts"]; counts) {
                if (n["max_gpus_per_instance"])
                    m_reader.error(counts,
                        what
                            + " gives both max_gpus_per_instance and instance_gpu_counts: give "
                              "the most one instance holds, or the only counts it takes");
                else
                    o.instanceGpuCounts = instanceGpuCounts(counts, o.gpusPerInstance, what);
            }
            // Optional: without it a run across instances is priced at one machine's link.
            if (const YAML::Node network = n["network"];
                network && m_reader.expectMap(network, "network of " + what)) {
                const std::string of = "network of " + what;
                m_reader.warnUnknownKeys(network, { "gbps", "date", "source", "note" }, of);
                InstanceNetwork listed;
                listed.gbps = m_reader.number(network, limits::kNetworkGbps, of).value_or(0.0);
                listed.source = m_reader.provenance(network, of);
                o.network = listed;
            }
            o.region = m_reader.string(n, "region", what, /*required=*/false).value_or("");
            // A $0 row in a public catalogue is a missing price, not a free GPU (kHourlyUsd is
            // positive).
            o.onDemandUsdPerHour
                = m_reader.number(n, "on_demand_usd_per_hour", what, kHourlyUsd, false);
            o.spotUsdPerHour = m_reader.number(n, "spot_usd_per_hour", what, kHourlyUsd, false);
            if (const YAML::Node reserved = n["reserved"];
                reserved && m_reader.expectSequence(reserved, "reserved of " + what)) {
                for (const auto& r : reserved) {
                    if (!m_reader.expectMap(r, "a reserved rate of " + what))
                        continue;
                    m_reader.warnUnknownKeys(
                        r, { "years", "usd_per_hour" }, "a reserved rate of " + what);
                    const auto years = m_reader.number(r, "years", "reserved rate", kReservedYears);
                    const auto rate = m_reader.number(
                        r, "usd_per_hour", "reserved rate of " + what, kHourlyUsd);
                    if (!years || !rate)
                        continue;
                    // Two rates for one term: which one a plan or a budget used would depend on
                    // the order of the entries.
                    const bool twice = std::any_of(o.reserved.begin(), o.reserved.end(),
                        [&](const auto& earlier) { return earlier.years == *years; });
                    if (twice)
                        m_reader.error(r["years"],
                            what + " gives the " + yaml::formatNumber(*years)
                                + "-year reserved term twice");
                    else
                        o.reserved.push_back({ *years, *rate });
                }
            }
            // An empty list of reservations is no rate.
            const bool reservedWritten
                = n["reserved"] && n["reserved"].IsSequence() && n["reserved"].size() > 0;
            const bool rateWritten
                = n["on_demand_usd_per_hour"] || n["spot_usd_per_hour"] || reservedWritten;
            // An allocation is granted time: it has no rate, and a rate would be a mistake.
            if (o.kind == OfferKind::Allocation && rateWritten)
                m_reader.error(n, what + " is an allocation: it has no rate (no cash is paid)");
            else if (o.kind != OfferKind::Allocation && !rateWritten)
                m_reader.error(n,
                    what
                        + " has no rate (on_demand_usd_per_hour, "
                          "spot_usd_per_hour or reserved)");
            if (o.kind == OfferKind::Campus && (n["spot_usd_per_hour"] || n["reserved"]))
                m_reader.error(n,
                    what + " is a campus offer: give its recharge rate as on_demand_usd_per_hour");
            if (o.onDemandUsdPerHour && o.spotUsdPerHour
                && *o.spotUsdPerHour > *o.onDemandUsdPerHour)
                m_reader.warning(n["spot_usd_per_hour"],
                    what + ": spot rate is above the on-demand rate (swapped columns?)");
            o.source = m_reader.provenance(n, what);
        });
        if (ok)
            m_layer.catalog.cloudOffers.push_back(std::move(o));
    }

    void model(const YAML::Node& n)
    {
        Workload w;
        const bool ok = withoutNewErrors(m_reader, [&] {
            w.id = m_reader.id(n, "id", "a model").value_or("");
            const std::string what = named("model", w.id);
            m_reader.warnUnknownKeys(n,
                { "id", "name", "family", "parameters", "training_flops", "global_batch", "steps",
                    "sequence_length", "image_size", "vocabulary_size", "classes", "precision",
                    "optimizer", "source" },
                what);
            w.name = m_reader.string(n, "name", what).value_or("");
            w.family = m_reader.string(n, "family", what).value_or("");
            w.parameters = m_reader.integer(n, "parameters", what, kParameters).value_or(0);
            w.trainingFlops
                = m_reader.number(n, "training_flops", what, kTrainingFlops).value_or(0);
            w.globalBatch
                = static_cast<int>(m_reader.integer(n, "global_batch", what, kBatch).value_or(0));
            w.steps = m_reader.integer(n, "steps", what, kSteps).value_or(0);
            auto optionalInt = [&](const char* key) -> std::optional<int> {
                if (auto v = m_reader.integer(n, key, what, kTokensOrPixels, /*required=*/false))
                    return static_cast<int>(*v);
                return std::nullopt;
            };
            w.sequenceLength = optionalInt("sequence_length");
            w.imageSize = optionalInt("image_size");
            w.vocabularySize = optionalInt("vocabulary_size");
            w.classes = optionalInt("classes");
            if (!w.sequenceLength && !w.imageSize)
                m_reader.error(n, what + " needs 'sequence_length' or 'image_size'");
            if (auto p = m_reader.string(n, "precision", what)) {
                if (auto precision = precisionFromString(*p))
                    w.precision = *precision;
                else
                    m_reader.error(n["precision"],
                        "unknown precision '" + *p + "' in " + what + " (fp32, tf32, fp16, bf16)");
            }
            w.optimizer = m_reader.string(n, "optimizer", what).value_or("");
            if (const YAML::Node source = n["source"]; !source)
                m_reader.error(n, what + " is missing 'source'");
            else if (m_reader.expectMap(source, "source of " + what)) {
                m_reader.warnUnknownKeys(source, { "date", "source", "note" }, "source of " + what);
                w.source = m_reader.provenance(source, "source of " + what);
            }
        });
        if (ok)
            m_layer.catalog.workloads.push_back(std::move(w));
    }

    // One entry of `assumptions`: {value, date, source, note}, bounded by the assumption table.
    void assumption(const YAML::Node& entry, const AssumptionSpec& spec, AssumptionOverrides& o)
    {
        const std::string what = "assumption '" + std::string(spec.key) + "'";
        if (!m_reader.expectMap(entry, what + " ({value, source, date, note})"))
            return;
        m_reader.warnUnknownKeys(entry, { "value", "date", "source", "note" }, what);
        const auto value = m_reader.number(
            entry, "value", what, spec.bounds, spec.wholeNumber, /*required=*/true);
        Provenance p;
        p.source = m_reader.string(entry, "source", what).value_or("");
        if (entry["source"] && entry["source"].IsScalar() && p.source.empty())
            m_reader.error(entry["source"], what + " has an empty source"); // as a price's
        p.note = m_reader.string(entry, "note", what, /*required=*/false).value_or("");
        if (auto date = m_reader.string(entry, "date", what, /*required=*/false)) {
            if (!yaml::isIsoDate(*date))
                m_reader.error(
                    entry["date"], "date of " + what + " must be YYYY, YYYY-MM or YYYY-MM-DD");
            p.date = *date;
        }
        const auto index = static_cast<std::size_t>(spec.id);
        o.values[index] = value;
        if (value)
            o.sources[index] = p;
    }

    void assumptions(const YAML::Node& a)
    {
        if (!m_reader.expectMap(a, "assumptions"))
            return;
        m_reader.warnUnknownKeys(a, assumptionKeys(), "assumptions");
        AssumptionOverrides o;
        for (const auto& spec : kAssumptionSpecs)
            if (const YAML::Node entry = a[std::string(spec.key)])
                assumption(entry, spec, o);
        m_layer.assumptions = o;
    }

    void referenceTable(const YAML::Node& t)
    {
        if (!m_reader.expectMap(t, "a reference table"))
            return;
        const std::string what = "reference table";
        m_reader.warnUnknownKeys(t,
            { "table", "date", "source", "note", "gpus", "gpu_counts", "days", "configurations" },
            what);
        ReferenceMeasurement::Table table = ReferenceMeasurement::Table::Optimal;
        if (auto kind = m_reader.string(t, "table", what)) {
            if (*kind == "naive")
                table = ReferenceMeasurement::Table::Naive;
            else if (*kind != "optimal")
                m_reader.error(
                    t["table"], "table must be 'optimal' or 'naive', not '" + *kind + "'");
        }
        const Provenance source = m_reader.provenance(t, what);
        // A GPU or count listed twice made the same cell twice, and the later silently
        // replaced the earlier: one column of days lost.
        std::vector<std::string> gpus;
        if (const YAML::Node g = t["gpus"]; g && m_reader.expectSequence(g, "gpus"))
            for (const auto& id : g) {
                if (std::find(gpus.begin(), gpus.end(), id.Scalar()) != gpus.end())
                    m_reader.error(id, "gpus: '" + id.Scalar() + "' is listed twice");
                gpus.push_back(id.Scalar());
                m_layer.references.push_back(
                    referenceAt(m_reader, id, PendingReference::Kind::Gpu, id.Scalar(), what));
            }
        std::vector<int> counts;
        if (const YAML::Node c = t["gpu_counts"]; c && m_reader.expectSequence(c, "gpu_counts"))
            for (const auto& count : c)
                if (auto v = m_reader.integer(count, "gpu_counts", kGpuCount)) {
                    if (std::find(counts.begin(), counts.end(), static_cast<int>(*v))
                        != counts.end())
                        m_reader.error(count, "gpu_counts: " + count.Scalar() + " is listed twice");
                    counts.push_back(static_cast<int>(*v));
                }
        const std::size_t columns = gpus.size() * counts.size();
        const YAML::Node days = t["days"];
        if (!days) {
            m_reader.error(t, what + " is missing 'days'");
            return;
        }
        if (!m_reader.expectMap(days, "days"))
            return;
        const YAML::Node configurations = t["configurations"];
        if (configurations && !m_reader.expectMap(configurations, "configurations"))
            return;
        for (auto row = days.begin(); row != days.end(); ++row) {
            const std::string model = row->first.Scalar();
            m_layer.references.push_back(
                referenceAt(m_reader, row->first, PendingReference::Kind::Model, model, what));
            if (!m_reader.expectSequence(row->second, "days of " + model))
                continue;
            if (row->second.size() != columns) {
                m_reader.error(row->second,
                    "days of " + model + " has " + std::to_string(row->second.size())
                        + " values; expected " + std::to_string(columns) + " (gpus x gpu_counts)");
                continue;
            }
            const YAML::Node configRow = configurations ? configurations[model] : YAML::Node();
            for (std::size_t i = 0; i < columns; ++i) {
                ReferenceMeasurement cell;
                cell.table = table;
                cell.modelId = model;
                cell.gpuId = gpus[i / counts.size()];
                cell.gpuCount = counts[i % counts.size()];
                cell.source = source;
                const YAML::Node value = row->second[i];
                // A cell the table left empty is no figure at all, not an infeasible one: the
                // paper's Table 4 has ConvNeXt on 1 H100 blank, and it trains naive on a
                // 24 GB RTX 3090, so "infeasible" on an 80 GB H100 was false (review).
                if (value.IsScalar() && value.Scalar() == kBlankReferenceCell)
                    continue;
                if (!value.IsNull()) {
                    auto d = m_reader.number(value,
                        "days of " + model + " (null marks an infeasible cell, "
                            + std::string(kBlankReferenceCell) + " one the table leaves empty)",
                        kDays);
                    if (!d)
                        continue;
                    cell.days = *d;
                }
                if (configRow && configRow.IsSequence() && i < configRow.size()
                    && configRow[i].IsScalar())
                    cell.configuration = configRow[i].Scalar();
                m_layer.catalog.reference.push_back(std::move(cell));
            }
        }
    }

    yaml::Reader& m_reader;
    CatalogLayer m_layer;
};

} // namespace

void AssumptionOverrides::applyTo(Assumptions& a) const
{
    for (const auto& spec : kAssumptionSpecs) {
        const auto index = static_cast<std::size_t>(spec.id);
        if (values[index])
            setAssumptionValue(a, spec.id, *values[index]);
        if (sources[index])
            a.sources[index] = *sources[index];
    }
}

CatalogLayer readCatalogLayer(yaml::Reader& reader, const YAML::Node& root)
{
    return LayerReader(reader).read(root);
}

} // namespace gpuplan

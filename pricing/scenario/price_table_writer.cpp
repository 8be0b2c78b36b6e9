#include "pricing/scenario/price_table_writer.h"

#include "core/uncertainty.h"
#include "pricing/yaml_reader.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace gpuplan {

namespace {

void provenance(YAML::Emitter& out, const Provenance& p)
{
    out << YAML::Key << "date" << YAML::Value
        << (p.date.empty() ? std::string(yaml::kUndated) : p.date);
    out << YAML::Key << "source" << YAML::Value << p.source;
    if (!p.note.empty())
        out << YAML::Key << "note" << YAML::Value << p.note;
}

// A price map: {usd, usd_low, usd_high, date, source, note, kind}. The sources' range is
// written as the planner uses it (core's priceRange): stretched to hold a price edited outside
// it, so the file reads back (the reader refuses a price outside its own range) to the same plan.
void price(YAML::Emitter& out, const char* key, double usd, const Provenance& p)
{
    out << YAML::Key << key << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "usd" << YAML::Value << usd;
    if (p.lowUsd && p.highUsd) {
        const Interval range = priceRange(usd, p);
        out << YAML::Key << "usd_low" << YAML::Value << range.low;
        out << YAML::Key << "usd_high" << YAML::Value << range.high;
    }
    provenance(out, p);
    if (p.kind != PriceKind::Unstated)
        out << YAML::Key << "kind" << YAML::Value << std::string(toString(p.kind));
    out << YAML::EndMap;
}

void basePower(YAML::Emitter& out, double watts, const Provenance& p)
{
    out << YAML::Key << "base_power" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "watts" << YAML::Value << watts;
    provenance(out, p);
    out << YAML::EndMap;
}

void gpu(YAML::Emitter& out, const GpuSpec& g)
{
    out << YAML::BeginMap;
    out << YAML::Key << "id" << YAML::Value << g.id;
    out << YAML::Key << "name" << YAML::Value << g.name;
    out << YAML::Key << "memory_gb" << YAML::Value << g.memoryGb;
    out << YAML::Key << "board_power_watts" << YAML::Value << g.boardPowerWatts;
    out << YAML::Key << "peak_tflops" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (const auto& [precision, tflops] : g.peakTflops)
        out << YAML::Key << std::string(toString(precision)) << YAML::Value << tflops;
    out << YAML::EndMap;
    out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    provenance(out, g.specSource);
    out << YAML::EndMap;
    if (g.priceUsd)
        price(out, "price", *g.priceUsd, g.priceSource);
    if (!g.otherPrices.empty()) {
        out << YAML::Key << "other_prices" << YAML::Value << YAML::BeginSeq;
        for (const auto& p : g.otherPrices) {
            out << YAML::BeginMap;
            out << YAML::Key << "usd" << YAML::Value << p.usd;
            provenance(out, p.source);
            if (p.source.kind != PriceKind::Unstated)
                out << YAML::Key << "kind" << YAML::Value << std::string(toString(p.source.kind));
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    if (!g.deviceNames.empty())
        out << YAML::Key << "device_names" << YAML::Value << YAML::Flow << g.deviceNames;
    out << YAML::EndMap;
}

void chassis(YAML::Emitter& out, const ChassisSpec& c)
{
    out << YAML::BeginMap;
    out << YAML::Key << "id" << YAML::Value << c.id;
    out << YAML::Key << "name" << YAML::Value << c.name;
    out << YAML::Key << "gpu_slots" << YAML::Value << c.gpuSlots;
    price(out, "price", c.priceUsd, c.priceSource);
    basePower(out, c.basePowerWatts, c.powerSource);
    if (c.powerSupplies.count > 0) {
        out << YAML::Key << "power_supply" << YAML::Value << YAML::BeginMap;
        out << YAML::Key << "count" << YAML::Value << c.powerSupplies.count;
        out << YAML::Key << "watts" << YAML::Value << c.powerSupplies.wattsEach;
        provenance(out, c.powerSupplies.source);
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
}

void system(YAML::Emitter& out, const SystemSpec& s)
{
    out << YAML::BeginMap;
    out << YAML::Key << "id" << YAML::Value << s.id;
    out << YAML::Key << "name" << YAML::Value << s.name;
    out << YAML::Key << "gpu" << YAML::Value << s.gpuId;
    out << YAML::Key << "gpu_count" << YAML::Value << s.gpuCount;
    price(out, "price", s.priceUsd, s.priceSource);
    basePower(out, s.basePowerWatts, s.powerSource);
    out << YAML::EndMap;
}

void cloudOffer(YAML::Emitter& out, const CloudOffer& o)
{
    out << YAML::BeginMap;
    out << YAML::Key << "id" << YAML::Value << o.id;
    out << YAML::Key << "kind" << YAML::Value << std::string(toString(o.kind));
    out << YAML::Key << "provider" << YAML::Value << o.provider;
    out << YAML::Key << "instance" << YAML::Value << o.instance;
    out << YAML::Key << "gpu" << YAML::Value << o.gpuId;
    out << YAML::Key << "gpus_per_instance" << YAML::Value << o.gpusPerInstance;
    if (o.maxGpusPerInstance > 0)
        out << YAML::Key << "max_gpus_per_instance" << YAML::Value << o.maxGpusPerInstance;
    if (!o.instanceGpuCounts.empty())
        out << YAML::Key << "instance_gpu_counts" << YAML::Value << YAML::Flow
            << o.instanceGpuCounts;
    if (o.network) {
        out << YAML::Key << "network" << YAML::Value << YAML::BeginMap;
        out << YAML::Key << "gbps" << YAML::Value << o.network->gbps;
        provenance(out, o.network->source);
        out << YAML::EndMap;
    }
    if (!o.region.empty())
        out << YAML::Key << "region" << YAML::Value << o.region;
    if (o.onDemandUsdPerHour)
        out << YAML::Key << "on_demand_usd_per_hour" << YAML::Value << *o.onDemandUsdPerHour;
    if (o.spotUsdPerHour)
        out << YAML::Key << "spot_usd_per_hour" << YAML::Value << *o.spotUsdPerHour;
    if (!o.reserved.empty()) {
        out << YAML::Key << "reserved" << YAML::Value << YAML::BeginSeq;
        for (const auto& r : o.reserved)
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "years" << YAML::Value << r.years
                << YAML::Key << "usd_per_hour" << YAML::Value << r.usdPerHour << YAML::EndMap;
        out << YAML::EndSeq;
    }
    if (o.applicationLeadDays > 0.0)
        out << YAML::Key << "application_lead_days" << YAML::Value << o.applicationLeadDays;
    if (o.queueWaitDays > 0.0)
        out << YAML::Key << "queue_wait_days" << YAML::Value << o.queueWaitDays;
    provenance(out, o.source);
    out << YAML::EndMap;
}

void assumption(YAML::Emitter& out, const char* key, double value, const Provenance& p)
{
    if (p.source.empty())
        return; // the reader requires a source; an unsourced default stays the shipped one
    out << YAML::Key << key << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "value" << YAML::Value << value;
    provenance(out, p);
    out << YAML::EndMap;
}

} // namespace

std::string writeCloudOfferTable(
    const std::vector<CloudOffer>& offers, const std::string& title, const std::string& description)
{
    YAML::Emitter out;
    out.SetDoublePrecision(10);
    out << YAML::BeginMap;
    out << YAML::Key << "schema_version" << YAML::Value << yaml::kSchemaVersion;
    out << YAML::Key << "title" << YAML::Value << title;
    out << YAML::Key << "description" << YAML::Value << description;
    out << YAML::Key << "cloud_offers" << YAML::Value << YAML::BeginSeq;
    for (const auto& o : offers)
        cloudOffer(out, o);
    out << YAML::EndSeq;
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

namespace {

// One entry as the file holds it: two entries are the same edit when their text is.
template <typename Entry>
std::string entryText(const Entry& entry, void (*write)(YAML::Emitter&, const Entry&))
{
    YAML::Emitter out;
    out.SetDoublePrecision(10);
    write(out, entry);
    return out.c_str();
}

// The entries of `edited` that `base` lacks or holds otherwise, in `edited`'s order; all of them
// without a base.
template <typename Entry>
std::vector<const Entry*> entriesToWrite(const std::vector<Entry>& edited,
    const std::vector<Entry>* base, void (*write)(YAML::Emitter&, const Entry&))
{
    std::vector<const Entry*> written;
    for (const Entry& e : edited) {
        const Entry* same = nullptr;
        if (base)
            for (const Entry& b : *base)
                if (b.id == e.id)
                    same = &b;
        if (!same || entryText(*same, write) != entryText(e, write))
            written.push_back(&e);
    }
    return written;
}

template <typename Entry>
void section(YAML::Emitter& out, const char* key, const std::vector<const Entry*>& entries,
    void (*write)(YAML::Emitter&, const Entry&), bool evenEmpty)
{
    if (entries.empty() && !evenEmpty)
        return;
    out << YAML::Key << key << YAML::Value << YAML::BeginSeq;
    for (const Entry* e : entries)
        write(out, *e);
    out << YAML::EndSeq;
}

bool sameAssumption(const Assumptions& a, const Assumptions& b, AssumptionId id)
{
    const Provenance& p = a.source(id);
    const Provenance& q = b.source(id);
    return assumptionValue(a, id) == assumptionValue(b, id) && p.date == q.date
        && p.source == q.source && p.note == q.note;
}

std::string priceTables(const Catalog& catalog, const Catalog* base)
{
    YAML::Emitter out;
    out.SetDoublePrecision(10);
    out << YAML::BeginMap;
    out << YAML::Key << "schema_version" << YAML::Value << yaml::kSchemaVersion;
    out << YAML::Key << "title" << YAML::Value << "Price tables edited in gpuplan";
    if (base)
        out << YAML::Key << "description" << YAML::Value
            << "The entries edited in the planner's price tables, each whole; every other entry "
               "comes from the shipped tables and the imported files beneath this one, so that "
               "their later updates reach the plan.";
    const bool whole = base == nullptr;
    section(
        out, "gpus", entriesToWrite(catalog.gpus, base ? &base->gpus : nullptr, &gpu), &gpu, whole);
    section(out, "chassis",
        entriesToWrite(catalog.chassis, base ? &base->chassis : nullptr, &chassis), &chassis,
        whole);
    section(out, "systems",
        entriesToWrite(catalog.systems, base ? &base->systems : nullptr, &system), &system, false);
    section(out, "cloud_offers",
        entriesToWrite(catalog.cloudOffers, base ? &base->cloudOffers : nullptr, &cloudOffer),
        &cloudOffer, whole);
    // Each of the two where it is written at all (it has a source, as the reader requires) and
    // differs from what lies beneath.
    const Assumptions& a = catalog.defaults;
    const auto written = [&](AssumptionId id) {
        return !a.source(id).source.empty() && (!base || !sameAssumption(a, base->defaults, id));
    };
    const bool electricity = written(AssumptionId::ElectricityUsdPerKwh);
    const bool pue = written(AssumptionId::Pue);
    if (electricity || pue) {
        out << YAML::Key << "assumptions" << YAML::Value << YAML::BeginMap;
        if (electricity)
            assumption(out, "electricity_usd_per_kwh", a.electricityUsdPerKwh,
                a.source(AssumptionId::ElectricityUsdPerKwh));
        if (pue)
            assumption(out, "pue", a.pue, a.source(AssumptionId::Pue));
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

} // namespace

std::string writePriceTables(const Catalog& catalog)
{
    return priceTables(catalog, nullptr);
}

std::string writeEditedPriceTables(const Catalog& edited, const Catalog& base)
{
    return priceTables(edited, &base);
}

std::vector<std::string> priceEntriesThatDiffer(const Catalog& a, const Catalog& b)
{
    std::vector<std::string> ids;
    const auto compare = [&](const auto& ours, const auto& theirs, auto write) {
        for (const auto* e : entriesToWrite(ours, &theirs, write))
            ids.push_back(e->id);
        for (const auto* e : entriesToWrite(theirs, &ours, write))
            if (std::find(ids.begin(), ids.end(), e->id) == ids.end())
                ids.push_back(e->id);
    };
    compare(a.gpus, b.gpus, &gpu);
    compare(a.chassis, b.chassis, &chassis);
    compare(a.systems, b.systems, &system);
    compare(a.cloudOffers, b.cloudOffers, &cloudOffer);
    for (const AssumptionId id : { AssumptionId::ElectricityUsdPerKwh, AssumptionId::Pue })
        if (!sameAssumption(a.defaults, b.defaults, id))
            ids.push_back(std::string(assumptionSpec(id).key));
    return ids;
}

} // namespace gpuplan

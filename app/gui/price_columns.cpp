#include "app/gui/price_columns.h"

#include <array>

namespace gpuplan::gui {

namespace {

constexpr std::array kElectricityRows { AssumptionId::ElectricityUsdPerKwh, AssumptionId::Pue };

QVariant text(const std::string& s)
{
    return QString::fromStdString(s);
}
std::string toText(const QVariant& v)
{
    return v.toString().toStdString();
}
QVariant optionalNumber(const std::optional<double>& v)
{
    return v ? QVariant(*v) : QVariant();
}
std::optional<double> toOptional(const QVariant& v)
{
    if (!v.isValid() || v.toString().trimmed().isEmpty())
        return std::nullopt;
    return v.toDouble();
}

// A template so that the const and the mutable lookups share it.
template <typename C>
auto provenanceOf(C& c, PriceTable table, std::size_t row) -> decltype((c.gpus.at(row).priceSource))
{
    switch (table) {
    case PriceTable::Gpus:
        return c.gpus.at(row).priceSource;
    case PriceTable::Chassis:
        return c.chassis.at(row).priceSource;
    case PriceTable::Systems:
        return c.systems.at(row).priceSource;
    case PriceTable::Cloud:
        return c.cloudOffers.at(row).source;
    case PriceTable::Electricity:
        break;
    }
    return c.defaults.source(kElectricityRows.at(row));
}

// The GPU's name as the other tables show it ("H100 SXM 80GB"), its id where the catalog lacks it.
QVariant gpuName(const Catalog& c, const std::string& id)
{
    const GpuSpec* gpu = c.findGpu(id);
    return text(gpu ? gpu->name : id);
}

// Date and Source: the same two columns in every table, on the row's provenance.
template <PriceTable table> constexpr PriceColumn dateColumn()
{
    return { "Date", CellKind::Date,
        [](const Catalog& c, std::size_t r) { return text(rowProvenance(c, table, r).date); },
        [](Catalog& c, std::size_t r, const QVariant& v) {
            rowProvenance(c, table, r).date = toText(v);
        } };
}
template <PriceTable table> constexpr PriceColumn sourceColumn()
{
    return { "Source", CellKind::Source,
        [](const Catalog& c, std::size_t r) { return text(rowProvenance(c, table, r).source); },
        [](Catalog& c, std::size_t r, const QVariant& v) {
            rowProvenance(c, table, r).source = toText(v);
        } };
}

// Kind: the price's kind ("street"), as the tables write it; empty where they do not say.
template <PriceTable table> constexpr PriceColumn kindColumn()
{
    return { "Kind", CellKind::PriceKindChoice,
        [](const Catalog& c, std::size_t r) {
            return text(std::string(toString(rowProvenance(c, table, r).kind)));
        },
        [](Catalog& c, std::size_t r, const QVariant& v) {
            rowProvenance(c, table, r).kind
                = priceKindFromString(toText(v)).value_or(PriceKind::Unstated);
        } };
}

const PriceColumn kGpuColumns[] = {
    { "GPU", CellKind::ReadOnly,
        [](const Catalog& c, std::size_t r) { return text(c.gpus.at(r).name); }, nullptr },
    { "Price (USD)", CellKind::Price,
        [](const Catalog& c, std::size_t r) { return optionalNumber(c.gpus.at(r).priceUsd); },
        [](Catalog& c, std::size_t r, const QVariant& v) {
            c.gpus.at(r).priceUsd = toOptional(v);
        } },
    kindColumn<PriceTable::Gpus>(),
    dateColumn<PriceTable::Gpus>(),
    sourceColumn<PriceTable::Gpus>(),
};

const PriceColumn kChassisColumns[] = {
    { "Chassis", CellKind::ReadOnly,
        [](const Catalog& c, std::size_t r) { return text(c.chassis.at(r).name); }, nullptr },
    { "GPU slots", CellKind::ReadOnly,
        [](const Catalog& c, std::size_t r) { return QVariant(c.chassis.at(r).gpuSlots); },
        nullptr },
    { "Price (USD)", CellKind::Price,
        [](const Catalog& c, std::size_t r) { return QVariant(c.chassis.at(r).priceUsd); },
        [](Catalog& c, std::size_t r, const QVariant& v) {
            c.chassis.at(r).priceUsd = v.toDouble();
        } },
    kindColumn<PriceTable::Chassis>(),
    dateColumn<PriceTable::Chassis>(),
    sourceColumn<PriceTable::Chassis>(),
};

// Machines sold whole (an HGX 8-GPU SXM board in its server): priced as a system, GPUs
// included, since SXM GPUs are not sold as cards.
const PriceColumn kSystemColumns[] = {
    { "System", CellKind::ReadOnly,
        [](const Catalog& c, std::size_t r) { return text(c.systems.at(r).name); }, nullptr },
    { "GPU", CellKind::ReadOnly,
        [](const Catalog& c, std::size_t r) { return gpuName(c, c.systems.at(r).gpuId); },
        nullptr },
    { "GPUs", CellKind::ReadOnly,
        [](const Catalog& c, std::size_t r) { return QVariant(c.systems.at(r).gpuCount); },
        nullptr },
    { "Price with GPUs (USD)", CellKind::Price,
        [](const Catalog& c, std::size_t r) { return QVariant(c.systems.at(r).priceUsd); },
        [](Catalog& c, std::size_t r, const QVariant& v) {
            c.systems.at(r).priceUsd = v.toDouble();
        } },
    kindColumn<PriceTable::Systems>(),
    dateColumn<PriceTable::Systems>(),
    sourceColumn<PriceTable::Systems>(),
};

const PriceColumn kCloudColumns[] = {
    { "Provider", CellKind::ReadOnly,
        [](const Catalog& c, std::size_t r) { return text(c.cloudOffers.at(r).provider); },
        nullptr },
    { "Instance", CellKind::ReadOnly,
        [](const Catalog& c, std::size_t r) { return text(c.cloudOffers.at(r).instance); },
        nullptr },
    { "GPU", CellKind::ReadOnly,
        [](const Catalog& c, std::size_t r) { return gpuName(c, c.cloudOffers.at(r).gpuId); },
        nullptr },
    { "On-demand (USD/h)", CellKind::Rate,
        [](const Catalog& c, std::size_t r) {
            return optionalNumber(c.cloudOffers.at(r).onDemandUsdPerHour);
        },
        [](Catalog& c, std::size_t r, const QVariant& v) {
            c.cloudOffers.at(r).onDemandUsdPerHour = toOptional(v);
        } },
    { "Spot (USD/h)", CellKind::Rate,
        [](const Catalog& c, std::size_t r) {
            return optionalNumber(c.cloudOffers.at(r).spotUsdPerHour);
        },
        [](Catalog& c, std::size_t r, const QVariant& v) {
            c.cloudOffers.at(r).spotUsdPerHour = toOptional(v);
        } },
    dateColumn<PriceTable::Cloud>(),
    sourceColumn<PriceTable::Cloud>(),
};

const PriceColumn kElectricityColumns[] = {
    { "Setting", CellKind::ReadOnly,
        [](const Catalog&, std::size_t r) {
            const AssumptionSpec& spec = assumptionSpec(electricityRowAssumption(r));
            QString label = QString::fromUtf8(spec.label.data(), qsizetype(spec.label.size()));
            if (spec.unit != Unit::Ratio)
                label += QStringLiteral(" (%1)").arg(QString::fromUtf8(unitName(spec.unit).data()));
            return QVariant(label);
        },
        nullptr },
    { "Value", CellKind::Assumption,
        [](const Catalog& c, std::size_t r) {
            return QVariant(assumptionValue(c.defaults, electricityRowAssumption(r)));
        },
        [](Catalog& c, std::size_t r, const QVariant& v) {
            setAssumptionValue(c.defaults, electricityRowAssumption(r), v.toDouble());
        } },
    dateColumn<PriceTable::Electricity>(),
    sourceColumn<PriceTable::Electricity>(),
};

} // namespace

std::span<const PriceColumn> priceColumns(PriceTable table)
{
    switch (table) {
    case PriceTable::Gpus:
        return kGpuColumns;
    case PriceTable::Chassis:
        return kChassisColumns;
    case PriceTable::Systems:
        return kSystemColumns;
    case PriceTable::Cloud:
        return kCloudColumns;
    case PriceTable::Electricity:
        return kElectricityColumns;
    }
    return {};
}

int priceRowCount(const Catalog& c, PriceTable table)
{
    switch (table) {
    case PriceTable::Gpus:
        return static_cast<int>(c.gpus.size());
    case PriceTable::Chassis:
        return static_cast<int>(c.chassis.size());
    case PriceTable::Systems:
        return static_cast<int>(c.systems.size());
    case PriceTable::Cloud:
        return static_cast<int>(c.cloudOffers.size());
    case PriceTable::Electricity:
        return static_cast<int>(kElectricityRows.size());
    }
    return 0;
}

AssumptionId electricityRowAssumption(std::size_t row)
{
    return kElectricityRows.at(row);
}

const Provenance& rowProvenance(const Catalog& c, PriceTable table, std::size_t row)
{
    return provenanceOf(c, table, row);
}
Provenance& rowProvenance(Catalog& c, PriceTable table, std::size_t row)
{
    return provenanceOf(c, table, row);
}

} // namespace gpuplan::gui

#include "app/gui/price_book.h"

#include "core/limits.h"
#include "pricing/yaml_reader.h"

#include <QUndoCommand>
#include <QUndoStack>

#include <cmath>

namespace gpuplan::gui {

namespace {

// Columns per table. Identity columns are read-only: an id change would be a different entry.
enum GpuColumn { GpuName, GpuPrice, GpuDate, GpuSource, GpuColumns };
enum ChassisColumn {
    ChassisName,
    ChassisSlots,
    ChassisPrice,
    ChassisDate,
    ChassisSource,
    ChassisColumns
};
enum CloudColumn {
    CloudProvider,
    CloudInstance,
    CloudGpu,
    CloudOnDemand,
    CloudSpot,
    CloudDate,
    CloudSource,
    CloudColumns
};
enum ElectricityColumn {
    ElectricitySetting,
    ElectricityValue,
    ElectricityDate,
    ElectricitySource,
    ElectricityColumns
};
enum ElectricityRow { ElectricityPrice, ElectricityPue, ElectricityRows };

class EditCommand : public QUndoCommand {
public:
    EditCommand(PriceBook* book, PriceTable table, int row, int column, QVariant before,
        QVariant after, const QString& text)
        : QUndoCommand(text)
        , m_book(book)
        , m_table(table)
        , m_row(row)
        , m_column(column)
        , m_before(std::move(before))
        , m_after(std::move(after))
    {
    }
    void undo() override { m_book->apply(m_table, m_row, m_column, m_before); }
    void redo() override { m_book->apply(m_table, m_row, m_column, m_after); }

private:
    PriceBook* m_book;
    PriceTable m_table;
    int m_row;
    int m_column;
    QVariant m_before;
    QVariant m_after;
};

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

enum class Kind { Text, Date, Price, Rate, Pue, Electricity, ReadOnly };

Kind kindOf(PriceTable table, int row, int column)
{
    switch (table) {
    case PriceTable::Gpus:
        return column == GpuPrice ? Kind::Price
            : column == GpuDate   ? Kind::Date
            : column == GpuSource ? Kind::Text
                                  : Kind::ReadOnly;
    case PriceTable::Chassis:
        return column == ChassisPrice ? Kind::Price
            : column == ChassisDate   ? Kind::Date
            : column == ChassisSource ? Kind::Text
                                      : Kind::ReadOnly;
    case PriceTable::Cloud:
        return column == CloudOnDemand || column == CloudSpot ? Kind::Rate
            : column == CloudDate                             ? Kind::Date
            : column == CloudSource                           ? Kind::Text
                                                              : Kind::ReadOnly;
    case PriceTable::Electricity:
        if (column == ElectricityValue)
            return row == ElectricityPue ? Kind::Pue : Kind::Electricity;
        return column == ElectricityDate  ? Kind::Date
            : column == ElectricitySource ? Kind::Text
                                          : Kind::ReadOnly;
    }
    return Kind::ReadOnly;
}

// The provenance a row's Date column edits.
const Provenance& provenanceOf(const Catalog& catalog, PriceTable table, int row)
{
    const auto r = static_cast<std::size_t>(row);
    switch (table) {
    case PriceTable::Gpus:
        return catalog.gpus.at(r).priceSource;
    case PriceTable::Chassis:
        return catalog.chassis.at(r).priceSource;
    case PriceTable::Cloud:
        return catalog.cloudOffers.at(r).source;
    case PriceTable::Electricity:
        break;
    }
    return row == ElectricityPue ? catalog.defaults.source(AssumptionId::Pue)
                                 : catalog.defaults.source(AssumptionId::ElectricityUsdPerKwh);
}

} // namespace

PriceBook::PriceBook(std::shared_ptr<const Catalog> catalog, QObject* parent)
    : QObject(parent)
    , m_catalog(std::make_shared<Catalog>(*catalog))
    , m_undo(new QUndoStack(this))
{
    connect(m_undo, &QUndoStack::cleanChanged, this,
        [this](bool clean) { emit modifiedChanged(!clean); });
}

bool PriceBook::isModified() const
{
    return !m_undo->isClean();
}

void PriceBook::reset(std::shared_ptr<const Catalog> catalog)
{
    m_catalog = std::make_shared<Catalog>(*catalog);
    m_undo->clear();
    emit tablesReset();
    emit catalogChanged();
}

void PriceBook::takeMeasurements(const Catalog& fresh)
{
    m_catalog = std::make_shared<Catalog>(*m_catalog);
    m_catalog->workloads = fresh.workloads;
    m_catalog->measured = fresh.measured;
    emit catalogChanged();
}

void PriceBook::markSaved()
{
    m_undo->setClean();
}

int PriceBook::rowCount(PriceTable table) const
{
    switch (table) {
    case PriceTable::Gpus:
        return static_cast<int>(m_catalog->gpus.size());
    case PriceTable::Chassis:
        return static_cast<int>(m_catalog->chassis.size());
    case PriceTable::Cloud:
        return static_cast<int>(m_catalog->cloudOffers.size());
    case PriceTable::Electricity:
        return ElectricityRows;
    }
    return 0;
}

int PriceBook::columnCount(PriceTable table) const
{
    switch (table) {
    case PriceTable::Gpus:
        return GpuColumns;
    case PriceTable::Chassis:
        return ChassisColumns;
    case PriceTable::Cloud:
        return CloudColumns;
    case PriceTable::Electricity:
        return ElectricityColumns;
    }
    return 0;
}

QString PriceBook::header(PriceTable table, int column) const
{
    static const char* const gpus[] = { "GPU", "Price (USD)", "Date", "Source" };
    static const char* const chassis[]
        = { "Chassis", "GPU slots", "Price (USD)", "Date", "Source" };
    static const char* const cloud[]
        = { "Provider", "Instance", "GPU", "On-demand (USD/h)", "Spot (USD/h)", "Date", "Source" };
    static const char* const electricity[] = { "Setting", "Value", "Date", "Source" };
    if (column < 0 || column >= columnCount(table))
        return {};
    switch (table) {
    case PriceTable::Gpus:
        return tr(gpus[column]);
    case PriceTable::Chassis:
        return tr(chassis[column]);
    case PriceTable::Cloud:
        return tr(cloud[column]);
    case PriceTable::Electricity:
        return tr(electricity[column]);
    }
    return {};
}

bool PriceBook::isEditable(PriceTable table, int column) const
{
    return kindOf(table, 0, column) != Kind::ReadOnly;
}

QVariant PriceBook::value(PriceTable table, int row, int column) const
{
    auto text = [](const std::string& s) { return QVariant(QString::fromStdString(s)); };
    const auto r = static_cast<std::size_t>(row);
    switch (table) {
    case PriceTable::Gpus: {
        const GpuSpec& g = m_catalog->gpus.at(r);
        switch (column) {
        case GpuName:
            return text(g.name);
        case GpuPrice:
            return optionalNumber(g.priceUsd);
        case GpuDate:
            return text(g.priceSource.date);
        case GpuSource:
            return text(g.priceSource.source);
        default:
            return {};
        }
    }
    case PriceTable::Chassis: {
        const ChassisSpec& c = m_catalog->chassis.at(r);
        switch (column) {
        case ChassisName:
            return text(c.name);
        case ChassisSlots:
            return c.gpuSlots;
        case ChassisPrice:
            return c.priceUsd;
        case ChassisDate:
            return text(c.priceSource.date);
        case ChassisSource:
            return text(c.priceSource.source);
        default:
            return {};
        }
    }
    case PriceTable::Cloud: {
        const CloudOffer& o = m_catalog->cloudOffers.at(r);
        switch (column) {
        case CloudProvider:
            return text(o.provider);
        case CloudInstance:
            return text(o.instance);
        case CloudGpu:
            return text(o.gpuId);
        case CloudOnDemand:
            return optionalNumber(o.onDemandUsdPerHour);
        case CloudSpot:
            return optionalNumber(o.spotUsdPerHour);
        case CloudDate:
            return text(o.source.date);
        case CloudSource:
            return text(o.source.source);
        default:
            return {};
        }
    }
    case PriceTable::Electricity: {
        const Assumptions& a = m_catalog->defaults;
        const bool pue = row == ElectricityPue;
        const Provenance& p
            = pue ? a.source(AssumptionId::Pue) : a.source(AssumptionId::ElectricityUsdPerKwh);
        switch (column) {
        case ElectricitySetting:
            return pue ? tr("PUE (facility overhead)") : tr("Electricity price (USD/kWh)");
        case ElectricityValue:
            return pue ? a.pue : a.electricityUsdPerKwh;
        case ElectricityDate:
            return text(p.date);
        case ElectricitySource:
            return text(p.source);
        default:
            return {};
        }
    }
    }
    return {};
}

QString PriceBook::validate(PriceTable table, int row, int column, const QVariant& value) const
{
    const Kind kind = kindOf(table, row, column);
    const QString text = value.toString().trimmed();
    // The bounds the YAML readers apply (core/limits.h, core/assumption_table.h), so Save never
    // writes a value the loader would reject.
    auto number = [&](const Bounds& bounds, bool optional, const QString& what) -> QString {
        if (optional && text.isEmpty())
            return {};
        bool ok = false;
        const double v = text.toDouble(&ok);
        if (!ok || !std::isfinite(v))
            return tr("%1 must be a number, not '%2'.").arg(what, text);
        if (v < 0)
            return tr("%1 cannot be negative: %2.").arg(what, text);
        if (v == 0.0 && bounds.positive)
            return tr("%1 cannot be 0: leave it empty when there is none.").arg(what);
        if (!bounds.contains(v))
            return tr("%1 must lie between %2 and %3: %4.")
                .arg(what)
                .arg(bounds.min)
                .arg(bounds.max)
                .arg(text);
        return {};
    };
    switch (kind) {
    case Kind::ReadOnly:
        return tr("This column cannot be edited.");
    case Kind::Text:
        return text.isEmpty() ? tr("Every price needs a source (where the figure came from).")
                              : QString();
    case Kind::Date: {
        // The loader's rule (pricing/yaml_reader.cpp), so Save never meets a date it rejects:
        // "undated" only where the row already has a note saying why (the editor has no notes).
        const bool undatedWithNote = text.toStdString() == yaml::kUndated
            && !provenanceOf(*m_catalog, table, row).note.empty();
        return yaml::isIsoDate(text.toStdString()) || undatedWithNote
            ? QString()
            : tr("The date must be YYYY, YYYY-MM or YYYY-MM-DD (or 'undated' with a note), not "
                 "'%1'.")
                  .arg(text);
    }
    case Kind::Price:
        return number(limits::kPriceUsd.bounds, table == PriceTable::Gpus, tr("A price"));
    case Kind::Rate: {
        QString why = number(limits::kHourlyUsd.bounds, true, tr("An hourly rate"));
        if (why.isEmpty() && text.isEmpty()) {
            const CloudOffer& o = m_catalog->cloudOffers.at(static_cast<std::size_t>(row));
            const bool otherRate = column == CloudOnDemand ? o.spotUsdPerHour.has_value()
                                                           : o.onDemandUsdPerHour.has_value();
            if (!otherRate && o.reserved.empty())
                why = tr("An offer needs at least one rate.");
        }
        return why;
    }
    case Kind::Pue:
        return number(assumptionSpec(AssumptionId::Pue).bounds, false, tr("PUE"));
    case Kind::Electricity:
        return number(assumptionSpec(AssumptionId::ElectricityUsdPerKwh).bounds, false,
            tr("The electricity price"));
    }
    return {};
}

QString PriceBook::edit(PriceTable table, int row, int column, const QVariant& value)
{
    if (row < 0 || row >= rowCount(table) || column < 0 || column >= columnCount(table))
        return tr("No such cell.");
    const QString why = validate(table, row, column, value);
    if (!why.isEmpty())
        return why;
    const QVariant before = this->value(table, row, column);
    QVariant after = value;
    const Kind kind = kindOf(table, row, column);
    if (kind == Kind::Text || kind == Kind::Date)
        after = value.toString().trimmed();
    else
        after = value.toString().trimmed().isEmpty() ? QVariant()
                                                     : QVariant(value.toString().toDouble());
    if (before == after)
        return {};
    const QString label
        = tr("Edit %1 of %2").arg(header(table, column), this->value(table, row, 0).toString());
    m_undo->push(new EditCommand(this, table, row, column, before, after, label));
    return {};
}

void PriceBook::apply(PriceTable table, int row, int column, const QVariant& value)
{
    // Snapshots already handed to the planner must not change under it: copy, then edit.
    m_catalog = std::make_shared<Catalog>(*m_catalog);
    const auto r = static_cast<std::size_t>(row);
    const std::string text = value.toString().toStdString();
    switch (table) {
    case PriceTable::Gpus: {
        GpuSpec& g = m_catalog->gpus.at(r);
        if (column == GpuPrice)
            g.priceUsd = toOptional(value);
        else if (column == GpuDate)
            g.priceSource.date = text;
        else if (column == GpuSource)
            g.priceSource.source = text;
        break;
    }
    case PriceTable::Chassis: {
        ChassisSpec& c = m_catalog->chassis.at(r);
        if (column == ChassisPrice)
            c.priceUsd = value.toDouble();
        else if (column == ChassisDate)
            c.priceSource.date = text;
        else if (column == ChassisSource)
            c.priceSource.source = text;
        break;
    }
    case PriceTable::Cloud: {
        CloudOffer& o = m_catalog->cloudOffers.at(r);
        if (column == CloudOnDemand)
            o.onDemandUsdPerHour = toOptional(value);
        else if (column == CloudSpot)
            o.spotUsdPerHour = toOptional(value);
        else if (column == CloudDate)
            o.source.date = text;
        else if (column == CloudSource)
            o.source.source = text;
        break;
    }
    case PriceTable::Electricity: {
        Assumptions& a = m_catalog->defaults;
        const bool pue = row == ElectricityPue;
        Provenance& p
            = pue ? a.source(AssumptionId::Pue) : a.source(AssumptionId::ElectricityUsdPerKwh);
        if (column == ElectricityValue)
            (pue ? a.pue : a.electricityUsdPerKwh) = value.toDouble();
        else if (column == ElectricityDate)
            p.date = text;
        else if (column == ElectricitySource)
            p.source = text;
        break;
    }
    }
    emit cellChanged(table, row, column);
    emit catalogChanged();
}

} // namespace gpuplan::gui

// gpuplan-cli list: what the price tables hold, with the date and source of every price.

#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/cli/text_table.h"
#include "app/common/format.h"
#include "app/common/results_csv.h"
#include "app/common/results_json.h"
#include "core/costing/renting.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace gpuplan::cli {

namespace {

const QString kCommand = QStringLiteral("list");

// One listing: headers, rows of text, and the same rows as JSON objects. Dollar amounts are
// plain numbers in the rows ("1020", as the CSV gives them for a spreadsheet to add up) and are
// formatted ("$1,020") only in the table.
struct Listing {
    QStringList headers;
    std::vector<QStringList> rows;
    std::vector<QJsonObject> objects;
    QList<int> usdColumns;
};

QString plainUsd(double usd)
{
    return QString::number(usd, 'g', 12);
}

QString str(const std::string& s)
{
    return QString::fromStdString(s);
}
QString optionalUsd(const std::optional<double>& v)
{
    return v ? plainUsd(*v) : QString();
}
QJsonValue optionalJson(const std::optional<double>& v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QString peaks(const GpuSpec& g)
{
    QStringList parts;
    for (const auto& [precision, tflops] : g.peakTflops)
        parts << views::toQString(toString(precision)) + QLatin1Char(' ') + QString::number(tflops);
    return parts.join(QStringLiteral(", "));
}

Listing gpus(const Catalog& c)
{
    Listing l { { "Id", "Name", "Memory (GB)", "Peak TFLOP/s", "Power (W)", "Price", "Price date",
                    "Price source" },
        {}, {}, { 5 } };
    for (const auto& g : c.gpus) {
        // An SXM GPU is sold inside a system: say where to find its price.
        QStringList systems;
        for (const auto& s : c.systems)
            if (s.gpuId == g.id)
                systems << str(s.id);
        const QString price = g.priceUsd ? plainUsd(*g.priceUsd)
            : systems.isEmpty()          ? QString()
                                         : QStringLiteral("in systems");
        const QString source = g.priceUsd || systems.isEmpty() ? str(g.priceSource.source)
                                                               : QStringLiteral("sold in ")
                + systems.join(QStringLiteral(", ")) + QStringLiteral(" (list systems)");
        l.rows.push_back({ str(g.id), str(g.name), QString::number(g.memoryGb), peaks(g),
            QString::number(g.boardPowerWatts), price, str(g.priceSource.date), source });
        QJsonObject peakJson;
        for (const auto& [precision, tflops] : g.peakTflops)
            peakJson[views::toQString(toString(precision))] = tflops;
        l.objects.push_back({ { "id", str(g.id) }, { "name", str(g.name) },
            { "memory_gb", g.memoryGb }, { "peak_tflops", peakJson },
            { "board_power_watts", g.boardPowerWatts }, { "price_usd", optionalJson(g.priceUsd) },
            { "price_date", str(g.priceSource.date) },
            { "price_source", str(g.priceSource.source) },
            { "spec_source", str(g.specSource.source) } });
    }
    return l;
}

Listing chassis(const Catalog& c)
{
    Listing l { { "Id", "Name", "GPU slots", "Price", "Base power (W)", "Power supplies (W)",
                    "Price date", "Price source" },
        {}, {}, { 3 } };
    for (const auto& ch : c.chassis) {
        const PowerSupplies& supplies = ch.powerSupplies;
        l.rows.push_back({ str(ch.id), str(ch.name), QString::number(ch.gpuSlots),
            plainUsd(ch.priceUsd), QString::number(ch.basePowerWatts),
            supplies.count > 0
                ? QStringLiteral("%1 x %2").arg(supplies.count).arg(supplies.wattsEach)
                : QStringLiteral("not listed"),
            str(ch.priceSource.date), str(ch.priceSource.source) });
        QJsonObject object { { "id", str(ch.id) }, { "name", str(ch.name) },
            { "gpu_slots", ch.gpuSlots }, { "price_usd", ch.priceUsd },
            { "base_power_watts", ch.basePowerWatts }, { "price_date", str(ch.priceSource.date) },
            { "price_source", str(ch.priceSource.source) },
            { "power_source", str(ch.powerSource.source) } };
        if (supplies.count > 0) {
            object.insert(QStringLiteral("power_supplies"), supplies.count);
            object.insert(QStringLiteral("power_supply_watts"), supplies.wattsEach);
            object.insert(QStringLiteral("power_supply_source"), str(supplies.source.source));
        }
        l.objects.push_back(object);
    }
    return l;
}

Listing sponsors(const Catalog& c)
{
    Listing l { { "Id", "Name", "Equipment from", "Indirect rate on", "Date", "Source" }, {}, {},
        { 2 } };
    for (const auto& sp : c.sponsors) {
        QStringList on;
        QJsonArray onJson;
        for (std::size_t i = 0; i < kBudgetCategoryCount; ++i)
            if (sp.carriesIndirect[i]) {
                on << views::toQString(toString(static_cast<BudgetCategory>(i)));
                onJson.append(on.back());
            }
        l.rows.push_back({ str(sp.id), str(sp.name), plainUsd(sp.equipmentThresholdUsd),
            on.isEmpty() ? QStringLiteral("(none)") : on.join(QStringLiteral(", ")),
            str(sp.source.date), str(sp.source.source) });
        l.objects.push_back({ { "id", str(sp.id) }, { "name", str(sp.name) },
            { "equipment_threshold_usd", sp.equipmentThresholdUsd }, { "indirect_on", onJson },
            { "date", str(sp.source.date) }, { "source", str(sp.source.source) },
            { "note", str(sp.source.note) } });
    }
    return l;
}

Listing systems(const Catalog& c)
{
    Listing l { { "Id", "Name", "GPU", "GPUs", "Price", "Kind", "Base power (W)", "Price date",
                    "Price source" },
        {}, {}, { 4 } };
    for (const auto& s : c.systems) {
        l.rows.push_back({ str(s.id), str(s.name), str(s.gpuId), QString::number(s.gpuCount),
            plainUsd(s.priceUsd), views::toQString(toString(s.priceSource.kind)),
            QString::number(s.basePowerWatts), str(s.priceSource.date),
            str(s.priceSource.source) });
        l.objects.push_back({ { "id", str(s.id) }, { "name", str(s.name) },
            { "gpu_id", str(s.gpuId) }, { "gpu_count", s.gpuCount }, { "price_usd", s.priceUsd },
            { "price_kind", views::toQString(toString(s.priceSource.kind)) },
            { "base_power_watts", s.basePowerWatts }, { "price_date", str(s.priceSource.date) },
            { "price_source", str(s.priceSource.source) } });
    }
    return l;
}

QJsonArray instanceGpuCountsJson(const CloudOffer& o)
{
    QJsonArray counts;
    for (const int n : gpuCountsInOneInstance(o))
        counts.append(n);
    return counts;
}

// The network each instance lists ({gbps, date, source, note}), null where none is.
QJsonValue networkJson(const CloudOffer& o)
{
    if (!o.network)
        return QJsonValue::Null;
    return QJsonObject { { "gbps", o.network->gbps }, { "date", str(o.network->source.date) },
        { "source", str(o.network->source.source) }, { "note", str(o.network->source.note) } };
}

Listing cloud(const Catalog& c)
{
    // The kind beside the provider: a campus cluster and an allocation read as cloud offers
    // without it (the allocation as a row with no rate); its queue and lead in the JSON.
    // GPUs: those one rate buys; Up to: the most one instance holds where more (a RunPod pod
    // of 8 at the per-GPU rate), both plain numbers in the CSV.
    Listing l { { "Id", "Kind", "Provider", "Instance", "GPU", "GPUs", "Up to", "On-demand $/h",
                    "Spot $/h", "Reserved $/h", "Date", "Source" },
        {}, {}, { 7, 8 } };
    for (const auto& o : c.cloudOffers) {
        QStringList reserved;
        QJsonArray reservedJson;
        for (const auto& r : o.reserved) {
            // Several terms in one cell: text in the CSV too, so formatted alike.
            reserved
                << QStringLiteral("%1 (%2-yr)").arg(views::formatUsd(r.usdPerHour)).arg(r.years);
            reservedJson.append(
                QJsonObject { { "years", r.years }, { "usd_per_hour", r.usdPerHour } });
        }
        l.rows.push_back({ str(o.id), views::toQString(toString(o.kind)), str(o.provider),
            str(o.instance), str(o.gpuId), QString::number(o.gpusPerInstance),
            mostGpusInOneInstance(o) > o.gpusPerInstance ? QString::number(mostGpusInOneInstance(o))
                                                         : QString(),
            optionalUsd(o.onDemandUsdPerHour), optionalUsd(o.spotUsdPerHour),
            reserved.join(QStringLiteral("; ")), str(o.source.date), str(o.source.source) });
        l.objects.push_back({ { "id", str(o.id) }, { "kind", views::toQString(toString(o.kind)) },
            { "queue_wait_days", o.queueWaitDays },
            { "application_lead_days", o.applicationLeadDays }, { "provider", str(o.provider) },
            { "instance", str(o.instance) }, { "gpu_id", str(o.gpuId) },
            { "gpus_per_instance", o.gpusPerInstance },
            { "max_gpus_per_instance", mostGpusInOneInstance(o) },
            { "instance_gpu_counts", instanceGpuCountsJson(o) }, { "network", networkJson(o) },
            { "usd_per_hour", optionalJson(o.onDemandUsdPerHour) },
            { "spot_usd_per_hour", optionalJson(o.spotUsdPerHour) }, { "reserved", reservedJson },
            { "region", str(o.region) }, { "date", str(o.source.date) },
            { "source", str(o.source.source) }, { "note", str(o.source.note) } });
    }
    return l;
}

Listing models(const Catalog& c)
{
    Listing l { { "Id", "Name", "Parameters", "Training FLOPs", "Global batch", "Steps",
                    "Precision", "Optimizer" },
        {}, {}, {} };
    for (const auto& w : c.workloads) {
        l.rows.push_back({ str(w.id), str(w.name), QString::number(w.parameters),
            QString::number(w.trainingFlops, 'g', 3), QString::number(w.globalBatch),
            QString::number(w.steps), views::toQString(toString(w.precision)), str(w.optimizer) });
        QJsonObject json { { "id", str(w.id) }, { "name", str(w.name) },
            { "family", str(w.family) }, { "parameters", static_cast<double>(w.parameters) },
            { "training_flops", w.trainingFlops }, { "global_batch", w.globalBatch },
            { "steps", static_cast<double>(w.steps) },
            { "precision", views::toQString(toString(w.precision)) },
            { "optimizer", str(w.optimizer) }, { "source", str(w.source.source) } };
        if (w.sequenceLength)
            json["sequence_length"] = *w.sequenceLength;
        if (w.imageSize)
            json["image_size"] = *w.imageSize;
        l.objects.push_back(json);
    }
    return l;
}

} // namespace

int runList(const QStringList& arguments)
{
    const QString kWhat = QStringLiteral("gpus, chassis, systems, cloud, models or sponsors");
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("List the GPUs, chassis, systems, cloud offers, models or sponsors' "
                       "budget rules."));
    p.addPositionalArgument(QStringLiteral("what"), kWhat);
    addDataOptions(p);
    addFormatOption(p);
    int exitCode = kExitOk;
    if (!parse(p, arguments, kCommand, &exitCode, Positionals::Declared))
        return exitCode;
    const QStringList what = p.positionalArguments();
    if (what.size() != 1)
        return fail(kCommand, QStringLiteral("say what to list: ") + kWhat);
    QString error;
    const auto format = formatOption(p, &error);
    if (!format)
        return fail(kCommand, error);

    Listing (*make)(const Catalog&) = nullptr;
    if (what[0] == QLatin1String("gpus"))
        make = gpus;
    else if (what[0] == QLatin1String("chassis"))
        make = chassis;
    else if (what[0] == QLatin1String("systems"))
        make = systems;
    else if (what[0] == QLatin1String("cloud"))
        make = cloud;
    else if (what[0] == QLatin1String("models"))
        make = models;
    else if (what[0] == QLatin1String("sponsors"))
        make = sponsors;
    else
        return fail(kCommand, "cannot list '" + what[0] + "': say " + kWhat);

    const auto catalog = loadCatalog(p, kCommand);
    if (!catalog)
        return kExitUsage;
    const Listing listing = make(*catalog);

    QTextStream out(stdout);
    switch (*format) {
    case OutputFormat::Json: {
        QJsonArray array;
        for (const auto& o : listing.objects)
            array.append(o);
        // {"schema_version": 1, "gpus": [...]}: named by what was listed.
        out << QJsonDocument(views::versioned({ { what[0], array } }))
                   .toJson(QJsonDocument::Indented);
        break;
    }
    case OutputFormat::Csv:
        out << views::csvRow(listing.headers);
        for (const auto& row : listing.rows)
            out << views::csvRow(row);
        break;
    case OutputFormat::Table: {
        TextTable table(listing.headers);
        for (QStringList row : listing.rows) {
            // A dollar column holds plain amounts, or words where there is none ("in systems").
            for (int c : listing.usdColumns) {
                bool isAmount = false;
                const double usd = row[c].toDouble(&isAmount);
                if (isAmount)
                    row[c] = views::formatUsd(usd);
            }
            table.addRow(row);
        }
        table.print(out);
        break;
    }
    }
    return kExitOk;
}

} // namespace gpuplan::cli

// gpuplan-cli sensitivity: which assumption would flip the decision to buy. Each uncertain input
// moved across its range alone (core/sensitivity.h), the rows of the tornado chart.

#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/cli/scenario_options.h"
#include "app/cli/text_table.h"
#include "app/common/budget_table.h"
#include "app/common/format.h"
#include "app/common/results_json.h"
#include "app/common/wording.h"
#include "core/sensitivity.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <cmath>

namespace gpuplan::cli {

namespace {

const QString kCommand = QStringLiteral("sensitivity");

QJsonValue optionalNumber(const std::optional<double>& v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QString metricText(const SensitivityRow& row, const std::optional<double>& v)
{
    if (!v)
        return QStringLiteral("never");
    return row.metric == SensitivityMetric::ExperimentCostUsd ? views::formatUsd(*v)
                                                              : QString::number(*v, 'f', 1);
}

} // namespace

std::optional<std::size_t> offerOption(
    const Results& results, std::size_t optionIndex, const QString& id, QString* error)
{
    const OwnedOption& o = results.options[optionIndex];
    bool known = false;
    for (std::size_t i = 0; i < results.cloud.size(); ++i) {
        const CloudOption& c = results.cloud[i];
        if (c.offer->id != id.toStdString())
            continue;
        known = true;
        if (c.gpu == o.gpu && c.gpuCount == o.gpuCount) {
            if (!c.onDemandCostUsd && !c.spotCostUsd) {
                *error = QStringLiteral("--offer %1 has no on-demand or spot rate to break even "
                                        "against (a reservation or an allocation)")
                             .arg(id);
                return std::nullopt;
            }
            return i;
        }
    }
    *error = known ? QStringLiteral("--offer %1 does not rent %2x %3")
                         .arg(id)
                         .arg(o.gpuCount)
                         .arg(QString::fromStdString(o.gpu->id))
                   : QStringLiteral("unknown --offer '%1' (see 'gpuplan-cli list cloud')").arg(id);
    return std::nullopt;
}

int runSensitivity(const QStringList& arguments)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Each uncertain input moved across its range alone, the others at their stated values: "
        "how far it moves the break-even against renting and the per-experiment cost, largest "
        "swing first."));
    p.addOption({ QStringLiteral("machine"),
        QStringLiteral("The machine to buy, e.g. 8xa100-80gb-sxm."), QStringLiteral("NxGPU") });
    p.addOption({ QStringLiteral("offer"),
        QStringLiteral("The cloud offer to compare with (default: the cheapest way to rent the "
                       "same GPUs)."),
        QStringLiteral("ID") });
    p.addOption({ QStringLiteral("format"), QStringLiteral("table (default) or json."),
        QStringLiteral("FORMAT"), QStringLiteral("table") });
    addScenarioOptions(p);
    addDataOptions(p);
    int exitCode = kExitOk;
    if (!parse(p, arguments, kCommand, &exitCode))
        return exitCode;
    const QString format = p.value(QStringLiteral("format"));
    if (format != QLatin1String("table") && format != QLatin1String("json"))
        return fail(kCommand, "--format must be table or json, not '" + format + "'");
    if (!p.isSet(QStringLiteral("machine")))
        return fail(kCommand, QStringLiteral("--machine COUNTxGPU_ID is required"));

    const auto catalog = loadCatalog(p, kCommand);
    if (!catalog)
        return kExitUsage;
    QString error;
    auto planned = planFromOptions(p, catalog, &error);
    if (!planned)
        return fail(kCommand, error);
    const Results& r = planned->results;
    const auto machine = machineOption(r, p.value(QStringLiteral("machine")), &error);
    if (!machine)
        return fail(kCommand, error);
    std::optional<std::size_t> offer;
    if (p.isSet(QStringLiteral("offer"))) {
        offer = offerOption(r, *machine, p.value(QStringLiteral("offer")), &error);
        if (!offer)
            return fail(kCommand, error);
    }
    const auto rows = sensitivity(planned->scenario, r, *machine, offer);
    const OwnedOption& o = r.options[*machine];
    const std::optional<std::size_t> against = offer ? offer : o.cheapestCloudIndex;

    QTextStream out(stdout);
    if (format == QLatin1String("json")) {
        QJsonArray list;
        for (const auto& row : rows)
            list.append(QJsonObject {
                { QStringLiteral("assumption"), QString::fromStdString(row.input) },
                { QStringLiteral("label"), QString::fromStdString(row.label) },
                { QStringLiteral("low_value"), row.lowValue },
                { QStringLiteral("high_value"), row.highValue },
                { QStringLiteral("metric"), views::toQString(toString(row.metric)) },
                { QStringLiteral("metric_low"), optionalNumber(row.metricLow) },
                { QStringLiteral("metric_high"), optionalNumber(row.metricHigh) },
            });
        const QJsonObject json = views::versioned({
            { QStringLiteral("model"), QString::fromStdString(r.workload->id) },
            { QStringLiteral("machine"),
                QStringLiteral("%1x%2").arg(o.gpuCount).arg(QString::fromStdString(o.gpu->id)) },
            { QStringLiteral("offer"),
                against ? QJsonValue(QString::fromStdString(r.cloud[*against].offer->id))
                        : QJsonValue(QJsonValue::Null) },
            { QStringLiteral("break_even_runs"), optionalNumber(o.breakEvenRuns) },
            { QStringLiteral("experiment_cost_usd"), o.experimentCostUsd },
            { QStringLiteral("sponsor"), QString::fromStdString(r.indirectRules.id) },
            { QStringLiteral("indirect_rate"), r.assumptions.indirectRate },
            { QStringLiteral("rows"), list },
        });
        out << QJsonDocument(json).toJson(QJsonDocument::Indented);
        return kExitOk;
    }
    out << "Sensitivity of buying "
        << views::formatMachine(o.gpuCount, QString::fromStdString(o.gpu->name));
    if (against) {
        const CloudOption& c = r.cloud[*against];
        out << " against " << QString::fromStdString(c.offer->provider) << ' '
            << QString::fromStdString(c.offer->instance) << " ("
            << QString::fromStdString(c.offer->id) << ')';
    } else {
        out << " (no way to rent the same GPUs: per-experiment cost only)";
    }
    out << ": each input across its range alone, largest swing first.\n";
    // Both metrics weigh F&A by the sponsor's rules, as plan's do; say so where it applies.
    if (const QString fa = views::indirectScopeText(r.indirectRules, r.assumptions.indirectRate);
        !fa.isEmpty())
        out << fa << ".\n";
    out << '\n';
    TextTable table({ QStringLiteral("Input"), QStringLiteral("Low"), QStringLiteral("High"),
                        QStringLiteral("Metric"), QStringLiteral("At low"),
                        QStringLiteral("At high"), QStringLiteral("Swing") },
        { false, true, true, false, true, true, true });
    for (const auto& row : rows) {
        const double swing = row.swing();
        table.addRow(
            { QString::fromStdString(row.label), views::sensitivityInputText(row, row.lowValue),
                views::sensitivityInputText(row, row.highValue),
                row.metric == SensitivityMetric::BreakEvenRuns ? QStringLiteral("break-even runs")
                                                               : QStringLiteral("per experiment"),
                metricText(row, row.metricLow), metricText(row, row.metricHigh),
                std::isfinite(swing) ? (row.metric == SensitivityMetric::ExperimentCostUsd
                        ? views::formatUsd(swing)
                        : QString::number(swing, 'f', 1))
                                     : QStringLiteral("never at one end") });
    }
    table.print(out);
    return kExitOk;
}

} // namespace gpuplan::cli

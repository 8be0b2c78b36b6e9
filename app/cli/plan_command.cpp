// gpuplan-cli plan: every machine to buy and every way to rent, for one model.

#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/cli/text_table.h"
#include "app/common/cloud_columns.h"
#include "app/common/format.h"
#include "app/common/option_columns.h"
#include "app/common/results_csv.h"
#include "app/common/results_json.h"
#include "core/evaluate.h"

#include <QJsonDocument>
#include <QTextStream>

#include <algorithm>
#include <set>

namespace gpuplan::cli {

namespace {

const QString kCommand = QStringLiteral("plan");

void addPlanOptions(QCommandLineParser& p)
{
    p.setApplicationDescription(QStringLiteral(
        "Training time and cost of every machine to buy and every cloud offer to rent, for one "
        "model. Costs follow the paper: machine = chassis + n x GPU; per experiment = machine x "
        "days / (years x 365 x utilisation)."));
    p.addOption({ QStringLiteral("model"),
        QStringLiteral("Model id (see 'gpuplan-cli list models')."), QStringLiteral("ID") });
    p.addOption({ QStringLiteral("source"),
        QStringLiteral("best (default), paper, paper-naive, analytic or measured."),
        QStringLiteral("SOURCE"), QStringLiteral("best") });
    p.addOption({ QStringLiteral("budget"),
        QStringLiteral("Hardware budget in USD: recommend the fastest machine within it."),
        QStringLiteral("USD") });
    p.addOption({ QStringLiteral("deadline"),
        QStringLiteral("Deadline in days: recommend the cheapest machine that meets it."),
        QStringLiteral("DAYS") });
    p.addOption({ QStringLiteral("years"), QStringLiteral("Amortisation period (default 5)."),
        QStringLiteral("N") });
    p.addOption({ QStringLiteral("utilization"),
        QStringLiteral("Fraction of the lifespan the machine trains (default 1.0)."),
        QStringLiteral("F") });
    p.addOption({ QStringLiteral("analytic-utilization"),
        QStringLiteral("Fraction of peak the analytic estimate assumes (default 0.4)."),
        QStringLiteral("F") });
    p.addOption({ QStringLiteral("electricity-price"),
        QStringLiteral("USD per kWh (default from the tables)."), QStringLiteral("USD") });
    p.addOption({ QStringLiteral("pue"), QStringLiteral("Facility power overhead, >= 1."),
        QStringLiteral("F") });
    p.addOption({ QStringLiteral("spot-overhead"),
        QStringLiteral("Extra run time on spot instances, e.g. 0.1."), QStringLiteral("F") });
    p.addOption({ QStringLiteral("indirect-rate"),
        QStringLiteral("F&A rate applied to cloud spend, e.g. 0.55 (default 0)."),
        QStringLiteral("F") });
    p.addOption({ QStringLiteral("runs"), QStringLiteral("Planned number of runs (default 1)."),
        QStringLiteral("N") });
    p.addOption({ QStringLiteral("runs-per-month"),
        QStringLiteral("Run rate, to state break-even in months (default 1)."),
        QStringLiteral("N") });
    p.addOption({ QStringLiteral("gpus"),
        QStringLiteral("Only these GPU ids, comma-separated (default: all with a price)."),
        QStringLiteral("IDS") });
    p.addOption({ QStringLiteral("csv-table"),
        QStringLiteral("With --format csv: options (default) or cloud."), QStringLiteral("TABLE"),
        QStringLiteral("options") });
    addDataOptions(p);
    addFormatOption(p);
}

// Reads the numeric options into the scenario; returns an error message or an empty string.
QString applyNumbers(const QCommandLineParser& p, Scenario& s)
{
    QString error;
    struct Setting {
        const char* name;
        double min;
        double max;
        double* target;
    };
    Assumptions& a = s.assumptions;
    const Setting settings[] = {
        { "years", 0.1, 50.0, &a.amortizationYears },
        { "utilization", 0.01, 1.0, &a.machineUtilization },
        { "analytic-utilization", 0.01, 1.0, &a.analyticUtilization },
        { "electricity-price", 0.0, 10.0, &a.electricityUsdPerKwh },
        { "pue", 1.0, 5.0, &a.pue },
        { "spot-overhead", 0.0, 10.0, &a.spotRestartOverhead },
        { "indirect-rate", 0.0, 2.0, &a.indirectRate },
        { "runs-per-month", 0.01, 1e4, &a.runsPerMonth },
    };
    for (const auto& setting : settings) {
        const auto value
            = numberOption(p, QString::fromLatin1(setting.name), setting.min, setting.max, &error);
        if (!error.isEmpty())
            return error;
        if (value)
            *setting.target = *value;
    }
    if (auto runs = numberOption(p, QStringLiteral("runs"), 1, 1e5, &error))
        a.plannedRuns = static_cast<int>(*runs);
    if (!error.isEmpty())
        return error;
    s.budgetUsd = numberOption(p, QStringLiteral("budget"), 1.0, 1e10, &error);
    if (!error.isEmpty())
        return error;
    s.deadlineDays = numberOption(p, QStringLiteral("deadline"), 0.01, 1e6, &error);
    return error;
}

QString knownIds(const Catalog& c, bool models)
{
    QStringList ids;
    if (models)
        for (const auto& w : c.workloads)
            ids << QString::fromStdString(w.id);
    else
        for (const auto& g : c.gpus)
            ids << QString::fromStdString(g.id);
    return ids.join(QStringLiteral(", "));
}

template <typename Column, typename Option>
void addRows(TextTable& table, const std::vector<Option>& rows, int columnCount)
{
    for (const auto& row : rows) {
        QStringList cells;
        for (int c = 0; c < columnCount; ++c)
            cells << views::displayText(row, static_cast<Column>(c));
        table.addRow(cells);
    }
}

// Buying vs renting over the whole project: what the grant pays, and when the work is done.
void printProjectPlan(QTextStream& out, const Results& r)
{
    const int runs = r.assumptions.plannedRuns;
    out << "\nProject of " << runs << (runs == 1 ? " run" : " runs")
        << ": buying (machine + electricity) against the cheapest way to rent the same GPUs\n\n";
    TextTable plan({ QStringLiteral("Machine"), QStringLiteral("Buy total"),
                       QStringLiteral("Rent total"), QStringLiteral("Calendar days"),
                       QStringLiteral("Break-even runs"), QStringLiteral("Break-even months") },
        { false, true, true, true, true, true });
    for (const auto& o : r.options) {
        const auto* rent = o.cheapestCloudIndex ? &r.cloud[*o.cheapestCloudIndex] : nullptr;
        plan.addRow({ views::formatMachine(o.gpuCount, QString::fromStdString(o.gpu->name)),
            views::formatUsd(o.planTotalUsd),
            rent ? views::formatUsd(rent->planTotalUsd) : QStringLiteral("no offer"),
            QString::number(o.planCalendarDays, 'f', 0),
            o.breakEvenRuns ? QString::number(*o.breakEvenRuns, 'f', 1)
                            : (rent ? QStringLiteral("never") : QString()),
            o.breakEvenMonths ? QString::number(*o.breakEvenMonths, 'f', 1) : QString() });
    }
    plan.print(out);
}

void printTable(QTextStream& out, const Results& r)
{
    out << QString::fromStdString(r.workload->name) << ": training time and cost per machine"
        << " (source: " << views::toQString(toString(r.source)) << "; amortised over "
        << r.assumptions.amortizationYears << " years at "
        << views::formatPercent(r.assumptions.machineUtilization) << " use)\n\n";

    QStringList headers;
    for (int c = 0; c < views::kOptionColumnCount; ++c)
        headers << views::header(static_cast<views::OptionColumn>(c));
    TextTable owned(headers, { false, true, true, false, true, true, true, true, false, false });
    addRows<views::OptionColumn>(owned, r.options, views::kOptionColumnCount);
    owned.print(out);

    out << '\n';
    if (r.recommended) {
        const auto& o = r.options[*r.recommended];
        out << "Recommended: "
            << views::formatMachine(o.gpuCount, QString::fromStdString(o.gpu->name)) << " - "
            << QString::fromStdString(r.recommendationReason) << ": "
            << views::formatDays(o.estimate.days) << ", " << views::formatUsd(o.machineCostUsd)
            << " machine, " << views::formatUsd(o.experimentCostUsd) << " per experiment.\n";
    } else if (!r.recommendationReason.empty()) {
        out << "Recommended: none - " << QString::fromStdString(r.recommendationReason) << ".\n";
    }
    printProjectPlan(out, r);
    for (const auto& u : r.unavailable)
        out << "Not available: " << u.gpuCount << "x " << QString::fromStdString(u.gpuId) << " ("
            << QString::fromStdString(u.reason) << ")\n";

    if (!r.cloud.empty()) {
        std::vector<CloudOption> cloud = r.cloud;
        std::stable_sort(cloud.begin(), cloud.end(),
            [](const auto& a, const auto& b) { return *a.cheapestCostUsd < *b.cheapestCostUsd; });
        out << "\nRenting the same work (cheapest per run first):\n\n";
        QStringList cloudHeaders;
        for (int c = 0; c < views::kCloudColumnCount; ++c)
            cloudHeaders << views::header(static_cast<views::CloudColumn>(c));
        TextTable rent(cloudHeaders,
            { false, false, false, true, true, true, true, true, true, true, true, false, false });
        addRows<views::CloudColumn>(rent, cloud, views::kCloudColumnCount);
        rent.print(out);
    }

    std::set<EstimateFlag> flagsShown;
    for (const auto& o : r.options)
        flagsShown.insert(o.estimate.flags.begin(), o.estimate.flags.end());
    for (const auto& c : r.cloud)
        flagsShown.insert(c.estimate.flags.begin(), c.estimate.flags.end());
    if (!flagsShown.empty())
        out << "\nFlags:\n";
    for (auto flag : flagsShown)
        out << "  " << views::toQString(toString(flag)) << ": " << views::toQString(describe(flag))
            << '\n';
    for (const auto& w : r.warnings)
        out << "Warning: " << QString::fromStdString(w) << '\n';
}

} // namespace

int runPlan(const QStringList& arguments)
{
    QCommandLineParser p;
    addPlanOptions(p);
    int exitCode = kExitOk;
    if (!parse(p, arguments, kCommand, &exitCode))
        return exitCode;
    if (!p.positionalArguments().isEmpty())
        return fail(kCommand, "unexpected argument '" + p.positionalArguments().first() + "'");
    if (!p.isSet(QStringLiteral("model")))
        return fail(
            kCommand, QStringLiteral("--model is required (see 'gpuplan-cli list models')"));

    QString error;
    const auto format = formatOption(p, &error);
    if (!format)
        return fail(kCommand, error);
    const auto policy = sourcePolicyFromString(p.value(QStringLiteral("source")).toStdString());
    if (!policy)
        return fail(kCommand,
            "--source must be best, paper, paper-naive, analytic or measured, not '"
                + p.value(QStringLiteral("source")) + "'");
    const QString csvTable = p.value(QStringLiteral("csv-table"));
    if (csvTable != QLatin1String("options") && csvTable != QLatin1String("cloud"))
        return fail(kCommand, "--csv-table must be options or cloud, not '" + csvTable + "'");

    const auto catalog = loadCatalog(p, kCommand);
    if (!catalog)
        return kExitUsage;

    Scenario scenario;
    scenario.catalog = catalog;
    scenario.assumptions = catalog->defaults;
    scenario.source = *policy;
    scenario.modelId = p.value(QStringLiteral("model")).toStdString();
    if (!catalog->findWorkload(scenario.modelId))
        return fail(kCommand,
            "unknown model '" + p.value(QStringLiteral("model"))
                + "'; known models: " + knownIds(*catalog, true));
    if (p.isSet(QStringLiteral("gpus"))) {
        for (const auto& id :
            p.value(QStringLiteral("gpus")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (!catalog->findGpu(id.trimmed().toStdString()))
                return fail(kCommand,
                    "unknown GPU '" + id.trimmed() + "'; known GPUs: " + knownIds(*catalog, false));
            scenario.gpuIds.push_back(id.trimmed().toStdString());
        }
    }
    error = applyNumbers(p, scenario);
    if (!error.isEmpty())
        return fail(kCommand, error);

    const Results results = evaluate(scenario);
    QTextStream out(stdout);
    switch (*format) {
    case OutputFormat::Json:
        out << QJsonDocument(views::toJson(results)).toJson(QJsonDocument::Indented);
        break;
    case OutputFormat::Csv:
        out << (csvTable == QLatin1String("cloud") ? views::cloudCsv(results)
                                                   : views::optionsCsv(results));
        break;
    case OutputFormat::Table:
        printTable(out, results);
        break;
    }
    return kExitOk;
}

} // namespace gpuplan::cli

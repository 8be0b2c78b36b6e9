// gpuplan-cli chart and report: the GUI's charts and proposal report, rendered offscreen for
// scripted proposal figures. Same builders, same backend, same evaluate() as the GUI.

#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/render/buy_vs_rent_chart.h"
#include "app/render/chart_export.h"
#include "app/render/planner_charts.h"
#include "app/render/proposal_report.h"
#include "core/evaluate.h"

#include <QTextStream>

namespace gpuplan::cli {

namespace {

const QString kCommand = QStringLiteral("chart");

} // namespace

void addScenarioOptions(QCommandLineParser& p)
{
    p.addOption({ QStringLiteral("source"),
        QStringLiteral("best (default), paper, paper-naive, analytic or measured."),
        QStringLiteral("SOURCE"), QStringLiteral("best") });
    p.addOption({ QStringLiteral("budget"), QStringLiteral("Hardware budget in USD."),
        QStringLiteral("USD") });
    p.addOption({ QStringLiteral("deadline"), QStringLiteral("Deadline in days."),
        QStringLiteral("DAYS") });
    p.addOption({ QStringLiteral("years"), QStringLiteral("Amortisation period (default 5)."),
        QStringLiteral("N") });
    p.addOption({ QStringLiteral("utilization"),
        QStringLiteral("Fraction of the lifespan the machine trains (default 1.0)."),
        QStringLiteral("F") });
    p.addOption({ QStringLiteral("runs"), QStringLiteral("Planned number of runs (default 1)."),
        QStringLiteral("N") });
    p.addOption({ QStringLiteral("runs-per-month"),
        QStringLiteral("Run rate, to state break-even in months (default 1)."),
        QStringLiteral("N") });
}

std::optional<Planned> planFromOptions(
    const QCommandLineParser& p, std::shared_ptr<const Catalog> catalog, QString* error)
{
    Planned planned;
    Scenario& s = planned.scenario;
    s.catalog = std::move(catalog);
    s.assumptions = s.catalog->defaults;
    s.modelId = p.value(QStringLiteral("model")).toStdString();
    if (s.modelId.empty() || !s.catalog->findWorkload(s.modelId)) {
        *error = QStringLiteral("--model must name a model (see 'gpuplan-cli list models')");
        return std::nullopt;
    }
    const auto source = sourcePolicyFromString(p.value(QStringLiteral("source")).toStdString());
    if (!source) {
        *error = QStringLiteral("--source must be best, paper, paper-naive, analytic or measured");
        return std::nullopt;
    }
    s.source = *source;
    struct Setting {
        const char* name;
        double min;
        double max;
        double* target;
    };
    double runs = s.assumptions.plannedRuns;
    const Setting settings[] = {
        { "years", 0.1, 50.0, &s.assumptions.amortizationYears },
        { "utilization", 0.01, 1.0, &s.assumptions.machineUtilization },
        { "runs-per-month", 0.01, 1e4, &s.assumptions.runsPerMonth },
        { "runs", 1, 1e5, &runs },
    };
    for (const auto& setting : settings) {
        const auto value
            = numberOption(p, QString::fromLatin1(setting.name), setting.min, setting.max, error);
        if (!error->isEmpty())
            return std::nullopt;
        if (value)
            *setting.target = *value;
    }
    s.assumptions.plannedRuns = static_cast<int>(runs);
    s.budgetUsd = numberOption(p, QStringLiteral("budget"), 1.0, 1e10, error);
    if (error->isEmpty())
        s.deadlineDays = numberOption(p, QStringLiteral("deadline"), 0.01, 1e6, error);
    if (!error->isEmpty())
        return std::nullopt;
    planned.results = evaluate(s);
    return planned;
}

std::optional<std::size_t> machineOption(
    const Results& results, const QString& text, QString* error)
{
    if (text.isEmpty()) {
        render::ReportInput input;
        input.results = &results;
        if (const auto chosen = render::reportBuyOption(input))
            return chosen;
        *error = QStringLiteral("this model has no machine to buy");
        return std::nullopt;
    }
    const qsizetype x = text.indexOf(QLatin1Char('x'));
    bool ok = false;
    const int count = x > 0 ? text.left(x).toInt(&ok) : 0;
    const std::string gpu = text.mid(x + 1).toStdString();
    for (std::size_t i = 0; ok && i < results.options.size(); ++i)
        if (results.options[i].gpuCount == count && results.options[i].gpu->id == gpu)
            return i;
    *error = QStringLiteral("--machine %1 is not one of the options (write COUNTxGPU_ID, e.g. "
                            "8xa100-80gb-sxm)")
                 .arg(text);
    return std::nullopt;
}

int runChart(const QStringList& arguments)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Render one of the planner's charts to PNG, SVG or PDF (by the --out suffix)."));
    p.addOption({ QStringLiteral("model"), QStringLiteral("Model id."), QStringLiteral("ID") });
    p.addOption({ QStringLiteral("kind"),
        QStringLiteral("hardware-cost, experiment-cost or buy-vs-rent."), QStringLiteral("KIND") });
    p.addOption({ QStringLiteral("out"), QStringLiteral("Output file (.png, .svg or .pdf)."),
        QStringLiteral("FILE") });
    p.addOption({ QStringLiteral("dpi"), QStringLiteral("PNG resolution (default 300)."),
        QStringLiteral("N"), QStringLiteral("300") });
    p.addOption({ QStringLiteral("linear"), QStringLiteral("Linear axes instead of log axes.") });
    p.addOption({ QStringLiteral("months"),
        QStringLiteral("buy-vs-rent: months at --runs-per-month on the x axis instead of runs.") });
    p.addOption({ QStringLiteral("machine"),
        QStringLiteral("buy-vs-rent: the machine, e.g. 8xa100-80gb-sxm (default: the "
                       "recommended one, else the cheapest per experiment)."),
        QStringLiteral("NxGPU") });
    addScenarioOptions(p);
    addDataOptions(p);
    int exitCode = kExitOk;
    if (!parse(p, arguments, kCommand, &exitCode))
        return exitCode;

    const QString out = p.value(QStringLiteral("out"));
    if (out.isEmpty())
        return fail(kCommand, QStringLiteral("--out FILE is required"));
    if (!render::exportFormatFor(out))
        return fail(kCommand, QStringLiteral("--out must end in .png, .svg or .pdf: ") + out);
    const QString kind = p.value(QStringLiteral("kind"));
    if (kind != QLatin1String("hardware-cost") && kind != QLatin1String("experiment-cost")
        && kind != QLatin1String("buy-vs-rent"))
        return fail(kCommand,
            QStringLiteral("--kind must be hardware-cost, experiment-cost or "
                           "buy-vs-rent"));
    QString error;
    const auto dpi = numberOption(p, QStringLiteral("dpi"), 36, 1200, &error);
    if (!error.isEmpty())
        return fail(kCommand, error);

    const auto catalog = loadCatalog(p, kCommand);
    if (!catalog)
        return kExitUsage;
    auto planned = planFromOptions(p, catalog, &error);
    if (!planned)
        return fail(kCommand, error);

    render::ChartData chart;
    render::PlannerChartOptions options;
    options.logX = options.logY = !p.isSet(QStringLiteral("linear"));
    options.budgetUsd = planned->scenario.budgetUsd;
    options.deadlineDays = planned->scenario.deadlineDays;
    if (kind == QLatin1String("hardware-cost")) {
        chart = render::hardwareCostChart(planned->results, options);
    } else if (kind == QLatin1String("experiment-cost")) {
        chart = render::experimentCostChart(planned->results, options);
    } else {
        render::BuyVsRentOptions buy;
        const auto machine
            = machineOption(planned->results, p.value(QStringLiteral("machine")), &error);
        if (!machine)
            return fail(kCommand, error);
        buy.optionIndex = *machine;
        buy.months = p.isSet(QStringLiteral("months"));
        chart = render::buyVsRentChart(planned->results, buy);
    }
    render::FigureSize size;
    size.dpi = static_cast<int>(dpi.value_or(300));
    if (!render::exportChart(chart, out, size, &error))
        return fail(kCommand, error);
    QTextStream(stdout) << "Wrote " << out << '\n';
    return kExitOk;
}

} // namespace gpuplan::cli

// gpuplan-cli chart and report: the GUI's charts and proposal report, rendered offscreen for
// scripted proposal figures. Same builders, same backend, same evaluate() as the GUI.

#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/cli/scenario_options.h"
#include "app/render/buy_vs_rent_chart.h"
#include "app/render/chart_export.h"
#include "app/render/planner_charts.h"
#include "app/render/proposal_report.h"
#include "app/render/sensitivity_chart.h"
#include "core/evaluate.h"

#include <QTextStream>

#include <cmath>

namespace gpuplan::cli {

namespace {

const QString kCommand = QStringLiteral("chart");

} // namespace

std::optional<Planned> planFromOptions(
    const QCommandLineParser& p, std::shared_ptr<const Catalog> catalog, QString* error)
{
    auto scenario = scenarioFromOptions(p, std::move(catalog), error);
    if (!scenario)
        return std::nullopt;
    Planned planned { *scenario, evaluate(*scenario) };
    return planned;
}

int runChart(const QStringList& arguments)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Render one of the planner's charts to PNG, SVG or PDF (by the --out suffix)."));
    p.addOption({ QStringLiteral("kind"),
        QStringLiteral("hardware-cost, experiment-cost, buy-vs-rent or sensitivity."),
        QStringLiteral("KIND") });
    p.addOption({ QStringLiteral("offer"),
        QStringLiteral("sensitivity: the cloud offer to compare with (default: the cheapest way "
                       "to rent the same GPUs)."),
        QStringLiteral("ID") });
    p.addOption({ QStringLiteral("metric"),
        QStringLiteral("sensitivity: break-even (default) or experiment-cost."),
        QStringLiteral("METRIC"), QStringLiteral("break-even") });
    p.addOption({ QStringLiteral("out"), QStringLiteral("Output file (.png, .svg or .pdf)."),
        QStringLiteral("FILE") });
    p.addOption({ QStringLiteral("dpi"), QStringLiteral("PNG resolution (default 300)."),
        QStringLiteral("N"), QStringLiteral("300") });
    p.addOption({ QStringLiteral("linear"), QStringLiteral("Linear axes instead of log axes.") });
    p.addOption({ QStringLiteral("months"),
        QStringLiteral("buy-vs-rent: months at --runs-per-month on the x axis instead of runs.") });
    p.addOption({ QStringLiteral("machine"),
        QStringLiteral("buy-vs-rent, sensitivity: the machine, e.g. 8xa100-80gb-sxm (default: the "
                       "recommended one, else the cheapest per experiment of those that run "
                       "within their GPUs' peak and that an offer rents)."),
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
        && kind != QLatin1String("buy-vs-rent") && kind != QLatin1String("sensitivity"))
        return fail(kCommand,
            QStringLiteral("--kind must be hardware-cost, experiment-cost, buy-vs-rent or "
                           "sensitivity"));
    // An option the chosen chart does not use is refused: dropped, the chart would not be the
    // one asked for (--metric with hardware-cost drew the hardware chart without a word).
    const std::pair<QString, QStringList> onlyFor[] = {
        { QStringLiteral("metric"), { QStringLiteral("sensitivity") } },
        { QStringLiteral("offer"), { QStringLiteral("sensitivity") } },
        { QStringLiteral("months"), { QStringLiteral("buy-vs-rent") } },
        { QStringLiteral("machine"),
            { QStringLiteral("buy-vs-rent"), QStringLiteral("sensitivity") } },
        { QStringLiteral("linear"),
            { QStringLiteral("hardware-cost"), QStringLiteral("experiment-cost") } },
    };
    for (const auto& [option, kinds] : onlyFor)
        if (p.isSet(option) && !kinds.contains(kind))
            return fail(kCommand,
                QStringLiteral("--%1 applies to --kind %2, not %3")
                    .arg(option, kinds.join(QStringLiteral(" and ")), kind));
    const QString metric = p.value(QStringLiteral("metric"));
    if (metric != QLatin1String("break-even") && metric != QLatin1String("experiment-cost"))
        return fail(
            kCommand, "--metric must be break-even or experiment-cost, not '" + metric + "'");
    QString error;
    const auto dpi = numberOption(p, QStringLiteral("dpi"), 36, 1200, &error);
    if (!error.isEmpty())
        return fail(kCommand, error);
    // 150.7 had been cut to 150, and a vector file ignored it: either way not what was asked.
    if (dpi && std::floor(*dpi) != *dpi)
        return fail(
            kCommand, "--dpi must be a whole number, not " + p.value(QStringLiteral("dpi")));
    if (dpi && render::exportFormatFor(out) != render::ExportFormat::Png)
        return fail(kCommand, QStringLiteral("--dpi applies to .png output, not ") + out);

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
    } else if (kind == QLatin1String("sensitivity")) {
        const auto machine
            = machineOption(planned->results, p.value(QStringLiteral("machine")), &error);
        if (!machine)
            return fail(kCommand, error);
        std::optional<std::size_t> offer;
        if (p.isSet(QStringLiteral("offer"))) {
            offer
                = offerOption(planned->results, *machine, p.value(QStringLiteral("offer")), &error);
            if (!offer)
                return fail(kCommand, error);
        }
        const auto tornado
            = render::machineSensitivityChart(planned->scenario, planned->results, *machine, offer,
                metric == QLatin1String("experiment-cost") ? SensitivityMetric::ExperimentCostUsd
                                                           : SensitivityMetric::BreakEvenRuns,
                &error);
        if (!tornado)
            return fail(kCommand, error);
        chart = *tornado;
    } else {
        render::BuyVsRentOptions buy;
        const auto machine
            = machineOption(planned->results, p.value(QStringLiteral("machine")), &error);
        if (!machine)
            return fail(kCommand, error);
        buy.optionIndex = *machine;
        buy.months = p.isSet(QStringLiteral("months"));
        // A chart of the buy line alone compares with nothing: say so, as sensitivity does.
        if (matchingCloudOffers(planned->results, *machine).empty())
            return fail(kCommand,
                QStringLiteral("no cloud offer has the same GPUs as %1: nothing to compare buying "
                               "with (choose another --machine, or import an offer for them)")
                    .arg(render::shortMachineLabel(planned->results.options[*machine])));
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

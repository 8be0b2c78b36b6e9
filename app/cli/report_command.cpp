// gpuplan-cli report: the GUI's one-click proposal report, rendered offscreen.

#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/cli/grant_options.h"
#include "app/cli/scenario_options.h"
#include "app/render/proposal_report.h"

#include <QTextStream>

namespace gpuplan::cli {

int runReport(const QStringList& arguments)
{
    const QString command = QStringLiteral("report");
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Write the proposal report (A4 PDF): model, assumptions, both charts, buy vs rent, the "
        "grant budget by year, the frontier and the cheapest offers, and every shown price's "
        "date and source; the full tables as CSV beside it (NAME-options.csv, "
        "NAME-offers.csv)."));
    p.addOption({ QStringLiteral("out"),
        QStringLiteral("Output file (NAME.pdf); it and the two tables beside it replace any files "
                       "of those names, all three or none."),
        QStringLiteral("FILE") });
    p.addOption({ QStringLiteral("machine"),
        QStringLiteral("The machine for the buy-vs-rent section, e.g. 8xa100-80gb-sxm."),
        QStringLiteral("NxGPU") });
    addGrantOptions(p);
    addScenarioOptions(p);
    addDataOptions(p);
    int exitCode = kExitOk;
    if (!parse(p, arguments, command, &exitCode))
        return exitCode;
    const QString out = p.value(QStringLiteral("out"));
    if (out.isEmpty())
        return fail(command, QStringLiteral("--out FILE.pdf is required"));
    // Given, but not a PDF: "is required" read as if --out were missing (review).
    if (!out.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive))
        return fail(command,
            QStringLiteral("--out %1: the report is written as a PDF; name it FILE.pdf").arg(out));

    const auto catalog = loadCatalog(p, command);
    if (!catalog)
        return kExitUsage;
    QString error;
    const auto planned = planFromOptions(p, catalog, &error);
    if (!planned)
        return fail(command, error);
    render::ReportInput input;
    input.results = &planned->results;
    input.scenario = &planned->scenario;
    input.catalog = catalog.get();
    input.chartOptions.budgetUsd = planned->scenario.budgetUsd;
    input.chartOptions.deadlineDays = planned->scenario.deadlineDays;
    if (p.isSet(QStringLiteral("machine"))) {
        input.buyOption
            = machineOption(planned->results, p.value(QStringLiteral("machine")), &error);
        if (!input.buyOption)
            return fail(command, error);
    }
    // The grant budget section: the same choices as `budget` (the machine above, or --offer).
    const auto grant = grantFromOptions(p, *catalog, planned->results, &error);
    if (!grant)
        return fail(command, error);
    input.budgetTarget = grant->target;
    input.grantPlan = grant->plan;
    input.sponsor = grant->sponsor;
    if (!render::writeProposalReport(input, out, &error))
        return fail(command, error);
    // Every file written, the tables beside the PDF included: they replace any of that name.
    QTextStream stream(stdout);
    for (const QString& file : render::proposalReportFiles(out))
        stream << "Wrote " << file << '\n';
    return kExitOk;
}

} // namespace gpuplan::cli

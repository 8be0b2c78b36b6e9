// gpuplan-cli budget: what buying a machine or renting the same work costs in each year of a
// grant, in the sponsor's categories, and (--justification) the budget justification to paste
// into a proposal.

#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/cli/grant_options.h"
#include "app/cli/scenario_options.h"
#include "app/cli/text_table.h"
#include "app/common/budget_table.h"
#include "app/common/format.h"
#include "app/common/results_json.h"
#include "app/render/budget_justification.h"

#include <QJsonDocument>
#include <QTextStream>

namespace gpuplan::cli {

int runBudget(const QStringList& arguments)
{
    const QString command = QStringLiteral("budget");
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "A grant budget by year for buying a machine (--machine) or renting (--offer): "
        "equipment, electricity, owning costs, computing services and indirect costs under a "
        "sponsor's rules; with --justification, the budget justification as .odt, .md or .txt."));
    p.addOption({ QStringLiteral("machine"),
        QStringLiteral("The machine to buy, COUNTxGPU_ID, e.g. 8xa100-80gb-sxm (default: the "
                       "recommended one, else the cheapest per experiment of those that run "
                       "within their GPUs' peak and that an offer rents)."),
        QStringLiteral("NxGPU") });
    addGrantOptions(p);
    p.addOption({ QStringLiteral("justification"),
        QStringLiteral("Also write the budget justification to FILE (.odt, .md or .txt)."),
        QStringLiteral("FILE") });
    addScenarioOptions(p);
    addDataOptions(p);
    addFormatOption(p);
    int exitCode = kExitOk;
    if (!parse(p, arguments, command, &exitCode))
        return exitCode;
    if (!p.isSet(QStringLiteral("model")))
        return fail(command, QStringLiteral("--model is required (see 'gpuplan-cli list models')"));
    QString error;
    const auto format = formatOption(p, &error);
    if (!format)
        return fail(command, error);

    const auto catalog = loadCatalog(p, command);
    if (!catalog)
        return kExitUsage;
    const auto planned = planFromOptions(p, catalog, &error);
    if (!planned)
        return fail(command, error);
    const Results& r = planned->results;
    const auto grant = grantFromOptions(p, *catalog, r, &error);
    if (!grant)
        return fail(command, error);
    const GrantBudget budget = grantBudget(r, grant->target, grant->plan, *grant->sponsor);

    if (p.isSet(QStringLiteral("justification"))) {
        const auto text
            = render::budgetJustification(r, grant->target, grant->plan, *grant->sponsor, budget);
        if (!render::writeJustification(text, p.value(QStringLiteral("justification")), &error))
            return fail(command, error);
    }

    QTextStream out(stdout);
    switch (*format) {
    case OutputFormat::Json:
        out << QJsonDocument(views::versioned(views::budgetJson(
                                 r, grant->target, grant->plan, *grant->sponsor, budget)))
                   .toJson(QJsonDocument::Indented);
        break;
    case OutputFormat::Csv: {
        out << views::budgetCsv(grant->plan, budget);
        // CSV rows hold numbers only; the notes go where a script's reader sees them.
        QTextStream err(stderr);
        for (const QString& note :
            views::budgetNotes(r.assumptions.indirectRate, *grant->sponsor, budget))
            err << note << '\n';
        break;
    }
    case OutputFormat::Table: {
        out << "Grant budget for " << QString::fromStdString(r.workload->name) << ": "
            << views::budgetTargetLabel(r, grant->target, &budget) << '\n'
            << "Sponsor: " << QString::fromStdString(grant->sponsor->name) << '\n';
        // The rules' caveats, which a PI acts on (whether electricity may be charged directly).
        if (!grant->sponsor->source.note.empty())
            out << "Sponsor's note: " << QString::fromStdString(grant->sponsor->source.note)
                << ".\n";
        out << '\n';
        const views::BudgetTable table = views::budgetTable(r, grant->target, grant->plan, budget);
        std::vector<bool> right(static_cast<std::size_t>(table.header.size()), true);
        right.front() = false;
        TextTable text(table.header, right);
        for (const auto& row : table.rows)
            text.addRow(row);
        text.print(out);
        const QStringList notes
            = views::budgetNotes(r.assumptions.indirectRate, *grant->sponsor, budget);
        for (const QString& note : notes)
            out << '\n' << note;
        if (!notes.isEmpty())
            out << '\n';
        break;
    }
    }
    return kExitOk;
}

} // namespace gpuplan::cli

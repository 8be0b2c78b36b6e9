// gpuplan-cli plan: every machine to buy and every way to rent, for one model.

#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/cli/scenario_options.h"
#include "app/cli/text_table.h"
#include "app/common/budget_table.h"
#include "app/common/cloud_columns.h"
#include "app/common/format.h"
#include "app/common/option_columns.h"
#include "app/common/results_csv.h"
#include "app/common/results_json.h"
#include "app/common/wording.h"
#include "app/render/buy_vs_rent_chart.h"
#include "core/costing/plan.h"
#include "core/evaluate.h"

#include <QJsonDocument>
#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <set>

namespace gpuplan::cli {

namespace {

const QString kCommand = QStringLiteral("plan");

void addPlanOptions(QCommandLineParser& p)
{
    p.setApplicationDescription(QStringLiteral(
        "Training time and cost of every machine to buy and every cloud offer to rent, for one "
        "model. Costs follow the paper: machine = chassis + n x GPU; per experiment = lifetime "
        "cost x days / (years x 365 x utilisation), the lifetime cost being the machine's price "
        "(less any resale value, with any hosting, support and staff costs over its life)."));
    addScenarioOptions(p);
    p.addOption({ QStringLiteral("csv-table"),
        QStringLiteral("With --format csv: options (default) or cloud."), QStringLiteral("TABLE"),
        QStringLiteral("options") });
    addDataOptions(p);
    addFormatOption(p);
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
    // The buy total is everything owning costs for the project (core ownedPlan), net of resale
    // as the break-even counts it: the running costs too, where any are set.
    bool runningCosts = false;
    bool resale = false;
    for (const auto& o : r.options) {
        runningCosts = runningCosts || o.owning.monthlyUsd > 0.0;
        resale = resale || o.owning.resaleUsd > 0.0;
    }
    out << "\nProject of " << runs << (runs == 1 ? " run" : " runs") << ": buying ("
        << (resale ? "machine less its resale value" : "machine")
        << (runningCosts ? ", electricity and running costs: hosting, machine room, "
                           "support, staff"
                         : " + electricity")
        << ") against the cheapest way to rent the same GPUs\n\n";
    TextTable plan({ QStringLiteral("Machine"), QStringLiteral("Buy total"),
                       QStringLiteral("Rent total"), QStringLiteral("Days back to back"),
                       QStringLiteral("Break-even runs"), QStringLiteral("Break-even months") },
        { false, true, true, true, true, true });
    bool pastLife = false;
    bool planPastLife = false;
    for (const auto& o : r.options) {
        const auto* rent = o.cheapestCloudIndex ? &r.cloud[*o.cheapestCloudIndex] : nullptr;
        const bool rowPastLife = o.breakEvenMonths && !o.breakEvenWithinLifespan;
        pastLife = pastLife || rowPastLife;
        // The same rule as the plan verdict (JSON, report, GUI): the runs at the run rate.
        const bool runsPastLife = planOutlastsLife(runs, o.runsPerMonth, r.assumptions);
        planPastLife = planPastLife || runsPastLife;
        plan.addRow({ views::formatMachine(o.gpuCount, QString::fromStdString(o.gpu->name)),
            views::formatUsd(o.planTotalUsd)
                + (runsPastLife ? QStringLiteral(" (past life)") : QString()),
            rent ? views::formatUsd(rent->planTotalUsd) : QStringLiteral("no offer"),
            QString::number(o.planCalendarDays, 'f', 0),
            o.breakEvenRuns ? QString::number(*o.breakEvenRuns, 'f', 1)
                            : (rent ? QStringLiteral("never") : QString()),
            o.breakEvenMonths ? QString::number(*o.breakEvenMonths, 'f', 1)
                    + (rowPastLife ? QStringLiteral(" (past life)") : QString())
                              : QString() });
    }
    plan.print(out);
    if (pastLife)
        out << "Past life: at " << render::runRateText(r.assumptions.runsPerMonth)
            << " (fewer where a machine cannot fit them), the break-even comes after the "
               "machine's "
            << r.assumptions.amortizationYears
            << "-year life: it is retired before buying pays off.\n";
    if (planPastLife)
        out << "Buy total past life: at " << render::runRateText(r.assumptions.runsPerMonth)
            << " (fewer where a machine cannot fit them), "
            << (runs == 1 ? QStringLiteral("the run takes")
                          : QStringLiteral("the %1 runs take").arg(runs))
            << " longer than the machine's " << r.assumptions.amortizationYears
            << "-year life; the total counts one machine.\n";
}

// With --samples: each machine's p10 / p50 / p90 over the sampled inputs, which the help
// promised and only the JSON had (review).
void printSamples(QTextStream& out, const Results& r)
{
    if (!r.monteCarlo || r.options.empty())
        return;
    const MonteCarloSummary& mc = *r.monteCarlo;
    out << "\nMonte Carlo over every input's range (" << mc.samples << " samples, seed " << mc.seed
        << "): p10 / p50 / p90\n\n";
    const auto triple = [](const Percentiles& p, const auto& format) {
        return format(p.p10) + QStringLiteral(" / ") + format(p.p50) + QStringLiteral(" / ")
            + format(p.p90);
    };
    const auto days = [](double d) { return QString::number(d, 'f', 1); };
    const auto usd = [](double v) { return views::formatUsd(v); };
    const auto runs = [](double v) {
        return std::isfinite(v) ? QString::number(v, 'f', 1) : QStringLiteral("never");
    };
    // The costs' header says "(with F&A)" as the main table's does; the share a machine is
    // recommended only where a budget or deadline recommends one (else every share is 0%).
    // Shares as precise as two decimals of a percent: 0.995 is not "100%" that it pays off.
    const bool recommends = r.recommendationRule != RecommendationRule::None;
    QStringList headers { QStringLiteral("Machine"), QStringLiteral("Training days"),
        views::displayHeader(views::OptionColumn::ExperimentCost, r),
        QStringLiteral("Break-even runs"), QStringLiteral("Pays off") };
    if (recommends)
        headers << QStringLiteral("Recommended");
    std::vector<bool> rightAligned(static_cast<std::size_t>(headers.size()), true);
    rightAligned.front() = false;
    TextTable table(headers, rightAligned);
    for (std::size_t i = 0; i < r.options.size() && i < mc.options.size(); ++i) {
        const OwnedOption& o = r.options[i];
        const OptionSamples& s = mc.options[i];
        QStringList row { views::formatMachine(o.gpuCount, QString::fromStdString(o.gpu->name)),
            triple(s.trainingDays, days), triple(s.experimentCostUsd, usd),
            o.cheapestCloudIndex ? triple(s.breakEvenRuns, runs) : QStringLiteral("no offer"),
            o.cheapestCloudIndex ? views::formatRate(s.paysOffShare) : QString() };
        if (recommends)
            row << views::formatRate(mc.recommendedShare[i]);
        table.addRow(row);
    }
    table.print(out);
}

void printTable(QTextStream& out, const Results& r)
{
    out << QString::fromStdString(r.workload->name) << ": training time and cost per machine"
        << " (source: " << views::toQString(toString(r.source)) << "; "
        << views::priceSetLabel(r.priceSet) << "; amortised over "
        << r.assumptions.amortizationYears << " years at "
        << views::formatPercent(r.assumptions.machineUtilization) << " use)\n";
    // Every cost below counts F&A where these rules put it: say which.
    if (const QString fa = views::indirectScopeText(r.indirectRules, r.assumptions.indirectRate);
        !fa.isEmpty())
        out << fa << '\n';
    out << '\n';

    // Nothing to buy: said first, not after an empty table and a hundred "Not available" lines.
    if (r.options.empty()) {
        QString text = QStringLiteral("no machine to buy");
        for (const auto& w : r.warnings)
            if (w.kind == Warning::Kind::NoEstimateForAnyMachine)
                text = views::warningText(w, r.source);
        text[0] = text[0].toUpper();
        out << text << " (each machine left out is listed below, with the reason).\n";
    } else {
        QStringList headers;
        for (int c = 0; c < views::kOptionColumnCount; ++c)
            headers << views::displayHeader(static_cast<views::OptionColumn>(c), r);
        TextTable owned(
            headers, { false, true, true, false, true, true, true, true, false, false });
        addRows<views::OptionColumn>(owned, r.options, views::kOptionColumnCount);
        owned.print(out);
    }

    out << '\n';
    if (r.recommended) {
        const auto& o = r.options[*r.recommended];
        out << "Recommended: "
            << views::formatMachine(o.gpuCount, QString::fromStdString(o.gpu->name)) << " - "
            << views::recommendationReason(r) << ": " << views::formatDays(o.estimate.days) << ", "
            << views::formatUsd(o.machineCostUsd) << " machine, "
            << views::formatUsd(o.experimentCostUsd) << " per experiment.\n";
        if (const QString caution = views::recommendationCaution(o); !caution.isEmpty())
            out << "  " << caution << '\n';
        if (const QString note = views::recommendationRangeNote(r); !note.isEmpty())
            out << "  " << note << '\n';
        if (r.hasRanges)
            out << "  Ranges: " << QString::number(o.daysRange.low, 'f', 1) << " to "
                << QString::number(o.daysRange.high, 'f', 1) << " days, "
                << views::formatUsd(o.experimentCostRange.low) << " to "
                << views::formatUsd(o.experimentCostRange.high) << " per experiment"
                << (o.cheapestCloudIndex ? "; against renting it "
                               + views::breakEvenRangeText(o.breakEvenRunsRange)
                                         : QString())
                << ".\n";
    } else if (const QString why = views::recommendationReason(r); !why.isEmpty()) {
        out << "Recommended: none - " << why << ".\n";
    }
    if (const QString aside = views::recommendationSetAside(r); !aside.isEmpty())
        out << "  " << aside << ".\n";
    if (const QString robust = views::robustnessText(r); !robust.isEmpty())
        out << "Robustness: " << robust << " (" << r.monteCarlo->samples << " samples, seed "
            << r.monteCarlo->seed << ").\n";
    printSamples(out, r);
    if (!r.options.empty())
        printProjectPlan(out, r);
    for (const auto& u : r.unavailable)
        out << "Not available: " << u.gpuCount << "x " << QString::fromStdString(u.gpuId) << " ("
            << views::unavailableReason(u, r.source) << ")\n";
    if (const QString untimed = views::untimedOffersSummary(r); !untimed.isEmpty())
        out << "Not rented: " << untimed << "\n";

    if (!r.cloud.empty()) {
        std::vector<CloudOption> cloud = r.cloud;
        const int runs = r.assumptions.plannedRuns;
        std::stable_sort(cloud.begin(), cloud.end(), [runs](const auto& a, const auto& b) {
            return views::rankingCostPerRunUsd(a, runs) < views::rankingCostPerRunUsd(b, runs);
        });
        out << "\nRenting the same work (cheapest per run first; a reservation by its whole "
               "terms for the plan):\n\n";
        QStringList cloudHeaders;
        for (int c = 0; c < views::kCloudColumnCount; ++c)
            cloudHeaders << views::displayHeader(static_cast<views::CloudColumn>(c), &r);
        TextTable rent(cloudHeaders,
            { false, false, false, true, true, true, true, true, true, true, true, false, false });
        addRows<views::CloudColumn>(rent, cloud, views::kCloudColumnCount);
        rent.print(out);
        bool heading = false;
        for (const auto& c : r.cloud)
            for (const auto& m : c.commitments) {
                if (!heading)
                    out << "\nReserved rates: a term is paid whether runs use it or not\n";
                heading = true;
                out << "  " << QString::fromStdString(c.offer->provider) << ' '
                    << views::formatMachine(c.gpuCount, QString::fromStdString(c.gpu->name)) << ": "
                    << views::commitmentVerdict(m, r.assumptions.plannedRuns) << '\n';
            }
    }

    std::set<EstimateFlag> flagsShown;
    for (const auto& o : r.options)
        flagsShown.insert(o.estimate.flags.begin(), o.estimate.flags.end());
    for (const auto& c : r.cloud)
        flagsShown.insert(c.estimate.flags.begin(), c.estimate.flags.end());
    const QString stale = views::stalePriceNote(r);
    if (!flagsShown.empty() || !stale.isEmpty())
        out << "\nFlags:\n";
    for (auto flag : flagsShown)
        out << "  " << views::toQString(label(flag)) << ": " << views::toQString(describe(flag))
            << '\n';
    if (!stale.isEmpty())
        // The rows name the part ("stale chassis price", "stale GPU and chassis prices").
        out << "  " << views::stalePriceLabel()
            << " (of the GPU, system, chassis or rate named): " << stale << '\n';
    for (const auto& w : r.warnings)
        if (w.kind != Warning::Kind::NoEstimateForAnyMachine) // said at the top
            out << "Warning: " << views::warningText(w, r.source) << '\n';
}

} // namespace

int runPlan(const QStringList& arguments)
{
    QCommandLineParser p;
    addPlanOptions(p);
    int exitCode = kExitOk;
    if (!parse(p, arguments, kCommand, &exitCode))
        return exitCode;
    if (!p.isSet(QStringLiteral("model")))
        return fail(
            kCommand, QStringLiteral("--model is required (see 'gpuplan-cli list models')"));

    QString error;
    const auto format = formatOption(p, &error);
    if (!format)
        return fail(kCommand, error);
    const QString csvTable = p.value(QStringLiteral("csv-table"));
    if (csvTable != QLatin1String("options") && csvTable != QLatin1String("cloud"))
        return fail(kCommand, "--csv-table must be options or cloud, not '" + csvTable + "'");
    if (p.isSet(QStringLiteral("csv-table")) && *format != OutputFormat::Csv)
        return fail(kCommand, QStringLiteral("--csv-table chooses the table of --format csv"));

    const auto catalog = loadCatalog(p, kCommand);
    if (!catalog)
        return kExitUsage;
    const auto scenario = scenarioFromOptions(p, catalog, &error);
    if (!scenario)
        return fail(kCommand, error);

    const Results results = evaluate(*scenario);
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

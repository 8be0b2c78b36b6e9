// gpuplan-cli breakeven: after how many runs does buying a machine beat renting? From figures
// the user has at hand, through core's break-even rule (the one `plan` applies per option), so
// that both agree given the same inputs.

#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/cli/scenario_options.h"
#include "app/common/budget_table.h"
#include "app/common/format.h"
#include "app/common/results_json.h"
#include "app/render/buy_vs_rent_chart.h"
#include "core/costing/break_even.h"
#include "core/costing/calendar.h"
#include "core/costing/indirect.h"
#include "core/costing/plan.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QTextStream>

namespace gpuplan::cli {

namespace {

const QString kCommand = QStringLiteral("breakeven");

// The assumptions breakeven has options for, and takes from the price tables.
constexpr AssumptionId kTakenAssumptions[]
    = { AssumptionId::ElectricityUsdPerKwh, AssumptionId::Pue, AssumptionId::IndirectRate,
          AssumptionId::AmortizationYears, AssumptionId::RunsPerMonth };

// An option bounded and described by the assumption table.
void addAssumptionOption(QCommandLineParser& p, AssumptionId id, const QString& defaultText)
{
    const AssumptionSpec& spec = assumptionSpec(id);
    p.addOption({ views::toQString(spec.option),
        QStringLiteral("%1 (%2, %3 to %4; default %5).")
            .arg(views::toQString(spec.help).chopped(1), views::toQString(unitName(spec.unit)))
            .arg(spec.bounds.min)
            .arg(spec.bounds.max)
            .arg(defaultText),
        QStringLiteral("X") });
}

} // namespace

int runBreakeven(const QStringList& arguments)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Runs after which buying beats renting: hardware cost / (cloud cost per run - "
        "electricity per run), each with F&A where the sponsor's rules put it, with the "
        "planner's rules and its defaults for the options below (the price tables', --prices "
        "included): electricity at the machine's draw x PUE, months at the run rate (and back "
        "to back). No owning costs or resale, the machine in use all the time."));
    p.addOption({ QStringLiteral("hardware-cost"), QStringLiteral("Machine price in USD."),
        QStringLiteral("USD") });
    p.addOption({ QStringLiteral("cloud-rate"),
        QStringLiteral("Cloud price in USD per hour for the same GPUs."),
        QStringLiteral("USD_PER_HOUR") });
    p.addOption({ QStringLiteral("hours-per-run"), QStringLiteral("Length of one run in hours."),
        QStringLiteral("H") });
    p.addOption({ QStringLiteral("power-kw"),
        QStringLiteral("Power the owned machine draws while training, before PUE (default 0; "
                       "plan's JSON power_kw includes PUE: divide it by the pue)."),
        QStringLiteral("KW") });
    for (AssumptionId id : kTakenAssumptions)
        addAssumptionOption(p, id,
            QStringLiteral("the price tables', built in %1")
                .arg(assumptionValue(Assumptions {}, id)));
    addSponsorOption(p);
    addDataOptions(p, ResultFiles::Ignored);
    p.addOption({ QStringLiteral("format"), QStringLiteral("table (default) or json."),
        QStringLiteral("FORMAT"), QStringLiteral("table") });
    int exitCode = kExitOk;
    if (!parse(p, arguments, kCommand, &exitCode))
        return exitCode;

    const QString format = p.value(QStringLiteral("format"));
    if (format != QLatin1String("table") && format != QLatin1String("json"))
        return fail(kCommand, "--format must be table or json, not '" + format + "'");
    for (const char* required : { "hardware-cost", "cloud-rate", "hours-per-run" })
        if (!p.isSet(QString::fromLatin1(required)))
            return fail(kCommand, QStringLiteral("--%1 is required").arg(QLatin1String(required)));

    QString error;
    auto number = [&](const QString& name, Bounds bounds, double fallbackValue) {
        if (!error.isEmpty())
            return fallbackValue;
        return numberOption(p, name, bounds, &error).value_or(fallbackValue);
    };
    BreakEvenInput in;
    // The price tables' bounds (core/limits.h): a machine for $0 "paid off after 0.0 runs",
    // and 9,000 kW passed where a price table stops at 100 kW.
    in.hardwareCostUsd = number(QStringLiteral("hardware-cost"), limits::kPriceUsd.bounds, 0.0);
    in.cloudUsdPerHour = number(QStringLiteral("cloud-rate"), limits::kHourlyUsd.bounds, 0.0);
    in.hoursPerRun = number(QStringLiteral("hours-per-run"),
        { 0.001, limits::kTrainingDays.bounds.max * calendar::kHoursPerDay, true }, 0.0);
    in.itPowerKw
        = number(QStringLiteral("power-kw"), { 0.0, limits::kPowerWatts.bounds.max / 1000.0 }, 0.0);
    if (!error.isEmpty()) // before the tables: the figures typed are the first thing to fix
        return fail(kCommand, error);
    // The planner's defaults for the assumptions this command takes: the price tables', a
    // user's prices files included. The rest stay built in (no owning costs, the machine in
    // use all the time): figures at hand, not the tables' machines.
    const auto catalog = loadCatalog(p, kCommand, ResultFiles::Ignored);
    if (!catalog)
        return kExitUsage;
    Assumptions a;
    for (AssumptionId id : kTakenAssumptions) {
        const AssumptionSpec& spec = assumptionSpec(id);
        setAssumptionValue(a, id,
            number(views::toQString(spec.option), spec.bounds,
                assumptionValue(catalog->defaults, id)));
    }
    if (!error.isEmpty())
        return fail(kCommand, error);
    if (runOutlastsLife(in.hoursPerRun / calendar::kHoursPerDay, a))
        return fail(kCommand,
            QStringLiteral("a run of %1 hours outlasts the machine's %2-year life (%3 hours)")
                .arg(QLocale(QLocale::English).toString(in.hoursPerRun, 'f', 0))
                .arg(a.amortizationYears)
                .arg(QLocale(QLocale::English)
                         .toString(lifeDays(a) * calendar::kHoursPerDay, 'f', 0)));

    const auto sponsorId = sponsorOption(p, *catalog, &error);
    if (!sponsorId)
        return fail(kCommand, error);
    const SponsorRules* sponsor = catalog->findSponsor(*sponsorId);
    const SponsorRules rules = sponsor ? *sponsor : cloudSpendOnlyRules();
    const BreakEven result = breakEven(in, a, rules);
    QTextStream out(stdout);
    if (format == QLatin1String("json")) {
        auto optional = [](const std::optional<double>& v) {
            return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
        };
        const QJsonObject json = views::versioned({
            { QStringLiteral("break_even_runs"), optional(result.runs) },
            { QStringLiteral("break_even_months_continuous"), optional(result.monthsContinuous) },
            { QStringLiteral("break_even_within_lifespan"), result.withinLifespan },
            { QStringLiteral("runs_per_month"), result.runsPerMonth },
            { QStringLiteral("break_even_months"), optional(result.monthsAtRunRate) },
            { QStringLiteral("break_even_months_within_lifespan"),
                result.monthsAtRunRate ? QJsonValue(result.withinLifespanAtRunRate)
                                       : QJsonValue(QJsonValue::Null) },
            { QStringLiteral("cloud_cost_per_run_usd"), result.cloudCostPerRunUsd },
            { QStringLiteral("energy_cost_per_run_usd"), result.energyCostPerRunUsd },
            { QStringLiteral("experiment_cost_usd"), result.experimentCostUsd },
            { QStringLiteral("hardware_cost_usd"), in.hardwareCostUsd },
            { QStringLiteral("capex_usd"), result.purchaseUsd },
            { QStringLiteral("hours_per_run"), in.hoursPerRun },
            { QStringLiteral("pue"), a.pue },
            { QStringLiteral("indirect_rate"), a.indirectRate },
            { QStringLiteral("sponsor"), QString::fromStdString(*sponsorId) },
            { QStringLiteral("electricity_usd_per_kwh"), a.electricityUsdPerKwh },
            { QStringLiteral("amortization_years"), a.amortizationYears },
        });
        out << QJsonDocument(json).toJson(QJsonDocument::Indented);
        return kExitOk;
    }
    // The machine as the break-even weighs it: where the sponsor's rules put it in the F&A base
    // (supplies), that is more than its price; the JSON's capex_usd.
    out << "Machine cost:         " << views::formatUsd(in.hardwareCostUsd);
    if (result.purchaseUsd != in.hardwareCostUsd)
        out << ", " << views::formatUsd(result.purchaseUsd) << " with F&A";
    out << '\n'
        << "Cloud cost per run:   " << views::formatUsd(result.cloudCostPerRunUsd) << '\n'
        << "Energy cost per run:  " << views::formatUsd(result.energyCostPerRunUsd) << '\n'
        << "Machine's share of a run over "
        << views::formatQuantity(a.amortizationYears, Unit::Years) << ": "
        << views::formatUsd(result.experimentCostUsd) << '\n';
    if (const QString fa = views::indirectScopeText(rules, a.indirectRate); !fa.isEmpty())
        out << fa << ".\n";
    if (result.runs && result.monthsContinuous && result.monthsAtRunRate)
        out << "Buying pays off after " << QString::number(*result.runs, 'f', 1)
            << " runs: " << QString::number(*result.monthsAtRunRate, 'f', 1) << " months at "
            << render::runRateText(result.runsPerMonth)
            << (result.withinLifespanAtRunRate ? ", within" : ", past") << " the machine's "
            << a.amortizationYears << "-year life ("
            << QString::number(*result.monthsContinuous, 'f', 1) << " months of back-to-back runs"
            << (result.withinLifespan ? ", within" : ", past") << " it).\n";
    else
        out << "Buying never pays off: renting costs no more per run than the electricity of "
               "owning.\n";
    return kExitOk;
}

} // namespace gpuplan::cli

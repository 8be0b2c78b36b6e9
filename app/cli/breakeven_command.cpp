// gpuplan-cli breakeven: after how many runs does buying a machine beat renting?

#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/common/format.h"
#include "core/costing.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace gpuplan::cli {

namespace {
const QString kCommand = QStringLiteral("breakeven");
constexpr double kHoursPerMonth = 730.0; // 8,760 h / 12
} // namespace

int runBreakeven(const QStringList& arguments)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Runs after which buying beats renting: hardware cost / (cloud cost per run - "
        "electricity per run)."));
    p.addOption({ QStringLiteral("hardware-cost"), QStringLiteral("Machine price in USD."),
        QStringLiteral("USD") });
    p.addOption({ QStringLiteral("cloud-rate"),
        QStringLiteral("Cloud price in USD per hour for the same GPUs."),
        QStringLiteral("USD_PER_HOUR") });
    p.addOption({ QStringLiteral("hours-per-run"), QStringLiteral("Length of one run in hours."),
        QStringLiteral("H") });
    p.addOption({ QStringLiteral("power-kw"),
        QStringLiteral("Power the owned machine draws while training (default 0)."),
        QStringLiteral("KW") });
    p.addOption({ QStringLiteral("electricity-price"),
        QStringLiteral("USD per kWh (default 0.13, the shipped assumption)."),
        QStringLiteral("USD_PER_KWH") });
    p.addOption({ QStringLiteral("format"), QStringLiteral("table (default) or json."),
        QStringLiteral("FORMAT"), QStringLiteral("table") });
    int exitCode = kExitOk;
    if (!parse(p, arguments, kCommand, &exitCode))
        return exitCode;
    if (!p.positionalArguments().isEmpty())
        return fail(kCommand, "unexpected argument '" + p.positionalArguments().first() + "'");

    const QString format = p.value(QStringLiteral("format"));
    if (format != QLatin1String("table") && format != QLatin1String("json"))
        return fail(kCommand, "--format must be table or json, not '" + format + "'");
    for (const char* required : { "hardware-cost", "cloud-rate", "hours-per-run" })
        if (!p.isSet(QString::fromLatin1(required)))
            return fail(kCommand, QStringLiteral("--%1 is required").arg(QLatin1String(required)));

    QString error;
    auto number = [&](const char* name, double min, double max, double fallback) {
        if (!error.isEmpty())
            return fallback;
        return numberOption(p, QString::fromLatin1(name), min, max, &error).value_or(fallback);
    };
    const double hardwareCost = number("hardware-cost", 0.0, 1e10, 0.0);
    const double cloudRate = number("cloud-rate", 0.0, 1e5, 0.0);
    const double hours = number("hours-per-run", 0.001, 1e6, 0.0);
    const double powerKw = number("power-kw", 0.0, 1e4, 0.0);
    // Matches pricing/data/assumptions.yaml; the CLI's breakeven works without the tables.
    const double electricityPrice = number("electricity-price", 0.0, 10.0, 0.13);
    if (!error.isEmpty())
        return fail(kCommand, error);

    const double cloudPerRun = cloudRate * hours;
    const double energyPerRun = powerKw * hours * electricityPrice;
    const auto runs = breakEvenRuns(hardwareCost, cloudPerRun, energyPerRun);
    std::optional<double> months;
    if (runs)
        months = *runs * hours / kHoursPerMonth;

    QTextStream out(stdout);
    if (format == QLatin1String("json")) {
        auto optional = [](const std::optional<double>& v) {
            return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
        };
        const QJsonObject json {
            { QStringLiteral("break_even_runs"), optional(runs) },
            { QStringLiteral("break_even_months_continuous"), optional(months) },
            { QStringLiteral("cloud_cost_per_run_usd"), cloudPerRun },
            { QStringLiteral("energy_cost_per_run_usd"), energyPerRun },
            { QStringLiteral("hardware_cost_usd"), hardwareCost },
            { QStringLiteral("hours_per_run"), hours },
        };
        out << QJsonDocument(json).toJson(QJsonDocument::Indented);
        return kExitOk;
    }
    out << "Cloud cost per run:   " << views::formatUsd(cloudPerRun) << '\n'
        << "Energy cost per run:  " << views::formatUsd(energyPerRun) << '\n';
    if (runs && months)
        out << "Buying pays off after " << QString::number(*runs, 'f', 1) << " runs ("
            << QString::number(*months, 'f', 1) << " months of continuous training).\n";
    else
        out << "Buying never pays off: renting costs no more per run than the electricity of "
               "owning.\n";
    return kExitOk;
}

} // namespace gpuplan::cli

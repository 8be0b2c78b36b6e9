#include "app/cli/cli_support.h"

#include "app/common/user_data.h"
#include "pricing/catalog_loader.h"
#include "pricing/measured_results.h"

#include <QCoreApplication>
#include <QTextStream>

#include <cmath>

namespace gpuplan::cli {

int fail(const QString& command, const QString& message)
{
    QTextStream(stderr) << "gpuplan-cli " << command << ": error: " << message << '\n';
    return kExitUsage;
}

namespace {

QString defaultPriceSet()
{
    return QString::fromLatin1(
        kDefaultPriceSet.data(), static_cast<qsizetype>(kDefaultPriceSet.size()));
}

} // namespace

void addDataOptions(QCommandLineParser& parser, ResultFiles results)
{
    parser.addOption({ QStringLiteral("price-set"),
        QStringLiteral("Shipped prices to start from: ") + QString::fromStdString(priceSetChoices())
            + QStringLiteral(" (default ") + defaultPriceSet()
            + QStringLiteral("; 'paper' is the paper's prices of 2024-09-21)."),
        QStringLiteral("SET"), defaultPriceSet() });
    parser.addOption({ QStringLiteral("prices"),
        QStringLiteral("Price table layered over the defaults (repeatable)."),
        QStringLiteral("FILE") });
    if (results == ResultFiles::Read)
        parser.addOption({ QStringLiteral("results"),
            QStringLiteral("gpuplan-bench results file, the 'measured' source "
                           "(repeatable)."),
            QStringLiteral("FILE") });
    parser.addOption({ QStringLiteral("no-user-data"),
        (results == ResultFiles::Read ? QStringLiteral("Ignore the price tables and results in ")
                                      : QStringLiteral("Ignore the price tables in "))
            + views::userDataDir() + QLatin1Char('.') });
}

void addFormatOption(QCommandLineParser& parser)
{
    parser.addOption({ QStringLiteral("format"), QStringLiteral("table (default), json or csv."),
        QStringLiteral("FORMAT"), QStringLiteral("table") });
}

bool parse(QCommandLineParser& parser, const QStringList& arguments, const QString& command,
    int* exitCode, Positionals positionals)
{
    const QCommandLineOption help(
        { QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Show this help."));
    const QCommandLineOption version(
        QStringLiteral("version"), QStringLiteral("Show gpuplan-cli's version."));
    parser.addOption(help);
    parser.addOption(version);
    if (!parser.parse(arguments)) {
        *exitCode = fail(command, parser.errorText());
        return false;
    }
    // An option given twice with two values is refused: the last would win silently, and a
    // script that sets --years in two places would plan with the one it did not mean.
    // --prices, --results and --aliases add files, one per use.
    static const QStringList kRepeatable { QStringLiteral("prices"), QStringLiteral("results"),
        QStringLiteral("aliases") };
    for (const QString& name : parser.optionNames()) {
        if (kRepeatable.contains(name))
            continue;
        QStringList values = parser.values(name);
        values.removeDuplicates();
        if (values.size() > 1) {
            *exitCode = fail(command,
                QStringLiteral("--%1 is given %2 times (%3): give it once")
                    .arg(name)
                    .arg(parser.values(name).size())
                    .arg(parser.values(name).join(QStringLiteral(", "))));
            return false;
        }
    }
    if (parser.isSet(version)) {
        QTextStream(stdout) << "gpuplan-cli " << QCoreApplication::applicationVersion() << '\n';
        *exitCode = kExitOk;
        return false;
    }
    if (parser.isSet(help)) {
        QTextStream(stdout) << parser.helpText().replace(
            QStringLiteral("[options]"), command + QStringLiteral(" [options]"));
        *exitCode = kExitOk;
        return false;
    }
    if (positionals == Positionals::None && !parser.positionalArguments().isEmpty()) {
        *exitCode
            = fail(command, "unexpected argument '" + parser.positionalArguments().first() + "'");
        return false;
    }
    return true;
}

std::optional<OutputFormat> formatOption(const QCommandLineParser& parser, QString* error)
{
    const QString format = parser.value(QStringLiteral("format"));
    if (format == QLatin1String("table"))
        return OutputFormat::Table;
    if (format == QLatin1String("json"))
        return OutputFormat::Json;
    if (format == QLatin1String("csv"))
        return OutputFormat::Csv;
    *error = "--format must be table, json or csv, not '" + format + "'";
    return std::nullopt;
}

std::optional<double> numberOption(
    const QCommandLineParser& parser, const QString& name, double min, double max, QString* error)
{
    error->clear();
    if (!parser.isSet(name))
        return std::nullopt;
    const QString text = parser.value(name);
    bool ok = false;
    const double value = text.toDouble(&ok);
    if (!ok || !std::isfinite(value)) {
        *error = "--" + name + ": '" + text + "' is not a number";
        return std::nullopt;
    }
    if (value < min || value > max) {
        *error = "--" + name + ": " + text + " is outside " + QString::number(min) + " to "
            + QString::number(max);
        return std::nullopt;
    }
    return value;
}

std::optional<double> numberOption(
    const QCommandLineParser& parser, const QString& name, const Bounds& bounds, QString* error)
{
    const auto value = numberOption(parser, name, bounds.min, bounds.max, error);
    if (value && !bounds.contains(*value)) {
        *error = "--" + name + ": " + parser.value(name) + " must be more than 0";
        return std::nullopt;
    }
    return value;
}

std::shared_ptr<const Catalog> loadCatalog(
    const QCommandLineParser& parser, const QString& command, ResultFiles resultFiles)
{
    const QString priceSet = parser.value(QStringLiteral("price-set"));
    if (!isPriceSet(priceSet.toStdString())) {
        fail(command,
            "--price-set must be " + QString::fromStdString(priceSetChoices()) + ", not '"
                + priceSet + "'");
        return nullptr;
    }
    std::vector<std::string> paths;
    if (!parser.isSet(QStringLiteral("no-user-data")))
        for (const auto& file : views::userPriceFiles(priceSet))
            paths.push_back(file.toStdString());
    for (const auto& file : parser.values(QStringLiteral("prices")))
        paths.push_back(file.toStdString());

    std::vector<std::string> results;
    if (resultFiles == ResultFiles::Read) {
        if (!parser.isSet(QStringLiteral("no-user-data")))
            for (const auto& file : views::userResultFiles())
                results.push_back(file.toStdString());
        for (const auto& file : parser.values(QStringLiteral("results")))
            results.push_back(file.toStdString());
    }

    CatalogLoad load = loadPlannerCatalog(paths, results, priceSet.toStdString());
    {
        // Flushed here, so that the summary below follows the issues it summarises.
        QTextStream err(stderr);
        for (const auto& issue : load.issues)
            err << QString::fromStdString(issue.toString()) << '\n';
    }
    if (!load.ok()) {
        fail(command,
            QStringLiteral("the price tables or results files have errors (listed above)"));
        return nullptr;
    }
    return load.catalog;
}

} // namespace gpuplan::cli

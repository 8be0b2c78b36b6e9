// gpuplan-cli import-prices: a public cloud catalog (SkyPilot vms.csv, dstack gpuhunt CSV) as a
// user price file of cloud offers, with a summary of every row kept or dropped. All the work is
// pricing/catalog_import's; this file reads the options, checks the result with the planner's
// loader, writes it without overwriting anything, and prints the summary.

#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/common/results_json.h"
#include "app/common/unique_file_store.h"
#include "app/common/user_data.h"
#include "pricing/catalog_import/catalog_file.h"
#include "pricing/catalog_import/catalog_import.h"
#include "pricing/catalog_import/embedded_data.h"
#include "pricing/catalog_import/imported_table.h"

#include <QDate>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace gpuplan::cli {

namespace {

using namespace catalog_import;

const QString kCommand = QStringLiteral("import-prices");

QString str(const std::string& s)
{
    return QString::fromStdString(s);
}

void printIssues(const std::vector<LoadIssue>& issues)
{
    QTextStream err(stderr);
    for (const auto& issue : issues)
        err << str(issue.toString()) << '\n';
}

QJsonArray linesJson(const std::vector<int>& lines)
{
    QJsonArray array;
    for (int line : lines)
        array.append(line);
    return array;
}

QJsonArray groupsJson(const std::vector<ReasonGroup>& groups)
{
    QJsonArray array;
    for (const auto& g : groups)
        array.append(QJsonObject { { "reason", str(g.reason) },
            { "count", static_cast<int>(g.lines.size()) }, { "lines", linesJson(g.lines) } });
    return array;
}

QJsonValue rateJson(const std::optional<double>& rate)
{
    return rate ? QJsonValue(*rate) : QJsonValue(QJsonValue::Null);
}

// {"schema_version": 1, "file", "format", "provider", "date", "region", "aggregate",
//  "rows_read", "rows_kept", "rows_dropped", "written", "offers": [...], "dropped": [{reason,
//  count, lines}], "adjusted": [...], "unmapped_gpus": [{name, rows}]}
QJsonObject summaryJson(
    const CatalogImport& result, const ImportOptions& options, const QString& written)
{
    QJsonArray offers;
    for (const auto& imported : result.offers) {
        const CloudOffer& o = imported.offer;
        offers.append(QJsonObject { { "id", str(o.id) }, { "instance", str(o.instance) },
            { "gpu_id", str(o.gpuId) }, { "gpus_per_instance", o.gpusPerInstance },
            { "region", str(o.region) }, { "usd_per_hour", rateJson(o.onDemandUsdPerHour) },
            { "spot_usd_per_hour", rateJson(o.spotUsdPerHour) }, { "note", str(o.source.note) },
            { "lines", linesJson(imported.lines) } });
    }
    QJsonArray unmapped;
    for (const auto& u : result.summary.unmapped)
        unmapped.append(QJsonObject { { "name", str(u.name) }, { "rows", u.rows } });
    const ImportSummary& s = result.summary;
    return views::versioned(
        { { "file", str(s.file) }, { "format", str(std::string(formatName(options.format))) },
            { "provider", str(options.provider) }, { "date", str(options.date) },
            { "region", str(options.region) },
            { "aggregate", str(std::string(aggregateName(options.aggregate))) },
            { "rows_read", s.rowsRead }, { "rows_kept", s.rowsKept },
            { "rows_dropped", static_cast<int>(s.dropped.size()) },
            { "written", written.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(written) },
            { "offers", offers }, { "dropped", groupsJson(groupDropped(s.dropped)) },
            { "adjusted", groupsJson(groupAdjusted(s.adjusted)) }, { "unmapped_gpus", unmapped } });
}

void printSummary(OutputFormat format, const CatalogImport& result, const ImportOptions& options,
    const QString& written)
{
    QTextStream out(stdout);
    if (format == OutputFormat::Json) {
        out << QJsonDocument(summaryJson(result, options, written)).toJson(QJsonDocument::Indented);
        return;
    }
    out << str(formatSummary(result.summary, result.offers.size()));
    if (!written.isEmpty())
        out << "written: " << written << '\n';
}

std::optional<ImportOptions> importOptions(const QCommandLineParser& p, QString* error)
{
    ImportOptions options;
    const auto format = formatFromName(p.value(QStringLiteral("from")).toStdString());
    if (!format) {
        *error = p.isSet(QStringLiteral("from"))
            ? "--from must be skypilot or gpuhunt, not '" + p.value(QStringLiteral("from")) + "'"
            : QStringLiteral("say the catalog's format: --from skypilot or --from gpuhunt");
        return std::nullopt;
    }
    options.format = *format;
    options.provider = p.value(QStringLiteral("provider")).trimmed().toStdString();
    options.date = p.value(QStringLiteral("date")).toStdString();
    options.region = p.value(QStringLiteral("region")).trimmed().toStdString();
    // Given empty (an unset variable in a script), it had kept every region unsaid.
    if (p.isSet(QStringLiteral("region")) && options.region.empty()) {
        *error = QStringLiteral("--region needs a region's name (leave it out for one offer per "
                                "region)");
        return std::nullopt;
    }
    if (p.isSet(QStringLiteral("out")) && p.value(QStringLiteral("out")).trimmed().isEmpty()) {
        *error = QStringLiteral("--out needs a file name (the price table to write)");
        return std::nullopt;
    }
    if (p.isSet(QStringLiteral("aggregate"))) {
        const auto aggregate
            = aggregateFromName(p.value(QStringLiteral("aggregate")).toStdString());
        if (!aggregate) {
            *error = "--aggregate must be cheapest or median, not '"
                + p.value(QStringLiteral("aggregate")) + "'";
            return std::nullopt;
        }
        options.aggregate = *aggregate;
    }
    if (const auto wrong
        = checkOptions(options, QDate::currentDate().toString(Qt::ISODate).toStdString())) {
        *error = str(*wrong);
        if (p.isSet(QStringLiteral("region")) && p.isSet(QStringLiteral("aggregate")))
            *error = QStringLiteral("--region and --aggregate exclude each other");
        else if (!p.isSet(QStringLiteral("provider")))
            *error = QStringLiteral("--provider NAME is required (e.g. --provider AWS)");
        else if (!p.isSet(QStringLiteral("date")))
            *error = QStringLiteral(
                "--date YYYY-MM-DD is required: the day the catalog's prices were collected");
        return std::nullopt;
    }
    return options;
}

// The files the planner will read before the imported one: the shipped tables of --price-set,
// the user's price files (unless --no-user-data) and each --prices file.
std::vector<DataFile> baseFiles(const QCommandLineParser& p)
{
    const QString priceSet = p.value(QStringLiteral("price-set"));
    std::vector<DataFile> files = shippedDataFiles(priceSet.toStdString());
    std::vector<LoadIssue> ignored; // they were read without errors moments ago
    QStringList paths;
    if (!p.isSet(QStringLiteral("no-user-data")))
        paths = views::userPriceFiles(priceSet);
    paths += p.values(QStringLiteral("prices"));
    for (const auto& path : paths)
        if (auto file = readDataFile(path.toStdString(), ignored))
            files.push_back(std::move(*file));
    return files;
}

} // namespace

int runImportPrices(const QStringList& arguments)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Import a public cloud catalog (SkyPilot vms.csv or a dstack gpuhunt CSV) as a user "
        "price file of cloud offers, and say what became of every row. Nothing is written when "
        "the file is malformed, and no existing file is ever overwritten."));
    p.addPositionalArgument(
        QStringLiteral("file"), QStringLiteral("The catalog CSV."), QStringLiteral("FILE.csv"));
    p.addOption({ QStringLiteral("from"),
        QStringLiteral("The catalog's format: skypilot or gpuhunt."), QStringLiteral("FORMAT") });
    p.addOption({ QStringLiteral("provider"),
        QStringLiteral("Whose prices they are, as tables should show it (e.g. AWS)."),
        QStringLiteral("NAME") });
    p.addOption({ QStringLiteral("date"),
        QStringLiteral("When the catalog's prices were collected (YYYY-MM-DD); every offer "
                       "carries it."),
        QStringLiteral("DATE") });
    p.addOption({ QStringLiteral("region"),
        QStringLiteral("Keep only this region (default: one offer per region)."),
        QStringLiteral("REGION") });
    p.addOption({ QStringLiteral("aggregate"),
        QStringLiteral("One offer per instance type across regions: cheapest or median."),
        QStringLiteral("HOW") });
    p.addOption({ QStringLiteral("out"),
        QStringLiteral("Write here instead of the user prices folder (%1/prices); never over "
                       "an existing file.")
            .arg(views::userDataDir()),
        QStringLiteral("FILE.yaml") });
    p.addOption({ QStringLiteral("format"), QStringLiteral("Summary as table (default) or json."),
        QStringLiteral("FORMAT"), QStringLiteral("table") });
    p.addOption({ QStringLiteral("aliases"),
        QStringLiteral("GPU alias file layered over the shipped table (repeatable; format: "
                       "pricing/data/gpu-aliases.yaml)."),
        QStringLiteral("FILE") });
    addDataOptions(p, ResultFiles::Ignored);
    int exitCode = kExitOk;
    if (!parse(p, arguments, kCommand, &exitCode, Positionals::Declared))
        return exitCode;
    if (p.positionalArguments().size() != 1)
        return fail(kCommand, QStringLiteral("give one catalog file (FILE.csv)"));
    QString error;
    const auto options = importOptions(p, &error);
    if (!options)
        return fail(kCommand, error);
    const auto format = formatOption(p, &error);
    if (!format || *format == OutputFormat::Csv)
        return fail(kCommand,
            "--format must be table or json, not '" + p.value(QStringLiteral("format")) + "'");

    const auto catalog = loadCatalog(p, kCommand, ResultFiles::Ignored);
    if (!catalog)
        return kExitUsage;
    const QString path = p.positionalArguments().front();
    std::vector<LoadIssue> readIssues;
    const auto text = readCatalogFile(path.toStdString(), readIssues);
    if (!text) {
        printIssues(readIssues);
        return fail(kCommand, QStringLiteral("nothing was imported"));
    }

    std::vector<DataFile> aliasFiles = embeddedGpuAliasFiles();
    std::vector<LoadIssue> aliasIssues;
    for (const auto& aliasPath : p.values(QStringLiteral("aliases")))
        if (auto file = readDataFile(aliasPath.toStdString(), aliasIssues))
            aliasFiles.push_back(std::move(*file));
    const GpuAliasTable aliases = GpuAliasTable::read(aliasFiles, aliasIssues);
    printIssues(aliasIssues);
    if (hasErrors(aliasIssues))
        return fail(kCommand, QStringLiteral("the alias files have errors (above)"));
    ImportTables tables { aliases, GcpHostVmTable::shipped(), {} };
    for (const auto& gpu : catalog->gpus)
        tables.knownGpuIds.insert(gpu.id);
    const std::string fileName = QFileInfo(path).fileName().toStdString();
    const CatalogImport result = importCatalog(*text, fileName, *options, tables);
    printIssues(result.issues);
    if (!result.ok())
        return fail(kCommand,
            path + QStringLiteral(" is not a well-formed catalog (above): nothing was written"));

    const std::string yamlText = writeImportedTable(result, *options, fileName);
    if (const auto tooBig = checkImportSize(result, yamlText)) {
        printSummary(*format, result, *options, {});
        if (options->region.size() && result.offers.empty() && !result.regions.empty()) {
            QStringList regions;
            for (const auto& r : result.regions)
                regions << str(r);
            return fail(kCommand,
                str(*tooBig) + "; the file's regions: " + regions.join(QStringLiteral(", ")));
        }
        return fail(kCommand, str(*tooBig) + QStringLiteral("; nothing was written"));
    }

    const bool explicitOut = p.isSet(QStringLiteral("out"));
    const QString pricesDir = views::userDataDir() + QStringLiteral("/prices");
    const QString target = explicitOut
        ? QFileInfo(p.value(QStringLiteral("out"))).absoluteFilePath()
        : QDir(pricesDir).filePath(str(importedFileName(*options, fileName)));
    const auto check = checkImportedTable(baseFiles(p), { target.toStdString(), yamlText });
    if (!check.empty()) {
        printIssues(check);
        return fail(kCommand,
            QStringLiteral("the imported offers do not load as a price table (above): nothing "
                           "was written"));
    }
    const QByteArray bytes = QByteArray::fromStdString(yamlText);
    const views::StoredFile stored = explicitOut
        ? views::storeNewFile(bytes, target)
        : views::storeUniqueFile(bytes, pricesDir, QFileInfo(target).fileName());
    if (stored.path.isEmpty())
        return fail(kCommand, stored.error);
    printSummary(*format, result, *options, stored.path);
    return kExitOk;
}

} // namespace gpuplan::cli

// The catalog importer end to end on golden folders, tests/catalog_import/data/<case>/:
//   input.csv             a catalog excerpt (real rows, see data/SOURCES.md) or a bad file
//   arguments.txt         one option per line, as gpuplan-cli import-prices takes them:
//                         "--from skypilot", "--provider AWS", "--date 2025-06-30",
//                         "--region France, FR, EU", "--aggregate median"; and, for tests only,
//                         "--known-gpus id,id" (default: every id of the alias table)
//   expected-summary.txt  the issues and the summary, as the CLI prints them
//   expected.yaml         the user price file; absent where nothing may be written
// GPUPLAN_UPDATE_GOLDEN=1 rewrites the expected files from the current output (review the diff).
// Every expected.yaml is also read back with the catalog loader, after the shipped tables.

#include "pricing/catalog_import/catalog_import.h"
#include "pricing/catalog_import/embedded_data.h"
#include "pricing/catalog_import/imported_table.h"
#include "pricing/catalog_import/offer_ids.h"
#include "pricing/catalog_import/rate_checks.h"

#include "tests/support/golden.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace gpuplan;
using namespace gpuplan::catalog_import;
using gpuplan::testing::readAll;

namespace {

const QString kGoldenDir = QStringLiteral(GPUPLAN_TEST_DATA "/data");
// GPUs the alias table names that the shipped tables may not define yet: defined here, so that
// imported offers of them can be read back. When pricing/data/gpus.yaml gains one, its own
// entry replaces this one (files layer by id).
const QString kFutureGpus = QStringLiteral(GPUPLAN_TEST_DATA "/future-gpus.yaml");

struct GoldenCase {
    ImportOptions options;
    std::set<std::string> knownGpuIds;
};

std::optional<GoldenCase> readArguments(const QString& path, QString* error)
{
    GoldenCase c;
    c.knownGpuIds = GpuAliasTable::shipped().gpuIds();
    const QList<QByteArray> lines = readAll(path).split('\n');
    for (const QByteArray& raw : lines) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty())
            continue;
        const QString key = line.section(QLatin1Char(' '), 0, 0);
        const std::string value = line.section(QLatin1Char(' '), 1).toStdString();
        if (key == QLatin1String("--from") && formatFromName(value))
            c.options.format = *formatFromName(value);
        else if (key == QLatin1String("--provider"))
            c.options.provider = value;
        else if (key == QLatin1String("--date"))
            c.options.date = value;
        else if (key == QLatin1String("--region"))
            c.options.region = value;
        else if (key == QLatin1String("--aggregate") && aggregateFromName(value))
            c.options.aggregate = *aggregateFromName(value);
        else if (key == QLatin1String("--known-gpus")) {
            c.knownGpuIds.clear();
            for (const auto& id : QString::fromStdString(value).split(QLatin1Char(',')))
                c.knownGpuIds.insert(id.trimmed().toStdString());
        } else {
            *error = "unknown line in " + path + ": " + line;
            return std::nullopt;
        }
    }
    if (const auto wrong = checkOptions(c.options)) {
        *error = path + ": " + QString::fromStdString(*wrong);
        return std::nullopt;
    }
    return c;
}

std::vector<DataFile> shippedAndFutureGpus()
{
    std::vector<DataFile> files = shippedDataFiles();
    files.push_back({ kFutureGpus.toStdString(), readAll(kFutureGpus).toStdString() });
    return files;
}

CatalogImport importText(const std::string& text, ImportOptions options = {})
{
    if (options.provider.empty())
        options.provider = "Test";
    if (options.date.empty())
        options.date = "2025-06-30";
    return importCatalog(text, "in.csv", options,
        { GpuAliasTable::shipped(), GcpHostVmTable::shipped(), GpuAliasTable::shipped().gpuIds() });
}

} // namespace

class TestCatalogImport : public QObject {
    Q_OBJECT

private slots:
    void golden_data() { testing::addGoldenRows(kGoldenDir, 40); }
    void golden()
    {
        QFETCH(QString, folder);
        QString error;
        const auto c = readArguments(folder + QStringLiteral("/arguments.txt"), &error);
        QVERIFY2(c, qPrintable(error));
        const QByteArray input = readAll(folder + QStringLiteral("/input.csv"));
        const ImportTables tables { GpuAliasTable::shipped(), GcpHostVmTable::shipped(),
            c->knownGpuIds };
        const CatalogImport result
            = importCatalog(input.toStdString(), "input.csv", c->options, tables);

        std::string summary = formatIssues(result.issues);
        std::string yamlText;
        if (result.ok()) {
            summary += formatSummary(result.summary, result.offers.size());
            yamlText = writeImportedTable(result, c->options, "input.csv");
            if (const auto notWritten = checkImportSize(result, yamlText)) {
                summary += "nothing written: " + *notWritten + '\n';
                yamlText.clear();
            }
            // Every row is accounted for: kept, or dropped once with its reason.
            QCOMPARE(result.summary.rowsKept + static_cast<int>(result.summary.dropped.size()),
                result.summary.rowsRead);
        }
        GPUPLAN_COMPARE_GOLDEN(
            QByteArray::fromStdString(summary), folder + QStringLiteral("/expected-summary.txt"));

        const QString expectedYaml = folder + QStringLiteral("/expected.yaml");
        if (yamlText.empty()) {
            if (qEnvironmentVariableIsSet("GPUPLAN_UPDATE_GOLDEN"))
                QFile::remove(expectedYaml);
            QVERIFY2(!QFile::exists(expectedYaml), "nothing may be written for this input");
            return;
        }
        GPUPLAN_COMPARE_GOLDEN(QByteArray::fromStdString(yamlText), expectedYaml);
        const auto issues
            = checkImportedTable(shippedAndFutureGpus(), { "imported.yaml", yamlText });
        QVERIFY2(issues.empty(), formatIssues(issues).c_str());
    }

    void shippedTablesLoadCleanly()
    {
        std::vector<LoadIssue> issues;
        const GpuAliasTable aliases = GpuAliasTable::read(embeddedGpuAliasFiles(), issues);
        const GcpHostVmTable hosts = GcpHostVmTable::read(embeddedGcpHostVmFiles(), issues);
        QVERIFY2(issues.empty(), formatIssues(issues).c_str());
        QCOMPARE(aliases.aliases().size(), GpuAliasTable::shipped().aliases().size());
        QVERIFY(aliases.aliases().size() >= 17);
        QVERIFY(hosts.hosts().size() >= 20);
    }

    // Every GPU id the alias table maps to is a GPU of the shipped tables or of the fixture
    // standing in for GPUs the shipped tables are about to gain; the fixture holds no other.
    void aliasIdsAreShippedOrFixtureGpus()
    {
        const CatalogLoad load = loadCatalog(shippedAndFutureGpus());
        QVERIFY2(load.ok(), formatIssues(load.issues).c_str());
        for (const auto& id : GpuAliasTable::shipped().gpuIds())
            QVERIFY2(load.catalog->findGpu(id), id.c_str());
    }

    // The alias table is never read as a price table, and the price tables never as aliases.
    void aliasTableIsNotAPriceTable()
    {
        for (const auto& file : shippedDataFiles())
            QVERIFY(file.name.find("alias") == std::string::npos
                && file.name.find("host-vms") == std::string::npos);
        std::vector<LoadIssue> issues;
        GpuAliasTable::read(shippedDataFiles(), issues);
        QVERIFY(hasErrors(issues)); // no 'kind: gpuplan-gpu-aliases'
    }

    void userAliasFileOverridesTheShippedOneByName()
    {
        std::vector<DataFile> files = embeddedGpuAliasFiles();
        files.push_back({ "mine.yaml", R"(schema_version: 1
kind: gpuplan-gpu-aliases
aliases:
  - {gpu: rtx-a6000, names: [A10]}
  - {gpu: rtx-4090, names: [RTX4090], memory_gb: {min: 47, max: 49}}
)" });
        std::vector<LoadIssue> issues;
        const GpuAliasTable table = GpuAliasTable::read(files, issues);
        QVERIFY2(issues.empty(), formatIssues(issues).c_str());
        QCOMPARE(table.match({ "A10", "", "gpu_1x_a10", { 24 } }).gpuId, std::string("rtx-a6000"));
        QCOMPARE(
            table.match({ "RTX4090", "", "1x-RTX_4090", { 48 } }).gpuId, std::string("rtx-4090"));
        // The shipped 24 GB alias of the name is replaced, not added to.
        QVERIFY(table.match({ "RTX4090", "", "1x-RTX_4090", { 24 } }).gpuId.empty());
    }

    void aliasFileErrorsHavePositions()
    {
        std::vector<LoadIssue> issues;
        GpuAliasTable::read({ { "bad.yaml", R"(schema_version: 1
kind: gpuplan-gpu-aliases
aliases:
  - {gpu: Not An Id, names: [X]}
  - {gpu: rtx-4090, names: [RTX4090], memory_gb: {min: 50, max: 40}}
)" } },
            issues);
        QCOMPARE(QString::fromStdString(formatIssues(issues)),
            QStringLiteral("bad.yaml:4:11: error: 'Not An Id' is not a valid id for an alias "
                           "(lower-case letters, digits, '.', '_', '-'; at most 64)\n"
                           "bad.yaml:5:50: error: memory_gb of alias of 'rtx-4090': min is above "
                           "max\n"));
    }

    void idsAreStableSanitisedAndUnique()
    {
        const auto ids = makeOfferIds("Vast.ai",
            { { "1x-H100_SXM-32-65536", "France, FR, EU" },
                { "1x-H100_SXM-32-65536", "France FR EU" }, { "p5.48xlarge", "" },
                { std::string(80, 'x'), "us-east-1" } });
        QCOMPARE(ids[0].substr(0, 32), std::string("vast.ai-1x-h100_sxm-32-65536-fra"));
        QVERIFY(ids[0] != ids[1]);
        QCOMPARE(ids[2], std::string("vast.ai-p5.48xlarge"));
        QCOMPARE(ids[3].size(), std::size_t { 64 });
        QCOMPARE(makeOfferIds("Vast.ai",
                     { { "1x-H100_SXM-32-65536", "France, FR, EU" },
                         { "1x-H100_SXM-32-65536", "France FR EU" } }),
            (std::vector<std::string> { ids[0], ids[1] }));
        QCOMPARE(sanitisedIdPart("Hafnarfjarðarkaupstaður, IS, EU"),
            std::string("hafnarfjar-arkaupsta-ur-is-eu"));
    }

    void plausibleRateComesFromTheLimits()
    {
        QCOMPARE(maxUsdPerGpuHour(), 10000.0 / 64.0);
        // $700 for one GPU is a placeholder; $700 for eight is $87.50 a GPU-hour: kept.
        const auto one = importText("InstanceType,AcceleratorName,AcceleratorCount,GpuInfo,Price,"
                                    "SpotPrice,Region\n"
                                    "p5.4xlarge,H100,1,,700.0,,us-east-1\n"
                                    "p5.48xlarge,H100,8,,700.0,,us-east-1\n");
        QCOMPARE(one.offers.size(), std::size_t { 1 });
        QCOMPARE(one.offers.front().offer.instance, std::string("p5.48xlarge"));
    }

    void writtenTableKeepsEveryField()
    {
        const auto result = importText("InstanceType,AcceleratorName,AcceleratorCount,GpuInfo,"
                                       "Price,SpotPrice,Region\n"
                                       "p5.48xlarge,H100,8,,55.04,14.25,us-east-1\n");
        ImportOptions options { CatalogFormat::SkyPilot, "AWS", "2025-06-30", {}, {} };
        const std::string text = writeImportedTable(result, options, "vms.csv");
        std::vector<DataFile> files = shippedDataFiles();
        files.push_back({ "imported.yaml", text });
        const CatalogLoad load = loadCatalog(files);
        QVERIFY2(load.ok(), formatIssues(load.issues).c_str());
        const CloudOffer* offer = load.catalog->findCloudOffer("test-p5.48xlarge-us-east-1");
        QVERIFY(offer);
        QCOMPARE(offer->gpuId, std::string("h100-80gb-sxm"));
        QCOMPARE(offer->gpusPerInstance, 8);
        QCOMPARE(*offer->onDemandUsdPerHour, 55.04);
        QCOMPARE(*offer->spotUsdPerHour, 14.25);
        QCOMPARE(offer->region, std::string("us-east-1"));
        QCOMPARE(offer->source.date, std::string("2025-06-30"));
        QCOMPARE(offer->source.source,
            std::string("Test rates in in.csv (SkyPilot vms.csv) as of 2025-06-30"));
    }

    void optionsAreChecked_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("date");
        QTest::addColumn<QString>("region");
        QTest::addColumn<bool>("aggregate");
        QTest::addColumn<QString>("error");
        QTest::addRow("no provider")
            << ""
            << "2025-06-30"
            << "" << false << "say whose catalog it is with a provider name (e.g. AWS)";
        QTest::addRow("provider without letters")
            << "***"
            << "2025-06-30"
            << "" << false << "the provider name '***' holds no letter or digit";
        QTest::addRow("month only") << "AWS"
                                    << "2025-06"
                                    << "" << false
                                    << "the date must be YYYY-MM-DD (when the catalog's prices "
                                       "were collected), not '2025-06'";
        QTest::addRow("bad month") << "AWS"
                                   << "2025-13-01"
                                   << "" << false
                                   << "the date must be YYYY-MM-DD (when the catalog's prices "
                                      "were collected), not '2025-13-01'";
        QTest::addRow("no such day") << "AWS"
                                     << "2026-02-30"
                                     << "" << false
                                     << "the date must be YYYY-MM-DD (when the catalog's prices "
                                        "were collected), not '2026-02-30'";
        QTest::addRow("leap day") << "AWS"
                                  << "2024-02-29"
                                  << "" << false << "";
        QTest::addRow("not a leap day") << "AWS"
                                        << "2100-02-29"
                                        << "" << false
                                        << "the date must be YYYY-MM-DD (when the catalog's "
                                           "prices were collected), not '2100-02-29'";
        QTest::addRow("region and aggregate") << "AWS"
                                              << "2025-06-30"
                                              << "us-east-1" << true
                                              << "choose one region or an aggregate of all "
                                                 "regions, not both";
        QTest::addRow("after today") << "AWS"
                                     << "2026-11-28"
                                     << "" << false
                                     << "the date 2026-11-28 is after today (2026-11-27): give "
                                        "the day the catalog's prices were collected";
        QTest::addRow("fine") << "AWS"
                              << "2025-06-30"
                              << "us-east-1" << false << "";
    }
    void optionsAreChecked()
    {
        QFETCH(QString, provider);
        QFETCH(QString, date);
        QFETCH(QString, region);
        QFETCH(bool, aggregate);
        QFETCH(QString, error);
        ImportOptions o { CatalogFormat::SkyPilot, provider.toStdString(), date.toStdString(),
            region.toStdString(), aggregate ? RegionAggregate::Cheapest : RegionAggregate::None };
        QCOMPARE(QString::fromStdString(checkOptions(o, "2026-11-27").value_or("")), error);
    }

    void fileNameSaysProviderFileRegionAndDate()
    {
        ImportOptions o { CatalogFormat::SkyPilot, "AWS", "2025-06-30", "us-east-1", {} };
        QCOMPARE(importedFileName(o, "vms.csv"), std::string("aws-vms-us-east-1-2025-06-30.yaml"));
        o.region.clear();
        o.aggregate = RegionAggregate::Median;
        QCOMPARE(importedFileName(o, "/x/vms.csv"), std::string("aws-vms-median-2025-06-30.yaml"));
        // Never a hidden file, which the planner does not read, nor one in another folder.
        o.aggregate = RegionAggregate::None;
        o.provider = ".hidden";
        QCOMPARE(importedFileName(o, "neb.csv"), std::string("hidden-neb-2025-06-30.yaml"));
        o.provider = "../../x";
        QCOMPARE(importedFileName(o, ".neb.csv"), std::string("x-neb-2025-06-30.yaml"));
    }
};

QTEST_GUILESS_MAIN(TestCatalogImport)
#include "tst_catalog_import.moc"

// gpuplan-cli import-prices as users run it: exit codes, what is written and where, that
// nothing is written on bad input, that no file is ever overwritten, and the JSON summary.

#include "tests/support/program.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kExcerpts = QStringLiteral(GPUPLAN_TEST_DATA "/data");

QString excerpt(const QString& name)
{
    return kExcerpts + QLatin1Char('/') + name + QStringLiteral("/input.csv");
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestImportPricesCli : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> dataDir; // a fresh user data dir for each test

    struct Run {
        int exitCode = -1;
        QByteArray out;
        QString err;
    };

    Run cli(const QStringList& arguments)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GPUPLAN_DATA_DIR"), dataDir->path());
        const auto r = gpuplan::testing::runProgram(QStringLiteral(GPUPLAN_CLI), arguments, env);
        return { r.exitCode, r.out, QString::fromUtf8(r.err) };
    }

    Run importNebius(const QStringList& extra = {})
    {
        return cli(QStringList { "import-prices", "--from", "skypilot", "--provider", "Nebius",
                       "--date", "2025-09-01", excerpt(QStringLiteral("skypilot-v8-nebius")) }
            + extra);
    }

    QStringList pricesFiles() const
    {
        return QDir(dataDir->filePath(QStringLiteral("prices")))
            .entryList(QDir::Files | QDir::Hidden, QDir::Name);
    }

private slots:
    void init()
    {
        dataDir = std::make_unique<QTemporaryDir>();
        QVERIFY(dataDir->isValid());
    }

    void importsIntoTheUserPricesFolderAndListsTheOffers()
    {
        const Run r = importNebius();
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("input.csv: 12 rows read, "), r.out.constData());
        QCOMPARE(pricesFiles(), QStringList { QStringLiteral("nebius-input-2025-09-01.yaml") });
        QVERIFY(r.out.contains(
            "written: " + dataDir->filePath("prices/nebius-input-2025-09-01.yaml").toUtf8()));

        // The planner sees them, dated and sourced.
        const Run list = cli({ "list", "cloud", "--format", "json" });
        QCOMPARE(list.exitCode, 0);
        QJsonObject offer;
        for (const auto& v : QJsonDocument::fromJson(list.out).object()["cloud"].toArray())
            if (v.toObject()["id"].toString()
                == QLatin1String("nebius-gpu-h200-sxm_8gpu-128vcpu-1600gb-eu-west1"))
                offer = v.toObject();
        QCOMPARE(offer["gpu_id"].toString(), QStringLiteral("h200-141gb-sxm"));
        QCOMPARE(offer["usd_per_hour"].toDouble(), 28.0);
        QCOMPARE(offer["spot_usd_per_hour"].toDouble(), 11.6);
        QCOMPARE(offer["date"].toString(), QStringLiteral("2025-09-01"));
        QCOMPARE(offer["source"].toString(),
            QStringLiteral("Nebius rates in input.csv (SkyPilot vms.csv) as of 2025-09-01"));
    }

    void neverOverwritesAnEarlierImport()
    {
        QCOMPARE(importNebius().exitCode, 0);
        const QString first
            = dataDir->filePath(QStringLiteral("prices/nebius-input-2025-09-01.yaml"));
        QFile f(first);
        QVERIFY(f.open(QIODevice::Append));
        f.write("# the user's own comment\n");
        f.close();
        const QByteArray before = readFile(first);
        QCOMPARE(importNebius().exitCode, 0);
        QCOMPARE(pricesFiles(),
            (QStringList { QStringLiteral("nebius-input-2025-09-01-2.yaml"),
                QStringLiteral("nebius-input-2025-09-01.yaml") }));
        QCOMPARE(readFile(first), before);
    }

    void outRefusesAnExistingFile()
    {
        const QString out = dataDir->filePath(QStringLiteral("mine.yaml"));
        QCOMPARE(importNebius({ "--out", out }).exitCode, 0);
        // Readable by others like any file the user keeps (not a temporary file's 0600).
        QVERIFY(QFileInfo(out).permissions().testFlag(QFile::ReadOther));
        const QByteArray before = readFile(out);
        const Run again = importNebius({ "--out", out });
        QCOMPARE(again.exitCode, 2);
        QVERIFY2(
            again.err.contains(out + QStringLiteral(" exists: an import never overwrites a file.")),
            qPrintable(again.err));
        QCOMPARE(readFile(out), before);
        QVERIFY(pricesFiles().isEmpty()); // --out writes only there
        // The written file loads as a price table given with --prices.
        const Run list = cli({ "list", "cloud", "--no-user-data", "--prices", out });
        QCOMPARE(list.exitCode, 0);
        QVERIFY(list.out.contains("nebius-gpu-h100-sxm_8gpu-128vcpu-1600gb-eu-north1"));
    }

    // A folder that is not there is a typo: not created, nothing written.
    void outIntoAMissingFolderFails()
    {
        const QString folder = dataDir->filePath(QStringLiteral("no-such-folder"));
        const Run r = importNebius({ "--out", folder + QStringLiteral("/mine.yaml") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("The folder %1 does not exist.").arg(folder)),
            qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(folder));
    }

    void malformedInputWritesNothing_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("message");
        QTest::addRow("ragged") << "bad-ragged-row"
                                << "input.csv:3: error: row has 10 fields, the header 9";
        QTest::addRow("bad number") << "bad-number"
                                    << "input.csv:2:33: error: Price 'six' is not a number";
        QTest::addRow("binary") << "bad-binary-nul"
                                << "input.csv:2:1: error: NUL byte";
        QTest::addRow("unterminated quote")
            << "bad-unterminated-quote"
            << "input.csv:2:32: error: quoted field is never closed";
        QTest::addRow("missing columns") << "bad-missing-columns"
                                         << "input.csv:1:1: error: the header lacks the column(s) "
                                            "Price, Region of a SkyPilot vms.csv";
        QTest::addRow("empty") << "bad-empty-file"
                               << "input.csv: error: the file is empty";
    }
    void malformedInputWritesNothing()
    {
        QFETCH(QString, folder);
        QFETCH(QString, message);
        const QString out = dataDir->filePath(QStringLiteral("out.yaml"));
        const Run r = cli({ "import-prices", "--from", "skypilot", "--provider", "AWS", "--date",
            "2025-06-30", excerpt(folder), "--out", out });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("nothing was written")), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
        QVERIFY(pricesFiles().isEmpty());
    }

    void nothingToImportIsAnErrorThatListsTheRegions()
    {
        const Run r = importNebius({ "--region", "mars-north1" });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("no offer to import: every row was dropped (see the "
                                               "summary); the file's regions: eu-north1, "
                                               "eu-west1, us-central1")),
            qPrintable(r.err));
        QVERIFY(r.out.contains("not in region mars-north1"));
        QVERIFY(pricesFiles().isEmpty());
    }

    void hugeFileFailsFastAndWritesNothing()
    {
        const QString path = dataDir->filePath(QStringLiteral("huge.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(200ll * 1000 * 1000)); // sparse: no disk space, no time
        file.close();
        const Run r = cli({ "import-prices", "--from", "gpuhunt", "--provider", "X", "--date",
            "2025-06-30", path });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("the file is 200000000 bytes (191 MiB), more than "
                                               "the 64 MiB a catalog may have")),
            qPrintable(r.err));
        QVERIFY(pricesFiles().isEmpty());
    }

    void badUsage_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString file = excerpt(QStringLiteral("skypilot-v8-nebius"));
        QTest::addRow("no format") << QStringList { "--provider", "X", "--date", "2025-01-01",
            file } << "say the catalog's format: --from skypilot or --from gpuhunt";
        QTest::addRow("bad format") << QStringList { "--from", "csv", "--provider", "X", "--date",
            "2025-01-01", file } << "--from must be skypilot or gpuhunt, not 'csv'";
        QTest::addRow("no provider") << QStringList { "--from", "skypilot", "--date", "2025-01-01",
            file } << "--provider NAME is required (e.g. --provider AWS)";
        QTest::addRow("no date") << QStringList { "--from", "skypilot", "--provider", "X", file }
                                 << "--date YYYY-MM-DD is required";
        QTest::addRow("bad date") << QStringList { "--from", "skypilot", "--provider", "X",
            "--date", "2025-06", file }
                                  << "the date must be YYYY-MM-DD";
        QTest::addRow("no such day")
            << QStringList { "--from", "skypilot", "--provider", "X", "--date", "2026-02-30", file }
            << "the date must be YYYY-MM-DD";
        QTest::addRow("region and aggregate") << QStringList { "--from", "skypilot", "--provider",
            "X", "--date", "2025-01-01", "--region", "us-east-1", "--aggregate", "median", file }
                                              << "--region and --aggregate exclude each other";
        // Empty (an unset variable in a script), it had imported every region unsaid.
        QTest::addRow("empty region") << QStringList { "--from", "skypilot", "--provider", "X",
            "--date", "2025-01-01", "--region", " ", file }
                                      << "--region needs a region's name";
        QTest::addRow("empty out") << QStringList { "--from", "skypilot", "--provider", "X",
            "--date", "2025-01-01", "--out", "", file }
                                   << "--out needs a file name (the price table to write)";
        QTest::addRow("bad aggregate") << QStringList { "--from", "skypilot", "--provider", "X",
            "--date", "2025-01-01", "--aggregate", "mean", file }
                                       << "--aggregate must be cheapest or median, not 'mean'";
        QTest::addRow("csv format") << QStringList { "--from", "skypilot", "--provider", "X",
            "--date", "2025-01-01", "--format", "csv", file }
                                    << "--format must be table or json, not 'csv'";
        QTest::addRow("no file") << QStringList { "--from", "skypilot", "--provider", "X", "--date",
            "2025-01-01" } << "give one catalog file (FILE.csv)";
        QTest::addRow("missing file") << QStringList { "--from", "skypilot", "--provider", "X",
            "--date", "2025-01-01", "/nonexistent/vms.csv" }
                                      << "/nonexistent/vms.csv: error: cannot open the file: it "
                                         "does not exist";
    }
    void badUsage()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Run r = cli(QStringList { "import-prices" } + arguments);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(pricesFiles().isEmpty());
    }

    void helpAndVersion()
    {
        const Run help = cli({ "import-prices", "--help" });
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("import-prices [options] FILE.csv"));
        QVERIFY(help.out.contains("--aggregate <HOW>"));
        const Run version = cli({ "import-prices", "--version" });
        QCOMPARE(version.exitCode, 0);
        QVERIFY(version.out.startsWith("gpuplan-cli "));
        const Run usage = cli({ "--help" });
        QVERIFY(usage.out.contains("import-prices"));
    }

    void jsonSummary()
    {
        const Run r
            = cli({ "import-prices", "--from", "skypilot", "--provider", "Vast.ai", "--date",
                "2025-06-30", "--format", "json", excerpt(QStringLiteral("skypilot-v8-vast")) });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(json["schema_version"].toInt(), 1);
        QCOMPARE(json["format"].toString(), QStringLiteral("skypilot"));
        QCOMPARE(json["rows_read"].toInt(), 24);
        QCOMPARE(json["rows_kept"].toInt() + json["rows_dropped"].toInt(), 24);
        QCOMPARE(pricesFiles().size(), 1);
        // Only GPUs the price tables define (the shipped ones here): the others are unmapped.
        QStringList known;
        for (const auto& g :
            QJsonDocument::fromJson(cli({ "list", "gpus", "--format", "json" }).out)
                .object()["gpus"]
                .toArray())
            known << g.toObject()["id"].toString();
        QVERIFY(!json["offers"].toArray().isEmpty());
        for (const auto& o : json["offers"].toArray())
            QVERIFY(known.contains(o.toObject()["gpu_id"].toString()));
        QVERIFY(
            json["written"].toString().endsWith(QStringLiteral("vast.ai-input-2025-06-30.yaml")));
        int dropped = 0;
        for (const auto& g : json["dropped"].toArray()) {
            const QJsonObject group = g.toObject();
            QCOMPARE(group["lines"].toArray().size(), group["count"].toInt());
            QVERIFY(!group["reason"].toString().isEmpty());
            dropped += group["count"].toInt();
        }
        QCOMPARE(dropped, json["rows_dropped"].toInt());
        QVERIFY(!json["unmapped_gpus"].toArray().isEmpty());
        const QJsonObject first = json["offers"].toArray().first().toObject();
        for (const char* key : { "id", "instance", "gpu_id", "gpus_per_instance", "region",
                 "usd_per_hour", "spot_usd_per_hour", "lines" })
            QVERIFY2(first.contains(QLatin1String(key)), key);
    }

    void aliasFileMapsAnUnmappedGpu()
    {
        const QString aliases = dataDir->filePath(QStringLiteral("aliases.yaml"));
        QFile f(aliases);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("schema_version: 1\nkind: gpuplan-gpu-aliases\naliases:\n"
                "  - {gpu: rtx-a6000, names: [A10], why: \"a test: any known id will do\"}\n");
        f.close();
        const QString file = excerpt(QStringLiteral("trap-unmapped-gpus"));
        const QStringList base { "import-prices", "--from", "skypilot", "--provider", "Lambda",
            "--date", "2025-06-30", "--format", "json", file };
        const Run without = cli(base);
        QCOMPARE(without.exitCode, 2); // A10 and GH200: nothing to import
        const Run with = cli(base + QStringList { "--aliases", aliases });
        QCOMPARE(with.exitCode, 0);
        const QJsonObject json = QJsonDocument::fromJson(with.out).object();
        QCOMPARE(json["offers"].toArray().size(), 1);
        QCOMPARE(json["offers"].toArray()[0].toObject()["gpu_id"].toString(),
            QStringLiteral("rtx-a6000"));
    }
};

QTEST_GUILESS_MAIN(TestImportPricesCli)
#include "tst_import_prices_cli.moc"

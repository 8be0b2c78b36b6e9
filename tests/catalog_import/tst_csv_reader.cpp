// The CSV reader under the catalog importer: RFC 4180 quoting, line ends, the byte-order mark,
// and every malformed input reported at its line and column; binary junk; the size limit,
// checked before a file is read.

#include "pricing/catalog_import/catalog_file.h"
#include "pricing/catalog_import/csv_reader.h"
#include "pricing/text_checks.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuplan;
using namespace gpuplan::catalog_import;

namespace {

struct Parsed {
    std::vector<std::vector<std::string>> records;
    std::vector<int> lines;
    std::string error; // LoadIssue::toString of the error, or empty
};

Parsed parse(std::string_view text)
{
    Parsed parsed;
    CsvReader reader(text, "in.csv");
    CsvRecord record;
    while (reader.next(record)) {
        parsed.records.push_back(record.fields);
        parsed.lines.push_back(record.line);
    }
    if (reader.error())
        parsed.error = reader.error()->toString();
    return parsed;
}

using Fields = std::vector<std::string>;

} // namespace

Q_DECLARE_METATYPE(std::string)

class TestCsvReader : public QObject {
    Q_OBJECT

private slots:
    void quotedFieldsKeepCommasQuotesAndLineBreaks()
    {
        const Parsed p = parse("a,\"{'Gpus': [{'Name': 'H100', 'Count': 8}]}\",\"say \"\"hi\"\"\"\n"
                               "\"two\nlines\",,x\n");
        QCOMPARE(p.error, std::string());
        QCOMPARE(p.records.size(), std::size_t { 2 });
        QCOMPARE(p.records[0],
            (Fields { "a", "{'Gpus': [{'Name': 'H100', 'Count': 8}]}", "say \"hi\"" }));
        QCOMPARE(p.records[1], (Fields { "two\nlines", "", "x" }));
        QCOMPARE(p.lines, (std::vector<int> { 1, 2 }));
    }

    void crlfBomTrailingCommaAndBlankLines()
    {
        const Parsed p = parse("\xEF\xBB\xBFInstanceType,SpotPrice\r\np5,\r\n\r\n\np4d,1.5\r\n");
        QCOMPARE(p.error, std::string());
        QCOMPARE(p.records,
            (std::vector<Fields> {
                { "InstanceType", "SpotPrice" }, { "p5", "" }, { "p4d", "1.5" } }));
        QCOMPARE(p.lines, (std::vector<int> { 1, 2, 5 }));
    }

    void lastLineWithoutLineEnd()
    {
        const Parsed p = parse("a,b\nc,");
        QCOMPARE(p.records, (std::vector<Fields> { { "a", "b" }, { "c", "" } }));
    }

    void malformed_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<std::string>("error");
        QTest::addRow("unterminated quote") << std::string("a,b\n1,\"open\n2,3\n")
                                            << std::string("in.csv:2:3: error: quoted field is "
                                                           "never closed: the quote opened here "
                                                           "runs to the end of the file");
        QTest::addRow("text after closing quote")
            << std::string("a,b\n\"x\"y,1\n")
            << std::string("in.csv:2:4: error: unexpected text after a closing quote (a field "
                           "that starts with a quote must end with one)");
        QTest::addRow("quote inside unquoted field")
            << std::string("a,b\nx\"y,1\n")
            << std::string("in.csv:2:2: error: quote inside an unquoted field (a field holding "
                           "quotes must be quoted as a whole, with each quote doubled)");
        QTest::addRow("too many fields")
            << std::string(300, ',')
            << std::string("in.csv:1:257: error: more than 256 fields in one row: not a cloud "
                           "catalog");
    }
    void malformed()
    {
        QFETCH(std::string, text);
        QFETCH(std::string, error);
        QCOMPARE(parse(text).error, error);
    }

    void binaryJunk_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<std::string>("error");
        QTest::addRow("NUL") << std::string("a,b\nc,d\0e\n", 10)
                             << std::string("in.csv:2:4: error: NUL byte: this is a binary file, "
                                            "not a CSV catalog");
        QTest::addRow("Latin-1") << std::string("region\nT\xFCrkiye\n")
                                 << std::string("in.csv:2:2: error: byte 0xFC is not UTF-8 text: "
                                                "this is a binary file or another encoding, not "
                                                "a CSV catalog");
        QTest::addRow("truncated sequence") << std::string("ok\n\xE2\x82")
                                            << std::string("in.csv:2:1: error: byte 0xE2 is not "
                                                           "UTF-8 text: this is a binary file or "
                                                           "another encoding, not a CSV catalog");
        QTest::addRow("overlong") << std::string("\xC0\xAF")
                                  << std::string("in.csv:1:1: error: byte 0xC0 is not UTF-8 "
                                                 "text: this is a binary file or another "
                                                 "encoding, not a CSV catalog");
        QTest::addRow("surrogate") << std::string("x\xED\xA0\x80")
                                   << std::string("in.csv:1:2: error: byte 0xED is not UTF-8 "
                                                  "text: this is a binary file or another "
                                                  "encoding, not a CSV catalog");
    }
    void binaryJunk()
    {
        QFETCH(std::string, text);
        QFETCH(std::string, error);
        const auto junk = findBinaryJunk(text, "in.csv");
        QVERIFY(junk);
        QCOMPARE(junk->toString(), error);
    }

    void utf8TextIsClean()
    {
        // Real rows of SkyPilot's Vast catalog: Icelandic and Turkish place names.
        QVERIFY(!findBinaryJunk(
            "\"Hafnarfjarðarkaupstaður, IS, EU\",\"Türkiye, TR, AS\",\xF0\x9F\x98\x80", "in.csv"));
    }

    void columnsCountCharactersNotBytes()
    {
        const Parsed p = parse("Türkiye,x\"y\n");
        QCOMPARE(p.error,
            std::string("in.csv:1:10: error: quote inside an unquoted field (a field holding "
                        "quotes must be quoted as a whole, with each quote doubled)"));
    }

    // A 200 MB catalog fails at once with its size: the size is checked before anything is read
    // (a sparse file takes no disk space and reading it would take seconds).
    void hugeFileIsRefusedBeforeReading()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("huge.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(200ll * 1000 * 1000));
        file.close();
        QElapsedTimer timer;
        timer.start();
        std::vector<LoadIssue> issues;
        QVERIFY(!readCatalogFile(path.toStdString(), issues));
        QVERIFY(timer.elapsed() < 1000);
        QCOMPARE(issues.size(), std::size_t { 1 });
        QCOMPARE(issues.front().toString(),
            path.toStdString()
                + ": error: the file is 200000000 bytes (191 MiB), more than the 64 MiB a catalog "
                  "may have: import one provider's file, not a whole dump");
    }

    void fileAtTheLimitIsRead()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("small.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("a,b\n1,2\n");
        file.close();
        std::vector<LoadIssue> issues;
        QCOMPARE(readCatalogFile(path.toStdString(), issues, /*maxBytes=*/8),
            std::optional<std::string>("a,b\n1,2\n"));
        QVERIFY(!readCatalogFile(path.toStdString(), issues, /*maxBytes=*/7));
    }

    void missingFileAndDevice()
    {
        std::vector<LoadIssue> issues;
        QVERIFY(!readCatalogFile("/nonexistent/vms.csv", issues));
        QVERIFY(!readCatalogFile("/dev/zero", issues)); // would never end
        QCOMPARE(issues.size(), std::size_t { 2 });
        QCOMPARE(issues[0].toString(),
            std::string("/nonexistent/vms.csv: error: cannot open the file: it does not exist"));
        QCOMPARE(issues[1].toString(), std::string("/dev/zero: error: not a regular file"));
    }
};

QTEST_GUILESS_MAIN(TestCsvReader)
#include "tst_csv_reader.moc"

// The price-table loader: golden folders of bad input (tests/pricing/data/<case>/{input.yaml,
// expected.txt}) with the exact messages users see, and layering of user files over defaults.
// GPUPLAN_UPDATE_GOLDEN=1 rewrites expected.txt from the current output (review the diff!).

#include "pricing/catalog_loader.h"

#include "tests/support/golden.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace gpuplan;
using gpuplan::testing::readAll;

namespace {
const QString kGoldenDir = QStringLiteral(GPUPLAN_TEST_DATA "/data");

CatalogLoad loadWithUserText(const std::string& text, const std::string& name = "input.yaml")
{
    auto files = shippedDataFiles();
    files.push_back({ name, text });
    return loadCatalog(files);
}
} // namespace

class TestCatalogLoader : public QObject {
    Q_OBJECT

private slots:
    void shippedDataLoadsWithoutIssues()
    {
        const CatalogLoad load = loadCatalog(shippedDataFiles());
        QVERIFY2(load.issues.empty(), formatIssues(load.issues).c_str());
        QCOMPARE(load.catalog->workloads.size(), std::size_t { 9 });
        QCOMPARE(load.catalog->chassis.size(), std::size_t { 4 });
        // Tables 1 and 4: 9 models x 4 GPUs x 4 counts each.
        QCOMPARE(load.catalog->reference.size(), std::size_t { 2 * 9 * 16 });
        QCOMPARE(load.catalog->defaults.amortizationYears, 5.0);
    }

    void golden_data() { testing::addGoldenRows(kGoldenDir, 15); }
    void golden()
    {
        QFETCH(QString, folder);
        const QByteArray input = readAll(folder + QStringLiteral("/input.yaml"));
        const CatalogLoad load = loadWithUserText(input.toStdString());
        const QByteArray actual = QByteArray::fromStdString(formatIssues(load.issues));
        GPUPLAN_COMPARE_GOLDEN(actual, folder + QStringLiteral("/expected.txt"));
        // Bad input never costs the user the shipped tables.
        QVERIFY(load.catalog->findGpu("rtx-3090"));
        QVERIFY(load.catalog->findWorkload("pythia-1b"));
    }

    void entryWithAnErrorIsLeftOutAndTheRestKept()
    {
        const CatalogLoad load = loadWithUserText(R"(schema_version: 1
chassis:
  - id: good-box
    name: Good
    gpu_slots: 1
    price: {usd: 800, date: 2025-01, source: shop}
    base_power: {watts: 150, date: 2025-01, source: estimate}
  - id: bad-box
    name: Bad
    gpu_slots: 1
    price: {usd: -800, date: 2025-01, source: shop}
    base_power: {watts: 150, date: 2025-01, source: estimate}
)");
        QVERIFY(!load.ok());
        QVERIFY(load.catalog->findChassis("good-box"));
        QVERIFY(!load.catalog->findChassis("bad-box"));
    }

    void userFileOverridesAShippedPrice()
    {
        const CatalogLoad load = loadWithUserText(R"(schema_version: 1
gpus:
  - id: h100-80gb-sxm
    name: H100 SXM 80GB
    memory_gb: 80
    board_power_watts: 700
    peak_tflops: {bf16: 989, tf32: 494.7}
    spec: {date: 2022-03, source: NVIDIA H100 datasheet}
    price: {usd: 25000, date: 2026-10-01, source: our university's framework agreement}
assumptions:
  electricity_usd_per_kwh: {value: 0.21, date: 2026-01, source: campus utilities}
)");
        QVERIFY2(load.ok(), formatIssues(load.issues).c_str());
        const GpuSpec* h100 = load.catalog->findGpu("h100-80gb-sxm");
        QCOMPARE(*h100->priceUsd, 25000.0);
        QCOMPARE(h100->priceSource.date, std::string("2026-10-01"));
        QCOMPARE(load.catalog->defaults.electricityUsdPerKwh, 0.21);
        QCOMPARE(load.catalog->defaults.pue, 1.58); // untouched assumptions keep the default
        QCOMPARE(load.catalog->gpus.size(), loadCatalog(shippedDataFiles()).catalog->gpus.size());
        // The shipped tables themselves are unchanged.
        QCOMPARE(
            *loadCatalog(shippedDataFiles()).catalog->findGpu("h100-80gb-sxm")->priceUsd, 30000.0);
    }

    void missingFileIsReportedByName()
    {
        const CatalogLoad load = loadCatalogWithUserFiles({ "/nonexistent/prices.yaml" });
        QVERIFY(!load.ok());
        QCOMPARE(load.issues.front().toString(),
            std::string("/nonexistent/prices.yaml: error: cannot open the file"));
        QVERIFY(load.catalog->findGpu("a100-80gb-sxm"));
    }

    void oversizedFileIsRefusedBeforeParsing()
    {
        const std::string big(5 * 1024 * 1024, '#');
        const CatalogLoad load = loadWithUserText(big, "big.yaml");
        QVERIFY(!load.ok());
        QVERIFY(load.issues.front().message.find("more than the 4194304") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCatalogLoader)
#include "tst_catalog_loader.moc"

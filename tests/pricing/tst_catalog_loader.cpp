// The price-table loader: golden folders of bad input (tests/pricing/data/<case>/{input.yaml,
// expected.txt}) with the exact messages users see, and layering of user files over defaults.
// GPUPLAN_UPDATE_GOLDEN=1 rewrites expected.txt from the current output (review the diff!).

#include "core/hardware.h"
#include "pricing/catalog_loader.h"
#include "pricing/yaml_reader.h"

#include "tests/support/golden.h"

#include <algorithm>

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
    void shippedDataLoadsWithoutIssues_data()
    {
        QTest::addColumn<QString>("priceSet");
        for (const auto& set : priceSetNames())
            QTest::newRow(set.c_str()) << QString::fromStdString(set);
    }
    void shippedDataLoadsWithoutIssues()
    {
        QFETCH(QString, priceSet);
        const CatalogLoad load = loadCatalog(shippedDataFiles(priceSet.toStdString()));
        QVERIFY2(load.issues.empty(), formatIssues(load.issues).c_str());
        QCOMPARE(load.catalog->workloads.size(), std::size_t { 9 });
        QCOMPARE(load.catalog->chassis.size(), std::size_t { 4 });
        // Tables 1 and 4: 9 models x 4 GPUs x 4 counts each, but for the cell Table 4 leaves
        // empty (ConvNeXt, 1 H100).
        QCOMPARE(load.catalog->reference.size(), std::size_t { 2 * 9 * 16 - 1 });
        QCOMPARE(load.catalog->defaults.amortizationYears, 5.0);
        // Every shipped offer and price says when it was true ("undated" is for users' files),
        // and so does every network an offer lists.
        for (const CloudOffer& offer : load.catalog->cloudOffers) {
            QVERIFY2(gpuplan::yaml::isIsoDate(offer.source.date), offer.id.c_str());
            QVERIFY2(!offer.network || gpuplan::yaml::isIsoDate(offer.network->source.date),
                offer.id.c_str());
        }
        for (const GpuSpec& gpu : load.catalog->gpus)
            QVERIFY2(!gpu.priceUsd || !gpu.priceSource.date.empty(), gpu.id.c_str());
    }

    void priceSetsHoldTheirOwnPrices()
    {
        const CatalogLoad paper = loadCatalog(shippedDataFiles(kPaperPriceSet));
        QCOMPARE(paper.catalog->priceSet, std::string(kPaperPriceSet));
        QCOMPARE(paper.catalog->cloudOffers.size(), std::size_t { 8 });
        QVERIFY(paper.catalog->systems.empty());
        QCOMPARE(*paper.catalog->findGpu("a100-80gb-sxm")->priceUsd, 19000.0);

        const CatalogLoad current = loadCatalog(shippedDataFiles());
        QCOMPARE(current.catalog->priceSet, std::string(kDefaultPriceSet));
        // 44 offers and 2 campus rates; AWS P4 reserved terms are offers of their own, dated
        // before the June 2025 cut that the on-demand rates follow; Lambda's 2-, 4- and 8-GPU
        // instances are offers of their own too, at their own per-GPU rates (H100 SXM, B200
        // and RTX A6000 at 1, 2, 4 and 8 as Lambda lists them).
        QCOMPARE(current.catalog->cloudOffers.size(), std::size_t { 44 + 2 });
        QCOMPARE(current.catalog->findCloudOffer("lambda-h100-sxm-8x")->gpusPerInstance, 8);
        QVERIFY(current.catalog->findCloudOffer("aws-p4de-24xlarge")->reserved.empty());
        QCOMPARE(current.catalog->findCloudOffer("aws-p4de-24xlarge-reserved")->source.date,
            std::string("2025-03-02"));
        // SXM boards are sold inside HGX/DGX systems, priced whole.
        QVERIFY(!current.catalog->findGpu("h100-80gb-sxm")->priceUsd);
        const SystemSpec* hgx = systemFor("h100-80gb-sxm", 8, current.catalog->systems);
        QVERIFY(hgx);
        QCOMPARE(hgx->id, std::string("hgx-h100-8gpu")); // cheaper than the DGX H100
        QCOMPARE(hgx->priceUsd, 255237.04);
        QVERIFY(hgx->priceSource.kind == PriceKind::Street);
        // The partner cards' street price of 2026, not the launch price few could buy at.
        QCOMPARE(*current.catalog->findGpu("rtx-5090")->priceUsd, 3059.0);
        QVERIFY(current.catalog->findGpu("rtx-5090")->priceSource.kind == PriceKind::Street);
        QCOMPARE(*current.catalog->findGpu("rtx-5090")->priceSource.lowUsd, 1999.0);
        QVERIFY(current.catalog->findCloudOffer("nebius-h200-8x"));
        const CloudOffer* delta = current.catalog->findCloudOffer("access-delta-a100");
        QVERIFY(delta);
        QVERIFY(delta->kind == OfferKind::Allocation);
        QVERIFY(!delta->onDemandUsdPerHour);
        QCOMPARE(delta->applicationLeadDays, 14.0);
    }

    void unknownPriceSetGivesTheSharedTablesOnly()
    {
        QVERIFY(!isPriceSet("2023"));
        const CatalogLoad load = loadCatalog(shippedDataFiles("2023"));
        QVERIFY(load.catalog->cloudOffers.empty());
        QVERIFY(load.catalog->findGpu("rtx-3090"));
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

    // null is a cell the paper reports infeasible; blank one it leaves empty, no figure at all.
    void aBlankReferenceCellIsNoFigureAndNullAnInfeasibleOne()
    {
        const CatalogLoad load = loadCatalog(shippedDataFiles());
        const auto cell = [&](const std::string& model, const std::string& gpu, int count) {
            const auto& cells = load.catalog->reference;
            const auto it = std::find_if(cells.begin(), cells.end(), [&](const auto& r) {
                return r.table == ReferenceMeasurement::Table::Naive && r.modelId == model
                    && r.gpuId == gpu && r.gpuCount == count;
            });
            return it == cells.end() ? nullptr : &*it;
        };
        QVERIFY(!cell("convnext-xlarge-22k", "h100-80gb-sxm", 1));
        QCOMPARE(cell("convnext-xlarge-22k", "h100-80gb-sxm", 2)->days, std::optional { 49.0 });
        const ReferenceMeasurement* infeasible = cell("pythia-1b", "rtx-3090", 1);
        QVERIFY(infeasible && !infeasible->days);
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
        // The shipped tables themselves are unchanged: the current set sells the SXM H100 only
        // inside HGX systems, the paper's set at its Appendix H price.
        QVERIFY(!loadCatalog(shippedDataFiles()).catalog->findGpu("h100-80gb-sxm")->priceUsd);
        QCOMPARE(*loadCatalog(shippedDataFiles(kPaperPriceSet))
                      .catalog->findGpu("h100-80gb-sxm")
                      ->priceUsd,
            30000.0);
    }

    void missingFileIsReportedByName()
    {
        const CatalogLoad load = loadCatalogWithUserFiles({ "/nonexistent/prices.yaml" });
        QVERIFY(!load.ok());
        QCOMPARE(load.issues.front().toString(),
            std::string(
                "/nonexistent/prices.yaml: error: cannot open the file: it does not exist"));
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

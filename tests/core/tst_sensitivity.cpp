// Sensitivity rows (core/sensitivity.h) against a hand-computed case: one GPU (street $1,000,
// 500 W) in a one-slot chassis (quote $200, 500 W), 10 days (the paper's rounding: 9.5-10.5),
// one on-demand offer at $1/hour, electricity $0.20/kWh, PUE 1.5.

#include "core/sensitivity.h"

#include <QTest>

#include <cmath>
#include <memory>

using namespace gpuplan;

namespace {

Scenario tinyScenario()
{
    auto c = std::make_shared<Catalog>();
    GpuSpec g;
    g.id = "g";
    g.boardPowerWatts = 500.0;
    g.priceUsd = 1000.0;
    g.priceSource.kind = PriceKind::Street;
    c->gpus.push_back(g);
    ChassisSpec ch;
    ch.id = "c";
    ch.gpuSlots = 1;
    ch.priceUsd = 200.0;
    ch.basePowerWatts = 500.0;
    ch.priceSource.kind = PriceKind::Quote;
    c->chassis.push_back(ch);
    Workload w;
    w.id = "m";
    w.trainingFlops = 1e18;
    c->workloads.push_back(w);
    ReferenceMeasurement ref;
    ref.modelId = "m";
    ref.gpuId = "g";
    ref.gpuCount = 1;
    ref.days = 10.0;
    c->reference.push_back(ref);
    CloudOffer offer;
    offer.id = "o";
    offer.gpuId = "g";
    offer.onDemandUsdPerHour = 1.0;
    c->cloudOffers.push_back(offer);
    c->defaults.electricityUsdPerKwh = 0.2;
    c->defaults.pue = 1.5;
    Scenario s;
    s.catalog = c;
    s.assumptions = c->defaults;
    s.modelId = "m";
    s.source = SourcePolicy::Paper;
    s.gpuCounts = { 1 };
    return s;
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

} // namespace

class TestSensitivity : public QObject {
    Q_OBJECT

private slots:
    void rowsAgainstAHandComputedCase()
    {
        const Scenario s = tinyScenario();
        const Results point = evaluate(s);
        const auto rows = sensitivity(s, point, 0, std::nullopt);
        // Break-even = price / (cloud - energy) = 1200 / (240 - 72) at the stated values.
        struct Expected {
            std::string input;
            SensitivityMetric metric;
            double lowValue, highValue, metricLow, metricHigh;
        };
        const double perRun = 24.0 * 0.7; // cloud $1/h minus energy 1.5 kW x $0.20, per hour
        const std::vector<Expected> expected {
            { "electricity_usd_per_kwh", SensitivityMetric::BreakEvenRuns, 0.13, 0.30,
                1200.0 / (240.0 - 1.5 * 240.0 * 0.13), 1200.0 / (240.0 - 1.5 * 240.0 * 0.30) },
            { "cloud_rate", SensitivityMetric::BreakEvenRuns, 0.9, 1.1, 1200.0 / (216.0 - 72.0),
                1200.0 / (264.0 - 72.0) },
            { "purchase_price", SensitivityMetric::BreakEvenRuns, 1030.0, 1360.0, 1030.0 / 168.0,
                1360.0 / 168.0 },
            { "pue", SensitivityMetric::BreakEvenRuns, 1.05, 1.725,
                1200.0 / (240.0 - 1.05 * 240.0 * 0.2), 1200.0 / (240.0 - 1.725 * 240.0 * 0.2) },
            { "training_days", SensitivityMetric::BreakEvenRuns, 9.5, 10.5, 1200.0 / (9.5 * perRun),
                1200.0 / (10.5 * perRun) },
            // Per experiment = price x days / (years x 365 x utilisation).
            { "machine_utilization", SensitivityMetric::ExperimentCostUsd, 0.5, 1.0,
                1200.0 * 10.0 / (5.0 * 365.0 * 0.5), 1200.0 * 10.0 / (5.0 * 365.0) },
            { "amortization_years", SensitivityMetric::ExperimentCostUsd, 3.0, 6.0,
                1200.0 * 10.0 / (3.0 * 365.0), 1200.0 * 10.0 / (6.0 * 365.0) },
            { "purchase_price", SensitivityMetric::ExperimentCostUsd, 1030.0, 1360.0,
                1030.0 * 10.0 / 1825.0, 1360.0 * 10.0 / 1825.0 },
            { "training_days", SensitivityMetric::ExperimentCostUsd, 9.5, 10.5,
                1200.0 * 9.5 / 1825.0, 1200.0 * 10.5 / 1825.0 },
        };
        QCOMPARE(rows.size(), expected.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto& row = rows[i];
            const auto& want = expected[i];
            const std::string what = row.input + " " + std::string(toString(row.metric));
            QCOMPARE(row.input, want.input);
            if (row.input == "cloud_rate") // the offer's rate buys one GPU
                QCOMPARE(row.label, std::string("Cloud rate (per GPU)"));
            QVERIFY2(row.metric == want.metric, what.c_str());
            QVERIFY2(near(row.lowValue, want.lowValue), what.c_str());
            QVERIFY2(near(row.highValue, want.highValue), what.c_str());
            QVERIFY2(row.metricLow && near(*row.metricLow, want.metricLow), what.c_str());
            QVERIFY2(row.metricHigh && near(*row.metricHigh, want.metricHigh), what.c_str());
        }
    }

    void noOfferNoBreakEvenRows()
    {
        Scenario s = tinyScenario();
        auto c = std::make_shared<Catalog>(*s.catalog);
        c->cloudOffers.clear();
        s.catalog = c;
        const Results point = evaluate(s);
        const auto rows = sensitivity(s, point, 0, std::nullopt);
        QVERIFY(!rows.empty());
        for (const auto& row : rows)
            QVERIFY(row.metric == SensitivityMetric::ExperimentCostUsd);
        QVERIFY(sensitivity(s, point, 5, std::nullopt).empty());
    }

    // The offer a view's tornado breaks even against: paid and by the hour. An allocation
    // ($0, granted) and a reservation-only offer are passed over, whichever is cheaper; among
    // the rest the cheapest per run, at the cheaper of its on-demand and spot rates.
    void theTornadoBreaksEvenAgainstAPaidHourlyOffer()
    {
        Scenario s = tinyScenario();
        auto c = std::make_shared<Catalog>(*s.catalog);
        CloudOffer granted;
        granted.id = "granted";
        granted.gpuId = "g";
        granted.kind = OfferKind::Allocation;
        granted.onDemandUsdPerHour = 0.001;
        CloudOffer reserved;
        reserved.id = "reserved";
        reserved.gpuId = "g";
        reserved.reserved = { { 1.0, 0.01 } };
        CloudOffer spot;
        spot.id = "spot";
        spot.gpuId = "g";
        spot.onDemandUsdPerHour = 2.0;
        spot.spotUsdPerHour = 0.5;
        c->cloudOffers = { granted, reserved, c->cloudOffers.front(), spot };
        s.catalog = c;
        const Results point = evaluate(s);
        QCOMPARE(point.cloud.size(), std::size_t(4));
        const auto among = [&](std::vector<std::size_t> offers) {
            const auto i = sensitivityOfferAmong(point, 0, offers);
            return i ? point.cloud[*i].offer->id : std::string("none");
        };
        QCOMPARE(among({ 0, 1 }), std::string("none"));
        QCOMPARE(among({ 0, 1, 2 }), std::string("o"));
        QCOMPARE(among({ 0, 1, 2, 3 }), std::string("spot")); // $0.5 x 1.1 a run-hour < $1
        QCOMPARE(sensitivityPricing(point.cloud[3]), std::optional<Pricing>(Pricing::Spot));
        QCOMPARE(sensitivityPricing(point.cloud[2]), std::optional<Pricing>(Pricing::OnDemand));
        QCOMPARE(sensitivityPricing(point.cloud[1]), std::nullopt);
        QCOMPARE(sensitivityOfferAmong(point, 3, { 2 }), std::nullopt); // no such option
    }

    void oneEndThatNeverPaysOffSortsFirst()
    {
        SensitivityRow never { "x", "X", 0.0, 1.0, SensitivityMetric::BreakEvenRuns, 3.0, {} };
        QVERIFY(std::isinf(never.swing()));
        SensitivityRow finite { "y", "Y", 0.0, 1.0, SensitivityMetric::BreakEvenRuns, 3.0, 5.0 };
        QCOMPARE(finite.swing(), 2.0);
    }
};

QTEST_GUILESS_MAIN(TestSensitivity)
#include "tst_sensitivity.moc"

// evaluate() beyond the paper, on a small hand-made catalog: machines sold only as systems,
// campus and allocation offers beside cloud ones, reservations against on-demand for the plan,
// the owning costs in the break-even, and the age of every price.

#include "core/evaluate.h"
#include "core/uncertainty.h"

#include <QTest>

using namespace gpuplan;

namespace {

// One SXM GPU sold only in an 8-GPU system, one card GPU, a 4-slot chassis, a model the
// analytic estimate can time (1e21 FLOPs at 40% of a 1,000 TFLOP/s peak: 28.94 days on one GPU).
std::shared_ptr<Catalog> smallCatalog()
{
    auto c = std::make_shared<Catalog>();
    GpuSpec sxm;
    sxm.id = "sxm";
    sxm.name = "SXM";
    sxm.boardPowerWatts = 700;
    sxm.peakTflops[Precision::BF16] = 1000;
    GpuSpec card = sxm;
    card.id = "card";
    card.name = "Card";
    card.priceUsd = 10000;
    card.priceSource = { "2024-09-21", "a quote", "" };
    c->gpus = { sxm, card };
    SystemSpec hgx;
    hgx.id = "hgx";
    hgx.gpuId = "sxm";
    hgx.gpuCount = 8;
    hgx.priceUsd = 300000;
    hgx.basePowerWatts = 3000;
    hgx.priceSource = { "2026-06-01", "a reseller", "" };
    c->systems = { hgx };
    ChassisSpec box;
    box.id = "box";
    box.gpuSlots = 4;
    box.priceUsd = 5000;
    box.priceSource = { "2026-01-10", "a shop", "" };
    c->chassis = { box };
    Workload w;
    w.id = "model";
    w.trainingFlops = 1e21;
    w.precision = Precision::BF16;
    c->workloads = { w };
    return c;
}

CloudOffer offer(const std::string& id, OfferKind kind, const std::string& gpu, int perInstance)
{
    CloudOffer o;
    o.id = id;
    o.kind = kind;
    o.provider = id;
    o.gpuId = gpu;
    o.gpusPerInstance = perInstance;
    o.source = { "2026-08-28", "a catalog", "" };
    return o;
}

Scenario scenarioOf(std::shared_ptr<const Catalog> c)
{
    Scenario s;
    s.catalog = std::move(c);
    s.modelId = "model";
    s.source = SourcePolicy::Analytic;
    s.today = "2026-11-23";
    return s;
}

const OwnedOption* find(const Results& r, const std::string& gpu, int count)
{
    for (const auto& o : r.options)
        if (o.gpu->id == gpu && o.gpuCount == count)
            return &o;
    return nullptr;
}

const CloudOption* findCloud(const Results& r, const std::string& offerId, int count)
{
    for (const auto& c : r.cloud)
        if (c.offer->id == offerId && c.gpuCount == count)
            return &c;
    return nullptr;
}

} // namespace

class TestOfferKinds : public QObject {
    Q_OBJECT

private slots:
    void sxmGpusAreBoughtOnlyAsSystems()
    {
        const Scenario s = scenarioOf(smallCatalog()); // Results point into its catalog
        const Results r = evaluate(s);
        const OwnedOption* eight = find(r, "sxm", 8);
        QVERIFY(eight);
        QVERIFY(eight->system && !eight->chassis);
        QCOMPARE(eight->machineCostUsd, 300000.0);
        QCOMPARE(eight->powerKw, (8 * 700 + 3000) / 1000.0 * 1.58); // fallback PUE
        QVERIFY(!find(r, "sxm", 4));
        bool said = false;
        for (const auto& u : r.unavailable)
            said |= u.gpuId == "sxm" && u.gpuCount == 4
                && u.reason == UnavailableReason::SoldOnlyAsSystem && u.detail == "8";
        QVERIFY(said);
        // Cards go into the chassis; 8 cards find no chassis.
        QCOMPARE(find(r, "card", 4)->machineCostUsd, 5000.0 + 4 * 10000.0);
        QVERIFY(!find(r, "card", 8));
    }

    // A GPU with no price and no system is listed as unavailable for that reason where the
    // user named it, and left unlisted among all GPUs when only the analytic estimate (which
    // every GPU with a peak has) would time it.
    void aGpuWithoutAPriceIsSaidWhereAskedFor()
    {
        auto c = smallCatalog();
        GpuSpec unpriced = c->gpus.back();
        unpriced.id = "unpriced";
        unpriced.priceUsd.reset();
        c->gpus.push_back(unpriced);
        Scenario s = scenarioOf(c);
        s.gpuCounts = { 1, 2 };
        const auto noPrice = [](const Results& r) {
            int listed = 0;
            for (const auto& u : r.unavailable)
                listed += u.gpuId == "unpriced" && u.reason == UnavailableReason::NoPrice ? 1 : 0;
            return listed;
        };
        QCOMPARE(noPrice(evaluate(s)), 0);
        s.gpuIds = { "unpriced", "card" };
        const Results named = evaluate(s);
        QCOMPARE(noPrice(named), 2);
        QVERIFY(find(named, "card", 1));
    }

    void everyPriceCarriesItsAge()
    {
        const Scenario s = scenarioOf(smallCatalog());
        const Results r = evaluate(s);
        // The card's quote (26 months) is older than its chassis (10 months): it dates the option.
        const OwnedOption* cards = find(r, "card", 4);
        QCOMPARE(cards->priceDate, std::string("2024-09-21"));
        QCOMPARE(*cards->priceAge.months, 26);
        QVERIFY(cards->priceAge.stale);
        const OwnedOption* hgx = find(r, "sxm", 8);
        QCOMPARE(*hgx->priceAge.months, 5);
        QVERIFY(!hgx->priceAge.stale);
        // A card dated after today is stale, and a fresh chassis (10 months) does not hide it.
        auto typo = smallCatalog();
        typo->gpus.back().priceSource.date = "2027-09-21";
        const Results aheadResults = evaluate(scenarioOf(typo));
        const OwnedOption* ahead = find(aheadResults, "card", 4);
        QCOMPARE(ahead->priceDate, std::string("2027-09-21"));
        QVERIFY(*ahead->priceAge.months < 0);
        QVERIFY(ahead->priceAge.stale);
        Scenario undated = scenarioOf(smallCatalog());
        undated.today.clear();
        const Results unaged = evaluate(undated);
        QVERIFY(!unaged.options.front().priceAge.months);
    }

    void campusAndAllocationBesideCloud()
    {
        auto c = smallCatalog();
        CloudOffer cloud = offer("cloud", OfferKind::Cloud, "card", 1);
        cloud.onDemandUsdPerHour = 2.0;
        CloudOffer campus = offer("campus", OfferKind::Campus, "card", 1);
        campus.onDemandUsdPerHour = 0.5;
        campus.queueWaitDays = 2.0;
        CloudOffer grant = offer("grant", OfferKind::Allocation, "card", 1);
        grant.applicationLeadDays = 30.0;
        grant.queueWaitDays = 3.0;
        c->cloudOffers = { cloud, campus, grant };
        Scenario s = scenarioOf(c);
        s.assumptions.plannedRuns = 2;
        const Results r = evaluate(s);
        const double days = 1e21 / (1e15 * 0.4) / 86400; // one GPU
        const CloudOption* alloc = findCloud(r, "grant", 1);
        QVERIFY(alloc);
        QCOMPARE(*alloc->cheapestCostUsd, 0.0);
        QCOMPARE(alloc->cheapestPricing, Pricing::Allocation);
        QVERIFY(qFuzzyCompare(alloc->planCalendarDays, 30.0 + 2 * (days + 3.0)));
        const CloudOption* recharge = findCloud(r, "campus", 1);
        QVERIFY(qFuzzyCompare(*recharge->cheapestCostUsd, 0.5 * days * 24));
        QVERIFY(qFuzzyCompare(recharge->planCalendarDays, 2 * (days + 2.0)));
        // Buying is compared with the cheapest way to pay per run: the campus rate, never the
        // allocation's granted time.
        const OwnedOption* one = find(r, "card", 1);
        QCOMPARE(r.cloud[*one->cheapestCloudIndex].offer->id, std::string("campus"));
    }

    // A provider that puts up to 8 GPUs in one pod at the per-GPU rate (RunPod) rents 4 as one
    // machine; fixed 1-GPU instances (AWS's p5.4xlarge) rent them as 4 machines, which would
    // exchange gradients over the network: flagged. Both pay the rate 4 times.
    void onePodOfSeveralGpusIsOneInstance()
    {
        auto c = smallCatalog();
        CloudOffer pod = offer("pod", OfferKind::Cloud, "card", 1);
        pod.maxGpusPerInstance = 8;
        pod.onDemandUsdPerHour = 2.0;
        CloudOffer single = offer("single", OfferKind::Cloud, "card", 1);
        single.onDemandUsdPerHour = 2.0;
        c->cloudOffers = { pod, single };
        Scenario s = scenarioOf(c);
        s.gpuCounts = { 4 };
        const Results r = evaluate(s);
        const CloudOption* inOnePod = findCloud(r, "pod", 4);
        const CloudOption* apart = findCloud(r, "single", 4);
        QVERIFY(inOnePod && apart);
        QCOMPARE(inOnePod->instances, 1);
        QCOMPARE(inOnePod->ratesBilled, 4);
        QVERIFY(!inOnePod->estimate.hasFlag(EstimateFlag::MultiInstance));
        QCOMPARE(apart->instances, 4);
        QCOMPARE(apart->ratesBilled, 4);
        QVERIFY(apart->estimate.hasFlag(EstimateFlag::MultiInstance));
        const double hours = inOnePod->estimate.days * 24;
        QVERIFY(qFuzzyCompare(*inOnePod->onDemandCostUsd, 2.0 * 4 * hours));
        QVERIFY(qFuzzyCompare(*apart->onDemandCostUsd, *inOnePod->onDemandCostUsd));
    }

    // Machines apart exchange over the network their offer lists (core/instance_network.h):
    // priced there, not flagged; an offer that lists none stays at one machine's time, flagged,
    // and so does a source that timed one machine (the paper's tables).
    void severalInstancesExchangeOverTheNetworkTheyList()
    {
        auto c = smallCatalog();
        Workload& w = c->workloads.front();
        w.parameters = 1'000'000'000; // 4 GB of fp32 gradients
        w.steps = 100'000;
        w.globalBatch = 1024;
        CloudOffer pod = offer("pod", OfferKind::Cloud, "card", 1);
        pod.maxGpusPerInstance = 8;
        pod.onDemandUsdPerHour = 2.0;
        CloudOffer apart = offer("apart", OfferKind::Cloud, "card", 1);
        apart.onDemandUsdPerHour = 2.0;
        apart.network = InstanceNetwork { 100.0, { "2026-08-26", "a page", "" } };
        CloudOffer unlisted = offer("unlisted", OfferKind::Cloud, "card", 1);
        unlisted.onDemandUsdPerHour = 2.0;
        c->cloudOffers = { pod, apart, unlisted };
        Scenario s = scenarioOf(c);
        s.gpuCounts = { 4 };
        const Results r = evaluate(s);
        const CloudOption* onePod = findCloud(r, "pod", 4);
        const CloudOption* overNetwork = findCloud(r, "apart", 4);
        const CloudOption* asOneMachine = findCloud(r, "unlisted", 4);
        QVERIFY(onePod && overNetwork && asOneMachine);
        QCOMPARE(overNetwork->instances, 4);
        QVERIFY(!overNetwork->estimate.hasFlag(EstimateFlag::MultiInstance));
        QVERIFY(overNetwork->estimate.hasFlag(EstimateFlag::OverNetwork));
        QVERIFY(!asOneMachine->estimate.hasFlag(EstimateFlag::OverNetwork));
        QVERIFY(asOneMachine->estimate.hasFlag(EstimateFlag::MultiInstance));
        // "card" has no interconnect listed: one machine's estimate leaves the exchange out.
        QVERIFY(onePod->estimate.hasFlag(EstimateFlag::PerfectScaling));
        QCOMPARE(asOneMachine->estimate.days, onePod->estimate.days);
        QVERIFY(!overNetwork->estimate.hasFlag(EstimateFlag::PerfectScaling));
        // The slow end: the compute at the utilisation's low end plus, none of it hidden, a ring
        // all-reduce of 4 GB between 4 ranks at 100 Gbit/s x 0.32 = 4 GB/s every step:
        // 2 x 3/4 x 4e9 / 4e9 = 1.5 s, 150,000 s over the run.
        const double lowUtilization = assumptionRange(AssumptionId::AnalyticUtilization, 0.4).low;
        const double computeDays = 1e21 / (4 * 1e15 * lowUtilization) / 86400;
        QVERIFY(qFuzzyCompare(overNetwork->estimate.daysHigh, computeDays + 150000.0 / 86400));
        // At the centre, 6.25 GB/s: 0.96 s a step, 1.11 days if none is hidden.
        QVERIFY2(overNetwork->estimate.note.find(
                     "at 6.25 GB/s (each instance's listed 100 Gbit/s network, half of it over "
                     "TCP), 1.11 of ")
                != std::string::npos,
            overNetwork->estimate.note.c_str());
        QVERIFY(overNetwork->estimate.days > onePod->estimate.days);
        QVERIFY(*overNetwork->onDemandCostUsd > *onePod->onDemandCostUsd);
        // The paper's tables timed one machine: flagged even where a network is listed.
        ReferenceMeasurement published;
        published.table = ReferenceMeasurement::Table::Optimal;
        published.modelId = "model";
        published.gpuId = "card";
        published.gpuCount = 4;
        published.days = 20.0;
        c->reference = { published };
        s.source = SourcePolicy::Paper;
        const Results paper = evaluate(s);
        const CloudOption* timedOnOne = findCloud(paper, "apart", 4);
        QVERIFY(timedOnOne);
        QCOMPARE(timedOnOne->estimate.days, 20.0);
        QVERIFY(timedOnOne->estimate.hasFlag(EstimateFlag::MultiInstance));
        // `best` prices the network with the analytic model beside the published time, and
        // says whose compute it is.
        s.source = SourcePolicy::Best;
        const Results best = evaluate(s);
        const CloudOption* analytic = findCloud(best, "apart", 4);
        QVERIFY(analytic && analytic->estimate.source == EstimateSource::Analytic);
        QVERIFY(analytic->estimate.hasFlag(EstimateFlag::OverNetwork));
        QVERIFY(analytic->estimate.note.find("the compute is the analytic model's, not the "
                                             "measured or published time of one machine")
            != std::string::npos);
        QVERIFY(findCloud(best, "pod", 4));
        QCOMPARE(findCloud(best, "pod", 4)->estimate.days, 20.0);
        // A precision without a peak: neither source that prices the network has an estimate,
        // so the published time of one machine stands, flagged, rather than the offer going
        // untimed.
        c->workloads.front().precision = Precision::FP16;
        const Results noPeak = evaluate(s);
        const CloudOption* fallback = findCloud(noPeak, "apart", 4);
        QVERIFY(fallback);
        QVERIFY(fallback->estimate.source == EstimateSource::Paper);
        QVERIFY(fallback->estimate.hasFlag(EstimateFlag::MultiInstance));
        QVERIFY(!fallback->estimate.hasFlag(EstimateFlag::OverNetwork));
        // A state that fits four 24 GB cards only by offloading (6.9e9 x 16 bytes = 110 GB):
        // no analytic time, but the paper trained it on one machine; that time stands,
        // flagged, as for one machine of these GPUs (it had been left "not rented").
        c->workloads.front().precision = Precision::BF16;
        c->workloads.front().parameters = 6'900'000'000;
        for (GpuSpec& g : c->gpus)
            g.memoryGb = 24.0;
        const Results offloaded = evaluate(s);
        const CloudOption* offloadedApart = findCloud(offloaded, "apart", 4);
        QVERIFY(offloadedApart);
        QVERIFY(offloadedApart->estimate.source == EstimateSource::Paper);
        QCOMPARE(offloadedApart->estimate.days, 20.0);
        QVERIFY(offloadedApart->estimate.hasFlag(EstimateFlag::MultiInstance));
        // Under `analytic` nothing times it: left out as not fitting, as one machine is.
        s.source = SourcePolicy::Analytic;
        const Results analyticOnly = evaluate(s);
        QVERIFY(!findCloud(analyticOnly, "apart", 4));
        bool said = false;
        for (const auto& u : analyticOnly.untimedOffers)
            said |= u.offer->id == "apart" && u.stateDoesNotFit;
        QVERIFY(said);
    }

    // GCP's V100s come in VMs of 1, 2, 4 or 8: 2 and 4 are one machine, 3 a VM of 2 and one of
    // 1, flagged as machines apart; each GPU billed.
    void onlySomeCountsInOneInstance()
    {
        auto c = smallCatalog();
        CloudOffer vm = offer("vm", OfferKind::Cloud, "card", 1);
        vm.instanceGpuCounts = { 1, 2, 4, 8 };
        vm.onDemandUsdPerHour = 2.0;
        c->cloudOffers = { vm };
        Scenario s = scenarioOf(c);
        s.gpuCounts = { 2, 3, 4 };
        const Results r = evaluate(s);
        for (int gpus : { 2, 4 }) {
            const CloudOption* one = findCloud(r, "vm", gpus);
            QVERIFY(one);
            QCOMPARE(one->instances, 1);
            QCOMPARE(one->ratesBilled, gpus);
            QVERIFY(!one->estimate.hasFlag(EstimateFlag::MultiInstance));
        }
        const CloudOption* three = findCloud(r, "vm", 3);
        QVERIFY(three);
        QCOMPARE(three->instances, 2);
        QCOMPARE(three->ratesBilled, 3);
        QVERIFY(three->estimate.hasFlag(EstimateFlag::MultiInstance));
    }

    void reservationAgainstOnDemandForThePlan()
    {
        auto c = smallCatalog();
        CloudOffer o = offer("reserved", OfferKind::Cloud, "card", 1);
        o.onDemandUsdPerHour = 3.0;
        o.reserved = { { 1.0, 1.5 } };
        c->cloudOffers = { o };
        Scenario s = scenarioOf(c);
        const double days = 1e21 / (1e15 * 0.4) / 86400;
        const double onDemandRun = 3.0 * days * 24;
        const double term = 1.5 * 8760;
        for (int runs : { 1, 6, 10, 20 }) {
            s.assumptions.plannedRuns = runs;
            const Results r = evaluate(s);
            const CloudOption* rent = findCloud(r, "reserved", 1);
            QCOMPARE(rent->commitments.size(), std::size_t { 1 });
            const Commitment& k = rent->commitments.front();
            QVERIFY(qFuzzyCompare(k.termCostUsd, term));
            QVERIFY(qFuzzyCompare(*k.breakEvenRuns, term / onDemandRun)); // 6.3 runs
            // Its range: the term over a run's on-demand cost at the long and the short end of
            // the analytic days (25 % and 55 % utilisation); both rates move together, +-10 %.
            const double longRun = 3.0 * 1e21 / (1e15 * 0.25) / 86400 * 24;
            const double shortRun = 3.0 * 1e21 / (1e15 * 0.55) / 86400 * 24;
            QVERIFY(r.hasRanges && k.breakEvenRunsRange);
            QVERIFY(qFuzzyCompare(k.breakEvenRunsRange->low, term / longRun)); // 4.0 runs
            QVERIFY(qFuzzyCompare(k.breakEvenRunsRange->high, term / shortRun)); // 8.7 runs
            QVERIFY(qFuzzyCompare(k.runsInTerm, 365.0 / days)); // 12.6 runs fit
            // 20 runs take two terms one after another: $26,280 against $41,667 on demand.
            QCOMPARE(k.termsForPlan, runs == 20 ? 2 : 1);
            QCOMPARE(k.beatsOnDemandForPlan, runs >= 10);
            // The verdict at each cost corner, with the runs that fit into a term there: at the
            // short days (low cost) it breaks even at 8.7 runs and 17.4 fit, at the long days
            // (high cost) at 4.0 runs and 7.9 fit, so 10 runs take two terms there ($26,280
            // against $33,333 on demand: still cheaper). 6 runs beat on-demand only at the high
            // corner: the ranges leave them open; 1 run never beats it.
            QCOMPARE(*k.beatsOnDemandAtLowCost, runs >= 10);
            QCOMPARE(*k.beatsOnDemandAtHighCost, runs >= 6);
            QCOMPARE(rent->cheapestPricing, Pricing::OnDemand); // still the pay-as-you-go price
        }
    }

    // Terms listed apart from their instance's on-demand rate (AWS's P4: each rate with its own
    // date) are weighed against it: same provider, GPU, GPUs per instance and region. Another
    // region's, or another provider's, is not the instance's rate.
    void termsAreWeighedAgainstTheirInstancesOnDemandOffer()
    {
        auto c = smallCatalog();
        CloudOffer hourly = offer("hourly", OfferKind::Cloud, "card", 1);
        hourly.provider = "AWS";
        hourly.region = "us-east-1";
        hourly.onDemandUsdPerHour = 3.0;
        CloudOffer terms = offer("terms", OfferKind::Cloud, "card", 1);
        terms.provider = "AWS";
        terms.region = "us-east-1";
        terms.reserved = { { 1.0, 1.5 } };
        terms.source.date = "2025-03-02";
        CloudOffer elsewhere = terms;
        elsewhere.id = "elsewhere";
        elsewhere.region = "eu-west-1";
        c->cloudOffers = { hourly, terms, elsewhere };
        Scenario s = scenarioOf(c);
        s.assumptions.plannedRuns = 10;
        const Results r = evaluate(s);
        const double onDemandRun = 3.0 * 1e21 / (1e15 * 0.4) / 86400 * 24;
        const Commitment& k = findCloud(r, "terms", 1)->commitments.front();
        QCOMPARE(k.onDemandOfferId, std::string("hourly"));
        QVERIFY(qFuzzyCompare(*k.breakEvenRuns, 1.5 * 8760 / onDemandRun)); // 6.3 runs
        QVERIFY(k.beatsOnDemandForPlan); // $13,140 against 10 x $2,083
        QVERIFY(k.breakEvenRunsRange);
        const Commitment& other = findCloud(r, "elsewhere", 1)->commitments.front();
        QVERIFY(other.onDemandOfferId.empty());
        QCOMPARE(other.breakEvenRuns, std::nullopt);
        QVERIFY(findCloud(r, "terms", 1)->cheapestIsCommitment); // still an offer of terms only
    }

    // Reservations only: the plan pays whole terms, the term that costs it least in all, and a
    // term holds the runs that fit back to back or that the run rate brings before it ends (a
    // run's share of a term had chosen the 3-year term for 2 runs and priced them at 2 shares).
    void reservationsOnlyTotalWholeTerms()
    {
        auto c = smallCatalog();
        CloudOffer o = offer("terms", OfferKind::Cloud, "card", 1);
        o.reserved = { { 1.0, 2.0 }, { 3.0, 1.4 } };
        c->cloudOffers = { o };
        Scenario s = scenarioOf(c);
        const double oneYear = 2.0 * 8760; // $17,520
        const double threeYears = 1.4 * 3 * 8760; // $36,792
        struct Case {
            int runs;
            double runsPerMonth;
            double total;
            double years;
        };
        // 12.6 runs fit a year back to back and 37.8 three years (28.9 days a run).
        for (const Case& k : { Case { 2, 1.0, oneYear, 1.0 }, // one 1-year term
                 Case { 30, 1.0, threeYears, 3.0 }, // 12 a year: 3 x $17,520 > $36,792
                 Case { 30, 0.5, 2 * threeYears, 3.0 }, // 18 per 3 years: 2 terms, not 5 x 1 yr
                 Case { 12, 0.0, oneYear, 1.0 } }) { // rate 0: back to back, 12 of 12.6 fit
            s.assumptions.plannedRuns = k.runs;
            s.assumptions.runsPerMonth = k.runsPerMonth;
            const Results r = evaluate(s);
            const CloudOption* rent = findCloud(r, "terms", 1);
            QVERIFY(rent && rent->cheapestIsCommitment);
            QVERIFY2(qFuzzyCompare(rent->planTotalUsd, k.total),
                qPrintable(QString::number(rent->planTotalUsd)));
            QCOMPARE(*rent->cheapestReservedYears, k.years);
            QCOMPARE(rent->cheapestPricing, Pricing::Reserved);
            // A planned run's share of the whole terms, beside pay-as-you-go costs per run.
            QVERIFY(rent->termsPerPlannedRunUsd);
            QVERIFY(qFuzzyCompare(*rent->termsPerPlannedRunUsd, k.total / k.runs));
        }
    }

    void owningCostsMoveTheBreakEven()
    {
        auto c = smallCatalog();
        CloudOffer cloud = offer("cloud", OfferKind::Cloud, "card", 1);
        cloud.onDemandUsdPerHour = 2.0;
        c->cloudOffers = { cloud };
        Scenario s = scenarioOf(c);
        s.assumptions.pue = 1.0;
        const Results before = evaluate(s);
        const OwnedOption plain = *find(before, "card", 1);
        s.assumptions.resaleFraction = 0.2;
        s.assumptions.machineRoomUsdPerMonth = 100.0;
        const Results after = evaluate(s);
        const OwnedOption owned = *find(after, "card", 1);
        QCOMPARE(owned.netCapexUsd, 0.8 * plain.machineCostUsd);
        QVERIFY(qFuzzyCompare(
            owned.buyCostPerRunUsd, plain.energyCostUsd + 100.0 / owned.runsPerMonth));
        const double cloudPerRun = 2.0 * owned.estimate.days * 24;
        QVERIFY(qFuzzyCompare(
            *owned.breakEvenRuns, owned.netCapexUsd / (cloudPerRun - owned.buyCostPerRunUsd)));
        QVERIFY(*owned.breakEvenRuns != *plain.breakEvenRuns);
    }
};

QTEST_GUILESS_MAIN(TestOfferKinds)
#include "tst_offer_kinds.moc"

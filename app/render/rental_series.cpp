#include "app/render/rental_series.h"

#include "app/common/cloud_columns.h"
#include "app/common/format.h"
#include "app/common/wording.h"
#include "app/render/planner_charts.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace gpuplan::render {

namespace {

const QColor kOnDemandColor(0x44, 0x44, 0x44);
const QColor kSpotColor(0x88, 0x55, 0xAA);
const QColor kReservedColor(0x33, 0x66, 0x99);
const QColor kCampusColor(0x00, 0x80, 0x60);
const QColor kAllocationColor(0xAA, 0x66, 0x00);

constexpr std::size_t kLabelledOffers = 3; // the cheapest few of each series are named

// One way to pay for rented GPUs, and what one run costs that way.
struct Way {
    QString name;
    Marker marker;
    bool hollow;
    QColor color;
    // One run's cost at `plannedRuns`, the plan's runs (a reservation's whole terms are
    // shared by them).
    std::optional<double> (*cost)(const CloudOption&, int plannedRuns);
    double (*days)(const CloudOption&);
    Interval (*daysRange)(const CloudOption&);
    QString pricing;
    // The cost's range where the results carry ranges and this way of paying has one.
    std::optional<Interval> (*costRange)(const CloudOption&);
};

std::optional<double> cloudOnDemand(const CloudOption& c, int)
{
    return c.offer->kind == OfferKind::Cloud ? c.onDemandCostUsd : std::nullopt;
}
std::optional<double> spot(const CloudOption& c, int)
{
    return c.spotCostUsd;
}
// The whole terms of the term that costs the plan least, shared by its runs (core's figure):
// the term's hourly rate times one run's hours left out the hours paid for and not used, and
// drew AWS p4de's 5-year term at $3.2k a run where a 10-run plan pays $65k a run.
std::optional<double> reservedTerms(const CloudOption& c, int plannedRuns)
{
    if (!c.reservedTermsPlanUsd || plannedRuns < 1)
        return std::nullopt;
    return *c.reservedTermsPlanUsd / plannedRuns;
}
std::optional<double> campus(const CloudOption& c, int)
{
    return c.offer->kind == OfferKind::Campus ? c.onDemandCostUsd : std::nullopt;
}
std::optional<double> allocation(const CloudOption& c, int)
{
    return c.offer->kind == OfferKind::Allocation ? std::optional<double>(0.0) : std::nullopt;
}
std::optional<Interval> onDemandRange(const CloudOption& c)
{
    return c.offer->kind != OfferKind::Allocation ? c.onDemandCostRange : std::nullopt;
}
std::optional<Interval> spotRange(const CloudOption& c)
{
    return c.spotCostRange;
}
std::optional<Interval> reservedTermsRange(const CloudOption& c)
{
    // An offer of terms only has the plan total's range; terms beside an hourly rate have none.
    if (!c.cheapestIsCommitment)
        return std::nullopt;
    return views::cheapestPerRunShownRange(c);
}
std::optional<Interval> noRange(const CloudOption&)
{
    return std::nullopt;
}
double runDays(const CloudOption& c)
{
    return c.estimate.days;
}
double spotDays(const CloudOption& c)
{
    return c.spotDays;
}
Interval runDaysRange(const CloudOption& c)
{
    return c.daysRange;
}
Interval spotDaysRange(const CloudOption& c)
{
    return c.spotDaysRange;
}

const Way kWays[] = {
    { QStringLiteral("Cloud, on-demand"), Marker::Triangle, false, kOnDemandColor, cloudOnDemand,
        runDays, runDaysRange, QStringLiteral("on-demand"), onDemandRange },
    { QStringLiteral("Cloud, spot"), Marker::Star, false, kSpotColor, spot, spotDays, spotDaysRange,
        QStringLiteral("spot, with restarts"), spotRange },
    { QStringLiteral("Cloud, reserved"), Marker::Pentagon, true, kReservedColor, reservedTerms,
        runDays, runDaysRange,
        QStringLiteral("reserved (its whole terms shared by the planned runs)"),
        reservedTermsRange },
    { QStringLiteral("Campus cluster"), Marker::Square, true, kCampusColor, campus, runDays,
        runDaysRange, QStringLiteral("campus recharge rate"), onDemandRange },
    { QStringLiteral("Allocation (no cash)"), Marker::Diamond, true, kAllocationColor, allocation,
        runDays, runDaysRange, QStringLiteral("allocation"), noRange },
};

QString tooltip(const CloudOption& c, const Way& way, double cost, double days)
{
    QStringList lines;
    lines << rentalLabel(c) + QStringLiteral(", ") + way.pricing;
    lines << QStringLiteral("%1, %2 per run").arg(views::formatDays(days), views::formatUsd(cost));
    if (c.offer->applicationLeadDays > 0 || c.waitDaysPerRun > 0)
        lines << QStringLiteral("Apply %1 ahead; %2 in the queue per run")
                     .arg(views::formatQuantity(c.offer->applicationLeadDays, Unit::Days),
                         views::formatQuantity(c.waitDaysPerRun, Unit::Days));
    lines << QStringLiteral("Rate as of %1, %2")
                 .arg(views::priceDateText(c.offer->source.date, c.rateAge),
                     QString::fromStdString(c.offer->source.source));
    if (c.rateAge.stale)
        lines << views::staleRateNote();
    return lines.join(QLatin1Char('\n'));
}

void labelCheapest(ChartSeries& series, const std::vector<QString>& labels)
{
    std::vector<std::size_t> order(series.points.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
        [&](std::size_t a, std::size_t b) { return series.points[a].y < series.points[b].y; });
    for (std::size_t k = 0; k < order.size() && k < kLabelledOffers; ++k)
        series.points[order[k]].label = labels[order[k]];
}

// The series of one way to pay: every offer the filter shows, or its cheapest per GPU and count.
ChartSeries seriesOf(const Results& r, const Way& way, const CloudFilter& filter)
{
    ChartSeries series { way.name, ChartSeries::Kind::Scatter, way.marker, way.hollow, way.color,
        {} };
    const int runs = r.assumptions.plannedRuns;
    std::map<std::pair<std::string, int>, std::size_t> cheapest; // (GPU, count) -> cloud index
    std::vector<std::size_t> drawn;
    for (std::size_t i = 0; i < r.cloud.size(); ++i) {
        const CloudOption& c = r.cloud[i];
        const auto cost = way.cost(c, runs);
        if (!cost || !filter.shows(c))
            continue;
        if (filter.everyOffer) {
            drawn.push_back(i);
            continue;
        }
        const auto key = std::make_pair(c.gpu->id, c.gpuCount);
        const auto found = cheapest.find(key);
        if (found == cheapest.end() || *cost < *way.cost(r.cloud[found->second], runs))
            cheapest[key] = i;
    }
    for (const auto& [key, index] : cheapest)
        drawn.push_back(index);
    std::sort(drawn.begin(), drawn.end());
    std::vector<QString> labels;
    for (std::size_t i : drawn) {
        const CloudOption& c = r.cloud[i];
        const double cost = *way.cost(c, runs);
        const double days = way.days(c);
        ChartPoint point { days, cost, {}, tooltip(c, way, cost, days), PeakWarning::None, -1,
            static_cast<int>(i), std::nullopt, std::nullopt };
        if (r.hasRanges && c.estimate.days > 0.0) {
            const Interval daysRange = way.daysRange(c);
            point.xRange = ValueRange { daysRange.low, daysRange.high };
            if (const auto range = way.costRange(c))
                point.yRange = ValueRange { range->low, range->high };
        }
        series.points.push_back(point);
        labels.push_back(QString::fromStdString(c.offer->provider) + QLatin1Char(' ')
            + views::formatMachine(c.gpuCount, withoutMemorySize(c.gpu->name)));
    }
    labelCheapest(series, labels);
    return series;
}

} // namespace

bool CloudFilter::shows(const CloudOption& c) const
{
    if (!kinds.empty() && !kinds.count(c.offer->kind))
        return false;
    if (!providers.empty() && !providers.count(c.offer->provider))
        return false;
    if (!regions.empty() && !regions.count(c.offer->region))
        return false;
    // A rate dated after today is no younger than the limit: it is a stale rate.
    if (maxAgeMonths
        && (!c.rateAge.months || *c.rateAge.months > *maxAgeMonths || *c.rateAge.months < 0))
        return false;
    return true;
}

ChartSeries addRentalSeries(ChartData& chart, const Results& r, const CloudFilter& filter)
{
    ChartSeries allocations;
    for (const Way& way : kWays) {
        ChartSeries series = seriesOf(r, way, filter);
        if (way.cost == allocation)
            allocations = std::move(series);
        else if (!series.points.empty())
            chart.series.push_back(std::move(series));
    }
    return allocations;
}

void placeAllocations(ChartData& chart, ChartSeries& allocations, AxesFitted fitted)
{
    if (allocations.points.empty() || chart.y.log != (fitted == AxesFitted::Yes))
        return;
    // $0 has no place on a log axis: the points sit just above the axis floor, and the legend
    // and tooltip say what they cost. A linear axis has a $0 (until 2026-11-28 they sat 3% above
    // the padded floor there too, below the $0 tick).
    if (chart.y.log) {
        const double floor = chart.y.min * std::pow(chart.y.max / chart.y.min, 0.03);
        for (auto& p : allocations.points)
            p.y = floor;
        allocations.name = QStringLiteral("Allocation ($0, on the floor)");
    }
    chart.series.push_back(std::move(allocations));
    allocations.points.clear();
}

QString rentalNote(const Results& r, const CloudFilter& filter, int shown)
{
    int ways = 0;
    for (const CloudOption& c : r.cloud)
        for (const Way& way : kWays)
            ways += way.cost(c, r.assumptions.plannedRuns) ? 1 : 0;
    if (shown >= ways)
        return {};
    return QStringLiteral("Renting: %1 of %2 prices shown (%3); the CSV export lists every offer.")
        .arg(shown)
        .arg(ways)
        .arg(filter.everyOffer
                ? QStringLiteral("filtered")
                : QStringLiteral("the cheapest per GPU and count of each way to rent"));
}

} // namespace gpuplan::render

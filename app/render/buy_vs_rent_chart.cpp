#include "app/render/buy_vs_rent_chart.h"

#include "app/common/format.h"
#include "app/common/option_columns.h"
#include "app/common/wording.h"
#include "app/render/axis_range.h"
#include "app/render/planner_charts.h"
#include "app/render/range_marks.h"
#include "core/costing/break_even.h"
#include "core/costing/plan.h"
#include "core/costing/plan_verdict.h"
#include "core/costing/reservation.h"

#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace gpuplan::render {

namespace {

constexpr int kMinRuns = 10;
constexpr int kMaxRuns = 500;
const QColor kBuyColor(0x00, 0x72, 0xB2);
const QColor kBreakEvenColor(0x00, 0x80, 0x00);
const QColor kRentColors[]
    = { QColor(0xD5, 0x5E, 0x00), QColor(0xCC, 0x79, 0xA7), QColor(0x00, 0x9E, 0x73),
          QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9), QColor(0x44, 0x44, 0x44) };

QString number(double value, int decimals)
{
    static const QLocale english(QLocale::English, QLocale::UnitedStates);
    return english.toString(value, 'f', decimals);
}

// Enough runs to show the planned ones and every break-even with room after it.
int runsToShow(const Results& r, const std::vector<OfferBreakEven>& breakEvens, int requested)
{
    if (requested > 0)
        return requested;
    double runs = std::max(kMinRuns, r.assumptions.plannedRuns);
    for (const auto& b : breakEvens)
        if (b.runs)
            runs = std::max(runs, std::ceil(*b.runs * 1.5));
    return static_cast<int>(std::min<double>(runs, kMaxRuns));
}

// A figure's range where the results carry ranges (Scenario::ranges), else none.
template <typename Range> std::optional<Range> rangeIf(const Results& r, const Range& range)
{
    return r.hasRanges ? std::optional<Range>(range) : std::nullopt;
}
template <typename Range>
std::optional<Range> rangeIf(const Results& r, const std::optional<Range>& range)
{
    return r.hasRanges ? range : std::nullopt;
}

// Owning costs more than the price and the electricity: resale, hosting, support or staff (F&A
// on the price, where the machine is supplies, is not an owning cost).
bool hasOwningCosts(const OwnedOption& o)
{
    return o.owning.resaleUsd > 0.0 || o.owning.monthlyUsd > 0.0;
}

// When buying pays off: in runs and, with `months`, in months at the machine's run rate.
struct BreakEvenWhen {
    std::optional<double> runs; // nullopt: renting stays cheaper per run
    std::optional<double> months;
    bool withinLifespan = false;
    std::optional<BreakEvenRange> range;
};

// One sentence: "Buying X pays off from run 7 (break-even after 6.2 runs, about 9 months at 1 run
// a month) against Y at $Z per run."; a break-even past the machine's life (`lifespanYears`) is
// said to be one it is retired before reaching.

QString breakEvenSentence(const Results& r, const OwnedOption& o, const QString& against,
    double costPerRun, const BreakEvenWhen& when)
{
    const double lifespanYears = r.assumptions.amortizationYears;
    const QString machine = shortMachineLabel(o);
    // A rental's price with F&A where the sponsor's rules put it on renting: "$7,347 per run"
    // read as the offer's own price, which the budget quotes as $4,898 before indirect costs.
    const bool withIndirect = r.assumptions.indirectRate > 0.0
        && r.indirectRules.carries(BudgetCategory::ComputingServices);
    const QString price = QStringLiteral("%1 at %2 per run%3")
                              .arg(against, views::formatUsd(costPerRun),
                                  withIndirect ? QStringLiteral(" with F&A") : QString());
    if (!when.runs)
        return QStringLiteral("Renting stays cheaper than buying %1: %2 costs less than running "
                              "the machine costs per run (%3 in %4).")
            .arg(machine, price, views::formatUsd(o.buyCostPerRunUsd),
                hasOwningCosts(o)
                    ? QStringLiteral("electricity and the owning costs of a run's months")
                    : QStringLiteral("electricity"));
    const double runs = *when.runs;
    const bool pastLife = when.months && !when.withinLifespan;
    QString text
        = QStringLiteral("Buying %1 %2 from run %3 (break-even after %4")
              .arg(machine, pastLife ? QStringLiteral("would pay off") : QStringLiteral("pays off"),
                  number(std::floor(runs) + 1.0, 0),
                  countOf(runs, 1, QStringLiteral("run"), QStringLiteral("runs")));
    // The core caps the run rate at what the machine can run back to back.
    // The months name their run rate: a report's grant plan may spread its runs more thinly.
    if (when.months)
        text += (*when.months < 1.0 ? QStringLiteral(", under a month")
                                    : QStringLiteral(", about ")
                            + countOf(std::round(*when.months), 0, QStringLiteral("month"),
                                QStringLiteral("months")))
            + QStringLiteral(" at ")
            + runRateText(o.runsPerMonth)
            // Below the rate the user set, where runs this long fit no more often.
            + (o.runsPerMonth >= runCapacityPerMonth(o.estimate.days) * (1.0 - 1e-9)
                    ? QStringLiteral(", as many as fit back to back")
                    : QString());
    text += QStringLiteral(") against ") + price;
    if (pastLife)
        text += QStringLiteral("; that is past the machine's %1-year life, so at this run rate "
                               "it is retired before buying pays off")
                    .arg(lifespanYears);
    // How firm that is: every input at the end that favours buying, then renting.
    if (when.range)
        text += QStringLiteral("; with every input at either end of its range, it ")
            + views::breakEvenRangeText(*when.range);
    return text + QLatin1Char('.');
}

// A cumulative cost line: `capex` up front and `perRun` for each run. With ranges, the band
// around it runs from every input at its low end to every input at its high end (capex and
// the cost per run move the same way with each input, so the ends add).
ChartSeries curve(const QString& name, ChartSeries::Kind kind, const QColor& color, double capex,
    double perRun, int maxRuns, bool buy, std::optional<Interval> capexRange = std::nullopt,
    std::optional<Interval> perRunRange = std::nullopt)
{
    ChartSeries s;
    s.name = name;
    s.kind = kind;
    s.color = color;
    s.labelsMayCross = true; // the break-even labels sit where these lines cross
    const bool band = perRunRange && (!buy || capexRange);
    const Interval capexEnds = capexRange.value_or(Interval { capex, capex });
    for (const auto& p : buyVsRentCurve(capex, buy ? perRun : 0.0, buy ? 0.0 : perRun, maxRuns)) {
        ChartPoint point;
        point.x = p.runs;
        point.y = buy ? p.buyUsd : p.rentUsd;
        if (band)
            point.yRange = ValueRange { (buy ? capexEnds.low : 0.0) + p.runs * perRunRange->low,
                (buy ? capexEnds.high : 0.0) + p.runs * perRunRange->high };
        point.tooltip
            = QStringLiteral("%1 after %2: %3")
                  .arg(name, countOf(p.runs, 0, QStringLiteral("run"), QStringLiteral("runs")),
                      views::formatUsd(point.y));
        s.points.push_back(point);
    }
    return s;
}

// A reservation's cumulative cost: its whole term is paid up front however few runs use it, and
// another term starts when the runs outgrow it (core/costing/reservation.h: at `runsPerMonth`, a
// term holds the runs that come before it ends). Drawn as steps, so that a commitment never looks
// like a pay-per-run price (a run's share of the term had drawn a line from $0).
ChartSeries reservationSteps(const QString& name, const QColor& color, const Commitment& term,
    double runsPerMonth, int maxRuns)
{
    ChartSeries s;
    s.name = name;
    s.kind = ChartSeries::Kind::DashedLine;
    s.color = color;
    s.labelsMayCross = true;
    const double perTerm = runsPerReservationTerm(term.runsInTerm, term.years, runsPerMonth);
    if (!(perTerm > 0.0))
        return s;
    const auto add = [&](double runs, double terms) {
        ChartPoint point;
        point.x = runs;
        point.y = terms * term.termCostUsd;
        point.tooltip
            = QStringLiteral("%1: %2 for up to %3")
                  .arg(name, views::formatUsd(point.y),
                      countOf(terms * perTerm, 1, QStringLiteral("run"), QStringLiteral("runs")));
        s.points.push_back(point);
    };
    double terms = 1.0;
    add(0.0, terms);
    while (terms * perTerm < maxRuns) {
        add(terms * perTerm, terms);
        terms += 1.0;
        add((terms - 1.0) * perTerm, terms);
    }
    add(maxRuns, terms);
    return s;
}

} // namespace

QString countOf(double value, int decimals, const QString& singular, const QString& plural)
{
    const QString shown = number(value, decimals);
    return shown + QLatin1Char(' ') + (shown == QLatin1String("1") ? singular : plural);
}

QString runRateText(double runsPerMonth)
{
    // Two significant digits below one run a month (a rate capped at what fits back to back
    // can be 0.013), so that the months it gives can be checked against it.
    int decimals = runsPerMonth == std::floor(runsPerMonth) ? 0 : 2;
    if (runsPerMonth > 0.0 && runsPerMonth < 1.0)
        decimals = std::max(2, 1 - static_cast<int>(std::floor(std::log10(runsPerMonth))));
    return countOf(runsPerMonth, decimals, QStringLiteral("run"), QStringLiteral("runs"))
        + QStringLiteral(" a month");
}

std::vector<OfferBreakEven> offerBreakEvens(
    const Results& r, std::size_t optionIndex, const std::vector<std::size_t>& cloudIndices)
{
    std::vector<OfferBreakEven> out;
    if (optionIndex >= r.options.size())
        return out;
    for (std::size_t index : cloudIndices)
        for (const auto& b : r.options[optionIndex].breakEvens)
            if (b.cloudIndex == index)
                out.push_back(b);
    return out;
}

namespace {
// An offer's label among others shown with it: where another has the same provider and GPUs
// (AWS's p5.48xlarge and eight p5.4xlarge instances both rent 8×H100), its provider and
// instance instead, or the two read as one offer stated twice.
QString rentalLabelAmong(
    const Results& r, std::size_t cloudIndex, const std::vector<std::size_t>& shown)
{
    const CloudOption& c = r.cloud[cloudIndex];
    const QString label = rentalLabel(c);
    const bool shared = std::any_of(shown.begin(), shown.end(), [&](std::size_t other) {
        return other != cloudIndex && other < r.cloud.size() && r.cloud[other].offer != c.offer
            && rentalLabel(r.cloud[other]) == label;
    });
    if (!shared)
        return label;
    // Named by provider and instance instead ("AWS p5.4xlarge (1x H100 SXM) × 8"), times the
    // instance's rate paid, which a pod of 8 at the per-GPU rate pays 8 times too.
    return QString::fromStdString(c.offer->provider + " " + c.offer->instance)
        + (c.ratesBilled > 1 ? QStringLiteral(" \u00D7 %1").arg(c.ratesBilled) : QString());
}
// A break-even marker's offer, short: its provider ("RunPod"), or provider and instance where
// another offer shown has the same provider and GPUs (both AWS 8×H100 markers read "vs AWS").
QString markerOfferName(
    const Results& r, std::size_t cloudIndex, const std::vector<std::size_t>& shown)
{
    const CloudOption& c = r.cloud[cloudIndex];
    const QString label = rentalLabelAmong(r, cloudIndex, shown);
    return label == rentalLabel(c) ? QString::fromStdString(c.offer->provider) : label;
}
} // namespace

QString breakEvenOfferName(
    const Results& r, const OfferBreakEven& b, const std::vector<std::size_t>& shown)
{
    return rentalLabelAmong(r, b.cloudIndex, shown) + QStringLiteral(", ")
        + views::pricingLabel(b.pricing);
}

ChartData buyVsRentChart(const Results& r, const BuyVsRentOptions& opt)
{
    ChartData chart;
    chart.x = { QStringLiteral("Number of training runs"), 0, 1, false, QString() };
    chart.y = { QStringLiteral("Cumulative cost (USD)"), 0, 1, false, QStringLiteral("$") };
    if (opt.optionIndex >= r.options.size()) {
        chart.title = QStringLiteral("Buy vs rent: no machine to compare");
        return chart;
    }
    const auto& o = r.options[opt.optionIndex];
    const QString machine = shortMachineLabel(o);
    chart.title = QStringLiteral("Buy %1 or rent: cumulative cost").arg(machine);
    const auto offers
        = opt.cloudIndices.empty() ? matchingCloudOffers(r, opt.optionIndex) : opt.cloudIndices;
    const auto breakEvens = offerBreakEvens(r, opt.optionIndex, offers);
    const int maxRuns = runsToShow(r, breakEvens, opt.maxRuns);

    // The line the core's break-even is on: the price less any resale up front, then per run
    // the electricity and the owning costs of the months a run takes.
    const QStringList carried = views::indirectOnBuying(r, o);
    chart.series.push_back(curve(QStringLiteral("Buy ") + machine
            + QStringLiteral(" (%1%2)").arg(hasOwningCosts(o)
                    ? QStringLiteral("net price + energy and owning costs")
                    : QStringLiteral("machine + energy"),
                // What carries it, or "with F&A" read as F&A on an exempt machine.
                carried.isEmpty() ? QString()
                                  : QStringLiteral(", F&A on ") + views::listedWithAnd(carried)),
        ChartSeries::Kind::Line, kBuyColor, o.netCapexUsd, o.buyCostPerRunUsd, maxRuns, true,
        rangeIf(r, o.netCapexRange), rangeIf(r, o.buyCostPerRunRange)));
    std::size_t colour = 0;
    for (std::size_t index : offers) {
        if (index >= r.cloud.size())
            continue;
        const auto& c = r.cloud[index];
        const QColor color = kRentColors[colour++ % std::size(kRentColors)];
        const QString name = rentalLabelAmong(r, index, offers);
        if (c.onDemandCostUsd)
            chart.series.push_back(curve(name
                    + (c.offer->kind == OfferKind::Campus ? QStringLiteral(", campus rate")
                                                          : QStringLiteral(", on-demand")),
                ChartSeries::Kind::Line, color, 0.0, *c.onDemandCostUsd, maxRuns, false,
                std::nullopt, rangeIf(r, c.onDemandCostRange)));
        if (c.offer->kind == OfferKind::Allocation) // granted time: no cash, only calendar time
            chart.series.push_back(curve(name
                    + QStringLiteral(", allocation (no cash; apply %1 ahead)")
                          .arg(views::formatQuantity(c.offer->applicationLeadDays, Unit::Days)),
                ChartSeries::Kind::DashedLine, color, 0.0, 0.0, maxRuns, false));
        if (c.spotCostUsd)
            chart.series.push_back(
                curve(name + QStringLiteral(", spot"), ChartSeries::Kind::DashedLine, color, 0.0,
                    *c.spotCostUsd, maxRuns, false, std::nullopt, rangeIf(r, c.spotCostRange)));
        // Each term of an offer a shade darker, so that its 1- and 3-year lines are told apart.
        int shade = 140;
        for (const Commitment& k : c.commitments) {
            chart.series.push_back(reservationSteps(
                name + QStringLiteral(", reserved %1-yr (whole term)").arg(k.years),
                color.darker(shade), k, r.assumptions.runsPerMonth, maxRuns));
            shade += 60;
        }
    }
    ChartSeries marks { QStringLiteral("Break-even"), ChartSeries::Kind::Scatter, Marker::Diamond,
        false, kBreakEvenColor, {} };
    for (const auto& b : breakEvens) {
        if (!b.runs || *b.runs > maxRuns)
            continue;
        ChartPoint p;
        p.x = *b.runs;
        p.y = o.netCapexUsd + *b.runs * o.buyCostPerRunUsd;
        // Which crossing is which, in a printed figure too: "10.6 runs vs RunPod on-demand".
        p.label = (opt.months && b.months
                          ? countOf(*b.months, 1, QStringLiteral("month"), QStringLiteral("months"))
                          : countOf(*b.runs, 1, QStringLiteral("run"), QStringLiteral("runs")))
            + QStringLiteral(" vs ") + markerOfferName(r, b.cloudIndex, offers) + QLatin1Char(' ')
            + views::pricingLabel(b.pricing);
        p.tooltip = breakEvenSentence(r, o, breakEvenOfferName(r, b, offers), b.costPerRunUsd,
            { b.runs, b.months, b.withinLifespan, rangeIf(r, b.runsRange) });
        p.cloudIndex = static_cast<int>(b.cloudIndex);
        marks.points.push_back(p);
    }
    // One break-even fits under the plot in words; more are labelled on the chart instead.
    chart.footnote = marks.points.size() == 1 ? marks.points.front().tooltip
                                              : QStringLiteral("Break-even where the buy line "
                                                               "crosses each rent line (\u25C6).");
    if (!marks.points.empty())
        chart.series.push_back(std::move(marks));
    if (std::any_of(chart.series.begin(), chart.series.end(), hasBand))
        chart.footnote += QStringLiteral(" Shaded: each line's range.");

    // The axis holds each line's band too, so that no range is cut at the frame.
    std::vector<double> ys;
    for (const auto& s : chart.series)
        for (const auto& p : s.points) {
            ys.push_back(p.y);
            if (p.yRange) {
                ys.push_back(p.yRange->low);
                ys.push_back(p.yRange->high);
            }
        }
    const Range ry = paddedRange(ys, false);
    chart.y.min = std::max(0.0, ry.min); // cumulative cost starts at 0: no marker to cut
    chart.y.max = ry.max;
    chart.x.min = 0.0;
    chart.x.max = maxRuns;
    if (opt.months && o.runsPerMonth > 0.0) {
        // Same curves, spread over the calendar at the run rate the core counts months with.
        for (auto& s : chart.series)
            for (auto& p : s.points)
                p.x /= o.runsPerMonth;
        chart.x.title = QStringLiteral("Months (at %1)").arg(runRateText(o.runsPerMonth));
        chart.x.max = maxRuns / o.runsPerMonth;
    }
    return chart;
}

QString buyVsRentConclusion(const Results& r, std::size_t optionIndex,
    const std::vector<std::size_t>& cloudIndices, bool inMonths)
{
    const auto months = [inMonths](std::optional<double> m) { return inMonths ? m : std::nullopt; };
    if (optionIndex >= r.options.size())
        return QStringLiteral("No machine is available to buy for this model.");
    const auto& o = r.options[optionIndex];
    const QString machine = shortMachineLabel(o);
    if (cloudIndices.empty()) {
        if (!o.cheapestCloudIndex)
            return QStringLiteral("No cloud offer has the same GPUs as %1, so there is no "
                                  "break-even to state.")
                .arg(machine);
        const auto& c = r.cloud[*o.cheapestCloudIndex];
        return breakEvenSentence(r, o,
            rentalLabel(c) + QStringLiteral(", ")
                + views::pricingLabel(c.cheapestPricing, c.cheapestReservedYears),
            c.cheapestCostUsd.value_or(0.0),
            { o.breakEvenRuns, months(o.breakEvenMonths), o.breakEvenWithinLifespan,
                rangeIf(r, o.breakEvenRunsRange) });
    }
    QStringList sentences;
    for (const auto& b : offerBreakEvens(r, optionIndex, cloudIndices))
        sentences << breakEvenSentence(r, o, breakEvenOfferName(r, b, cloudIndices),
            b.costPerRunUsd,
            { b.runs, months(b.months), b.withinLifespan, rangeIf(r, b.runsRange) });
    if (sentences.isEmpty())
        return QStringLiteral("No cloud offer chosen to compare with buying %1.").arg(machine);
    return sentences.join(QLatin1Char(' '));
}

QString planVerdictText(
    const Results& r, std::size_t optionIndex, const std::vector<std::size_t>& chosenOffers)
{
    const auto v = planVerdict(r, optionIndex, chosenOffers);
    if (!v)
        return {};
    const OwnedOption& o = r.options[optionIndex];
    const CloudOption& c = r.cloud[v->cloudIndex];
    const Assumptions& a = r.assumptions;
    QString buyWhat = QStringLiteral("the machine");
    if (o.owning.resaleUsd > 0.0)
        buyWhat += QStringLiteral(" less its resale value");
    buyWhat += o.owning.monthlyUsd > 0.0 ? QStringLiteral(", electricity and owning costs")
                                         : QStringLiteral(" and electricity");
    // F&A on each side where the sponsor's rules put it, as the figures count it.
    const QString rate = views::formatRate(a.indirectRate);
    if (const QStringList carried = views::indirectOnBuying(r, o); !carried.isEmpty())
        buyWhat += QStringLiteral("; F&A at %1 on %2").arg(rate, views::listedWithAnd(carried));
    const bool rentCarries
        = a.indirectRate > 0.0 && r.indirectRules.carries(BudgetCategory::ComputingServices);
    QString text
        = QStringLiteral("For the %1 planned: buying %2 costs %3 (%4), renting from %5 "
                         "costs %6%7")
              .arg(countOf(v->runs, 0, QStringLiteral("run"), QStringLiteral("runs")),
                  shortMachineLabel(o), views::formatUsd(v->buyUsd), buyWhat,
                  rentalLabel(c) + QStringLiteral(", ")
                      + views::pricingLabel(v->pricing,
                          v->pricing == Pricing::Reserved ? c.cheapestReservedYears : std::nullopt),
                  views::formatUsd(v->rentUsd),
                  rentCarries ? QStringLiteral(" (F&A at %1 on it)").arg(rate) : QString());
    if (views::formatUsd(v->buyUsd) == views::formatUsd(v->rentUsd))
        text += QStringLiteral(": about the same");
    else
        text += QStringLiteral(": %1 is cheaper by %2")
                    .arg(v->buyingCheaper ? QStringLiteral("buying") : QStringLiteral("renting"),
                        views::formatShownDifference(v->rentUsd, v->buyUsd));
    // The break-even's range decides: the runs on one side of all of it, or within it.
    if (v->firm)
        text += *v->firm ? QStringLiteral(", with every input at either end of its range too")
                         : QStringLiteral(" at the central estimate; within the ranges it may "
                                          "go either way");
    if (v->outlastsLife)
        text += QStringLiteral("; at %1 the runs take %2, longer than the machine's %3-year "
                               "life, so buying them all would take a second machine")
                    .arg(runRateText(o.runsPerMonth),
                        countOf(std::round(v->months), 0, QStringLiteral("month"),
                            QStringLiteral("months")))
                    .arg(a.amortizationYears);
    return text + QLatin1Char('.');
}

} // namespace gpuplan::render

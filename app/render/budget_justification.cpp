#include "app/render/budget_justification.h"

#include "app/common/budget_table.h"
#include "app/common/format.h"
#include "app/common/option_columns.h"
#include "app/common/price_staleness.h"
#include "app/common/saved_file.h"
#include "app/common/wording.h"
#include "app/render/buy_vs_rent_chart.h"
#include "app/render/proposal_report.h"
#include "core/costing/calendar.h"
#include "core/costing/indirect.h"
#include "core/costing/whole_dollars.h"

#include <QBuffer>
#include <QFileInfo>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextDocumentWriter>
#include <QTextList>

#include <algorithm>
#include <cmath>
#include <optional>

namespace gpuplan::render {

namespace {

QString str(const std::string& text)
{
    return QString::fromStdString(text);
}

// "source, date" of a price, as the report gives it.
QString cited(const Provenance& p)
{
    QString text = str(p.source);
    text += QStringLiteral(", ") + (p.date.empty() ? QStringLiteral("undated") : str(p.date));
    return text;
}

// A price's citation, with what kind of price it is ("a resale price") and, where it is older
// than the price age limit on the plan's day, that it must be checked before the proposal goes
// out (views::stalenessText).
QString citedPrice(const Provenance& p, const Results& r)
{
    QString text = cited(p);
    if (p.kind != PriceKind::Unstated)
        text += QStringLiteral(", a ") + views::priceKindText(p.kind);
    return text + views::stalenessText(p, r);
}

// An assumption's source, and where it is a dated price (electricity, a hosting rate) that is
// stale, that too: the GPU's and the chassis's prices said so and a 2024 electricity price
// did not (review). The user's own figures carry no date and are not flagged.
QString citedRate(AssumptionId id, const Results& r)
{
    return views::assumptionCitation(r.assumptions.source(id))
        + views::assumptionStalenessText(id, r);
}

QString runsText(double runs)
{
    return countOf(runs, 0, QStringLiteral("training run"), QStringLiteral("training runs"));
}

QString runPlanText(const GrantPlan& plan, const GrantBudget& b)
{
    QStringList years;
    for (std::size_t y = 0; y < b.runsPerYear.size(); ++y)
        years << QStringLiteral("%1 in %2")
                     .arg(b.runsPerYear[y])
                     .arg(views::grantYearLabel(plan, static_cast<int>(y) + 1));
    return views::listedWithAnd(years);
}

// "once", "twice", "10 times".
QString timesText(int runs)
{
    if (runs == 1)
        return QStringLiteral("once");
    if (runs == 2)
        return QStringLiteral("twice");
    return QStringLiteral("%1 times").arg(runs);
}

int totalRuns(const GrantBudget& b)
{
    int runs = 0;
    for (int n : b.runsPerYear)
        runs += n;
    return runs;
}

// "4 years", "4.5 years", "1 more year": one decimal where the years have one to show (4.04
// years read "4.0 years").
QString yearsText(double years, const QString& one, const QString& many)
{
    const double tenths = std::round(years * 10.0) / 10.0;
    return countOf(tenths, tenths == std::floor(tenths) ? 0 : 1, one, many);
}

// "Training Pythia-1B once takes 12 days on 8×A100 (the paper's measured table; 41% of the
// GPUs' peak)." `restsOnIt`: what a time too short understates ("electricity, and renting the
// same work" for a machine; "the rental requested here" for a rental).
QString estimateSentence(
    const Results& r, const TrainingEstimate& e, const QString& machine, const QString& restsOnIt)
{
    // A time above the GPUs' peak is not a time a proposal may state as fact: it is "put at",
    // and the floor that the peak sets is said with the costs that rest on it.
    const bool impossible
        = std::find(e.flags.begin(), e.flags.end(), EstimateFlag::ExceedsPeak) != e.flags.end()
        && e.impliedUtilization && *e.impliedUtilization > 0.0;
    QString text
        = QStringLiteral("Training %1 once %2 %3 on %4 (estimate: %5")
              .arg(str(r.workload->name),
                  impossible ? QStringLiteral("is put at") : QStringLiteral("takes"),
                  views::formatDays(e.days), machine, views::toQString(toString(e.source)));
    if (!e.configuration.empty())
        text += QStringLiteral(", ") + str(e.configuration);
    // An analytic time is the assumed utilisation by construction (its configuration says it):
    // "assumed 0.40 of peak; implied 40%" said one figure twice.
    if (e.impliedUtilization && e.source != EstimateSource::Analytic)
        text += QStringLiteral("; implied utilisation %1 of the GPUs' dense peak")
                    .arg(views::formatPercent(*e.impliedUtilization));
    text += QStringLiteral(").");
    for (EstimateFlag flag : e.flags) {
        QString caveat = views::toQString(describe(flag));
        if (!caveat.endsWith(QLatin1Char('.')))
            caveat += QLatin1Char('.');
        text += QStringLiteral(" Caveat: ") + caveat;
    }
    if (impossible) {
        // A floor: rounded down, never up (23.6 days is "at least 23", not 24).
        const double atPeak = e.days * *e.impliedUtilization;
        const double floorDays
            = atPeak >= 10.0 ? std::floor(atPeak) : std::floor(atPeak * 10.0) / 10.0;
        text += QStringLiteral(" At the GPUs' full peak it would take at least %1, so %2, which "
                               "rest on this time, are understated.")
                    .arg(views::formatDays(floorDays), restsOnIt);
    }
    return text;
}

QString indirectSentence(
    const Results& r, BudgetTarget target, const SponsorRules& sponsor, const GrantBudget& b)
{
    QStringList carrying;
    QStringList exempt;
    for (const BudgetLine& line : b.lines)
        (line.carriesIndirect ? carrying : exempt)
            << views::budgetCategoryLabel(line.category, r, target).toLower();
    QString text;
    const bool allocation = target.kind == BudgetTarget::Kind::Rented
        && target.index < r.cloud.size()
        && r.cloud[target.index].offer->kind == OfferKind::Allocation;
    if (b.indirectRate > 0.0 && !carrying.isEmpty() && b.indirectUsd <= 0.0)
        // Nothing paid in the base: an allocation, or electricity (say) budgeted at $0. "... apply
        // to computing services (allocation, no cash) ...: $0" read as a sum owed.
        // Both sentences take all three arguments: a multi-argument arg() fills the lowest
        // placeholders in order, so a sentence without %2 got the categories as its %3.
        text = (allocation ? QStringLiteral("No indirect costs are budgeted: the allocation costs "
                                            "no cash, so the institution's rate of %1 under the "
                                            "sponsor's rules (%3) applies to nothing paid: %2.")
                           : QStringLiteral("No indirect costs are budgeted: %2, which carry the "
                                            "institution's rate of %1 under the sponsor's rules "
                                            "(%3), cost nothing in this budget."))
                   .arg(views::formatRate(b.indirectRate), views::listedWithAnd(carrying),
                       str(sponsor.name));
    else if (b.indirectRate > 0.0 && !carrying.isEmpty())
        // Each year's indirect costs are rounded to the dollar (the budget table's rule), so the
        // total may differ by a dollar or two from the rate times the whole base: said, so that
        // a grants office checking it does not stop at $905 against $906.
        text = QStringLiteral("Indirect costs at the institution's rate of %1 apply to %2 under "
                              "the sponsor's rules (%3): %4 on a base of %5 (each year's F&A "
                              "rounded to the dollar).")
                   .arg(views::formatRate(b.indirectRate), views::listedWithAnd(carrying),
                       str(sponsor.name), views::formatWholeUsd(b.indirectUsd),
                       views::formatWholeUsd(b.indirectBaseUsd));
    else if (b.indirectRate > 0.0)
        text = QStringLiteral("No indirect costs are budgeted: the sponsor's rules (%1) put the "
                              "institution's rate of %2 on none of these costs.")
                   .arg(str(sponsor.name), views::formatRate(b.indirectRate));
    else
        text = QStringLiteral("No indirect costs are budgeted (indirect rate set to 0%).");
    if (!exempt.isEmpty() && b.indirectRate > 0.0 && !carrying.isEmpty())
        text += QStringLiteral(" Exempt: %1.").arg(views::listedWithAnd(exempt));
    return text;
}

// "Under these budget rules, buying 4×A100 SXM pays off from run 9 of this plan, in Year 3,
// against renting …. For the 12 runs of this plan, renting would cost $…, against $… for
// buying.": buying the owned option against `rental`, a Rented target (none: nothing rents the
// same GPUs), both budgeted by the sponsor's rules in this plan's calendar (`b` is the owned
// option's). `chosenForPlan`: the rental is cheapestRentalBudget's, found once by the caller
// (the sources cite it too), not one the budget itself rents.
QString budgetRulesComparison(const Results& r, std::size_t ownedIndex,
    std::optional<BudgetTarget> rental, bool chosenForPlan, const GrantPlan& plan,
    const SponsorRules& sponsor, const GrantBudget& b)
{
    // Buying against renting in this budget's whole dollars and this plan's calendar (runs by
    // grant year, reservations by the years their terms span): the planner's break-even counts
    // months at its own run rate and its plan's runs, which could read against the totals of
    // this budget.
    const OwnedOption& o = r.options[ownedIndex];
    QString why;
    std::optional<double> renting; // what renting commits the grant to (rentalCommitmentUsd)
    if (rental) {
        const GrantBudget rented = grantBudget(r, *rental, plan, sponsor);
        renting = rentalCommitmentUsd(rented, sponsor, r.assumptions);
        const CloudOption& c = r.cloud[rental->index];
        // Several instances: priced over the network they list, or (flagged) as if they
        // trained as fast as one machine. Say which where the comparison rests on it.
        const QString instances = c.instances <= 1 ? QString()
            : c.estimate.hasFlag(EstimateFlag::OverNetwork) && c.offer->network
            ? QStringLiteral(" (%1 instances, exchanging gradients over the %2 Gbit/s network "
                             "%3 lists for each)")
                  .arg(c.instances)
                  .arg(c.offer->network->gbps)
                  .arg(str(c.offer->provider))
            : QStringLiteral(" (%1 instances, assumed to train as fast as one machine)")
                  .arg(c.instances);
        // Said where it is not the planner's per-run cheapest, which the other views compare.
        const QString chosen
            = chosenForPlan && (rental->reservedTerms || rental->index != o.cheapestCloudIndex)
            ? QStringLiteral(", the cheapest way to rent these GPUs for this plan's runs")
            : QString();
        const auto& termsPerRun = rented.reservedTermsPerRunUsd;
        const QString perRun = termsPerRun
            ? QStringLiteral(", its terms coming to %1 a run of this plan before indirect "
                             "costs, paid whether the runs use them or not")
                  .arg(views::formatUsd(*termsPerRun))
            : QStringLiteral(" at %1 per run before indirect costs")
                  .arg(views::formatUsd(rented.spendPerRunUsd));
        const QString planWide
            = QStringLiteral("renting %1, %2%3%4")
                  .arg(rentalLabel(c), views::budgetPricingLabel(rented), perRun, instances);
        QString against = planWide + chosen;
        // The plan's cheapest way to rent, found for all its runs, against the cheapest for as
        // many runs as the break-even counts: a reservation for 64 runs costs its whole term for
        // the first one too, and against it buying had paid off "from run 1".
        const auto run = chosenForPlan
            ? budgetBreakEvenRunAgainstCheapest(r, ownedIndex, plan, sponsor)
            : budgetBreakEvenRun(r, ownedIndex, *rental, plan, sponsor);
        if (const auto atRun = run && chosenForPlan ? cheapestRentalBudget(
                                   r, ownedIndex, firstRunsOf(plan, *run, r.assumptions), sponsor)
                                                    : std::nullopt;
            atRun && *atRun != *rental) {
            const GrantBudget fewer
                = grantBudget(r, *atRun, firstRunsOf(plan, *run, r.assumptions), sponsor);
            against = QStringLiteral("renting the same GPUs the cheapest way for as many runs, "
                                     "%1, %2 at %3 per run before indirect costs (for all the "
                                     "plan's runs the cheapest way is %4)")
                          .arg(rentalLabel(r.cloud[atRun->index]), views::budgetPricingLabel(fewer),
                              views::formatUsd(fewer.spendPerRunUsd), planWide);
        }
        std::optional<int> year;
        for (std::size_t y = 0, counted = 0; run && y < b.runsPerYear.size() && !year; ++y) {
            counted += static_cast<std::size_t>(b.runsPerYear[y]);
            if (counted >= static_cast<std::size_t>(*run))
                year = static_cast<int>(y) + 1;
        }
        // A year the machine cannot run back to back: the run is there on paper only.
        const bool overfull = year
            && std::find(b.overfullYears.begin(), b.overfullYears.end(), *year)
                != b.overfullYears.end();
        why = run && year
            ? QStringLiteral("Under these budget rules, buying %1 pays off from run %2 of this "
                             "plan, in %3%4, against %5.")
                  .arg(shortMachineLabel(o))
                  .arg(*run)
                  .arg(views::grantYearLabel(plan, *year),
                      overfull ? QStringLiteral(", a year whose runs one machine cannot run back "
                                                "to back")
                               : QString(),
                      against)
            // The rental last: its description holds commas of its own, and a verb after it
            // ran the sentence on.
            : QStringLiteral("Under these budget rules, buying %1 does not pay off %2 of this "
                             "plan against %3.")
                  .arg(shortMachineLabel(o),
                      totalRuns(b) == 1 ? QStringLiteral("for the one training run")
                                        : QStringLiteral("through all ") + runsText(totalRuns(b)),
                      against);
        why += QStringLiteral(" For the %1 of this plan, renting would cost %2%3, against %4 for "
                              "buying.")
                   .arg(totalRuns(b) == 1 ? QStringLiteral("one training run")
                                          : runsText(totalRuns(b)),
                       views::formatWholeUsd(rented.totalUsd),
                       rented.reservedAfterGrantUsd > 0.0
                           ? QStringLiteral(" and a further %1 before indirect costs owed after "
                                            "the grant for its reservation terms")
                                 .arg(views::formatWholeUsd(rented.reservedAfterGrantUsd))
                           : QString(),
                       views::formatWholeUsd(b.totalUsd));
        // Renting runs a year's runs side by side; one machine cannot, so the two totals are
        // not for the same capacity there. Not where one run is longer than a year: neither
        // finishes it within its year (the runs past the grant are said with the plan).
        if (const QString crowded = views::overfullYearsText(b);
            !crowded.isEmpty() && b.daysPerRun <= calendar::kDaysPerYear)
            why += QStringLiteral(" The totals are not for the same capacity: renting finishes "
                                  "every run in its year, while buying counts one machine, and "
                                  "%1 (finishing them in the year would take another machine, "
                                  "not counted).")
                       .arg(crowded);
    } else {
        why = QStringLiteral("No cloud offer has the same GPUs as %1, so renting the same work is "
                             "not priced here.")
                  .arg(shortMachineLabel(o));
    }
    // The budget is what the grant pays; what the machine fetches when sold comes after, so it
    // is said beside the totals, with what buying costs net of it (the planner's verdict
    // counts it, and read against this budget's totals alone the two seemed to disagree).
    const Assumptions& a = r.assumptions;
    if (a.resaleFraction > 0.0 && b.yearsOwnedPastLife > 0.0) {
        // Its life ends before the grant does, yet the budget books owning it to the grant's
        // end: a resale assumed at the end of that life is not what it fetches then (netting it
        // had set a year-4 resale against a 5-year budget).
        why += QStringLiteral(" The machine's resale value of %1 is assumed at the end of its "
                              "life of %2, %3 before the grant ends; this budget keeps it to the "
                              "grant's end, so no resale is counted against these totals.")
                   .arg(views::formatUsd(o.owning.resaleUsd),
                       yearsText(
                           a.amortizationYears, QStringLiteral("year"), QStringLiteral("years")),
                       yearsText(
                           b.yearsOwnedPastLife, QStringLiteral("year"), QStringLiteral("years")));
    } else if (b.netOfResaleUsd) {
        // Sold when the grant ends, the machine is younger than the life its resale value is
        // assumed at, so that value is a floor, and nothing after the grant is owed for it.
        const double netUsd = *b.netOfResaleUsd;
        const QString soldSooner = b.yearsOwnedAfterGrant > 0.0
            ? QStringLiteral(" (sold when the grant ends, %1 sooner, it fetches at least that)")
                  .arg(yearsText(
                      b.yearsOwnedAfterGrant, QStringLiteral("year"), QStringLiteral("years")))
            : QString();
        why += QStringLiteral(" The machine keeps a resale value of %1 after %2%5, not counted "
                              "in these totals; net of it, buying would cost %3%4.")
                   .arg(views::formatUsd(o.owning.resaleUsd),
                       yearsText(
                           a.amortizationYears, QStringLiteral("year"), QStringLiteral("years")),
                       views::formatWholeUsd(netUsd),
                       // Where counting it turns the verdict, the verdict above must not stand
                       // alone.
                       renting && (netUsd < *renting) != (b.totalUsd < *renting)
                           ? (netUsd < *renting ? QStringLiteral(", less than renting")
                                                : QStringLiteral(", more than renting"))
                           : QString(),
                       soldSooner);
    }
    return why;
}

// `compared`: the rental buying is weighed against (cheapestRentalBudget).
void ownedParagraphs(const Results& r, BudgetTarget target, const GrantPlan& plan,
    const SponsorRules& sponsor, const GrantBudget& b, std::optional<BudgetTarget> compared,
    Justification& out)
{
    const OwnedOption& o = r.options[target.index];
    const Assumptions& a = r.assumptions;
    const QString machine = views::budgetTargetLabel(r, target, &b);
    const bool equipment = budgetedAsEquipment(o.machineCostUsd, sponsor);
    // The cost to the cent where whole dollars would read as the other side of the threshold
    // ($4,999.50 prints $5,000 and is below it).
    const bool roundedAcross
        = (wholeDollars(o.machineCostUsd) >= sponsor.equipmentThresholdUsd) != equipment;
    const QString exactUnitCost = roundedAcross
        ? QStringLiteral(", %1,").arg(views::formatUsdToTheCent(o.machineCostUsd))
        : QString();
    out.push_back({ JustificationBlock::Kind::Paragraph,
        QStringLiteral("We request %1 over %2 to train %3 (%4 parameters) %5 on a machine of our "
                       "own: %6, bought for %7 at the start of %8. Its unit cost%9 is %10 the "
                       "sponsor's equipment threshold of %11, so it is budgeted as %12.")
                .arg(views::formatWholeUsd(b.totalUsd),
                    countOf(plan.years, 0, QStringLiteral("year"), QStringLiteral("years")),
                    str(r.workload->name), humanCount(static_cast<double>(r.workload->parameters)),
                    timesText(totalRuns(b)), machine, views::formatUsd(o.machineCostUsd),
                    views::grantYearLabel(plan, plan.equipmentYear), exactUnitCost)
                .arg(equipment ? QStringLiteral("at or above") : QStringLiteral("below"),
                    views::formatWholeUsd(sponsor.equipmentThresholdUsd),
                    equipment ? QStringLiteral("equipment")
                              : QStringLiteral("materials and supplies"))
            // The price may not buy a machine that powers the cards: said where the price is,
            // as the plan and the report say it.
            + (views::powerSupplyText(o).isEmpty()
                    ? QString()
                    : QStringLiteral(" Caveat: ") + views::powerSupplyText(o)),
        {} });
    QString running = estimateSentence(r, o.estimate, shortMachineLabel(o),
        QStringLiteral("its electricity and the cost of renting the same work"));
    for (const BudgetLine& line : b.lines)
        if (line.category == BudgetCategory::Energy)
            running += QStringLiteral(" Electricity for the runs comes to %1: the machine draws "
                                      "%2 kW from the grid (PUE %3 included) at $%4 per kWh, %5 "
                                      "per run.")
                           .arg(views::formatWholeUsd(line.totalUsd),
                               QString::number(o.powerKw, 'f', 2), QString::number(a.pue),
                               QString::number(a.electricityUsdPerKwh),
                               views::formatUsd(energyCostUsd(o.powerKw, o.estimate.days, a)));
    QStringList owning;
    for (const BudgetLine& line : b.lines)
        if (line.category == BudgetCategory::Hosting || line.category == BudgetCategory::Support
            || line.category == BudgetCategory::Staff || line.category == BudgetCategory::Fringe)
            owning << QStringLiteral("%1 %2").arg(
                views::budgetCategoryLabel(line.category, r, target).toLower(),
                views::formatWholeUsd(line.totalUsd));
    if (!owning.isEmpty())
        running += QStringLiteral(" From the year of purchase to the end of the grant: %1.")
                       .arg(owning.join(QStringLiteral(", ")));
    out.push_back({ JustificationBlock::Kind::Paragraph, running, {} });

    const QString why = budgetRulesComparison(r, target.index, compared, true, plan, sponsor, b);
    out.push_back({ JustificationBlock::Kind::Paragraph, why.trimmed(), {} });
}

void rentedParagraphs(const Results& r, BudgetTarget target, const GrantPlan& plan,
    const SponsorRules& sponsor, const GrantBudget& b, Justification& out)
{
    const CloudOption& c = r.cloud[target.index];
    const QString what = views::budgetTargetLabel(r, target, &b);
    QString request;
    if (c.offer->kind == OfferKind::Allocation)
        request = QStringLiteral("We will train %1 (%2 parameters) %3 on an allocation, %4, at "
                                 "no cash cost; applying takes about %5 days and each run waits "
                                 "about %6 days in the queue.")
                      .arg(str(r.workload->name),
                          humanCount(static_cast<double>(r.workload->parameters)),
                          timesText(totalRuns(b)), what)
                      .arg(c.offer->applicationLeadDays)
                      .arg(c.offer->queueWaitDays);
    else
        request
            = QStringLiteral("We request %1 over %2 to train %3 (%4 parameters) %5 on rented "
                             "GPUs: %6, %7 before indirect costs per run%12 (%8 per GPU-hour for "
                             "%9 GPU-hours%10; %11).")
                  .arg(views::formatWholeUsd(b.totalUsd),
                      countOf(plan.years, 0, QStringLiteral("year"), QStringLiteral("years")),
                      str(r.workload->name),
                      humanCount(static_cast<double>(r.workload->parameters)),
                      timesText(totalRuns(b)), what, views::formatUsd(b.spendPerRunUsd),
                      views::formatUsdPerHour(b.usdPerGpuHour),
                      humanCount(std::round(b.gpuHoursPerRun)),
                      // Spot GPU-hours are more than the run's days x 24 x GPUs: say why.
                      b.pricing == Pricing::Spot
                          ? QStringLiteral(", the %1 that spot restarts add included")
                                .arg(views::formatRate(r.assumptions.spotRestartOverhead))
                          : QString(),
                      countOf(
                          c.instances, 0, QStringLiteral("instance"), QStringLiteral("instances")))
                  // Reserved: the hours of a run at the term's rate; what a run costs in whole
                  // terms follows.
                  .arg(b.pricing == Pricing::Reserved ? QStringLiteral(" at the term's hourly rate")
                                                      : QString());
    if (b.pricing == Pricing::Reserved) {
        request += QStringLiteral(" %2: a term is paid whether the runs use it or not, and is "
                                  "bought where the runs, back to back from the start of their "
                                  "year, need it%1.")
                       .arg(b.mixesReservationTerms()
                               ? QStringLiteral("; the cost per run above is at the %1-year "
                                                "term's rate, which most of the money goes to")
                                     .arg(b.reservedTermYears)
                               : QStringLiteral(" (%1-year terms)").arg(b.reservedTermYears),
                           c.cheapestIsCommitment
                               ? QStringLiteral("The offer is a reservation only")
                               : QStringLiteral("It is budgeted by the offer's reserved terms "
                                                "rather than its hourly rates"));
        for (QString sentence :
            { views::reservationsHeldText(b), views::reservedAfterGrantText(b) })
            if (!sentence.isEmpty()) {
                sentence[0] = sentence[0].toUpper();
                request += QLatin1Char(' ') + sentence;
            }
        if (const auto& perRun = b.reservedTermsPerRunUsd) {
            const int runs = totalRuns(b);
            // Within the grant and after it apart: the request is the first (helper 63).
            const QString split = b.reservedAfterGrantUsd > 0.0
                ? QStringLiteral(" (%1 within the grant, the rest owed after it)")
                      .arg(views::formatUsd(
                          *perRun - b.reservedAfterGrantUsd / static_cast<double>(runs)))
                : QString();
            request += QStringLiteral(" Over the %1 of this plan, the terms come to %2 a run "
                                      "before indirect costs%3.")
                           .arg(runs == 1 ? QStringLiteral("one training run") : runsText(runs),
                               views::formatUsd(*perRun), split);
        }
    }
    out.push_back({ JustificationBlock::Kind::Paragraph,
        request + QLatin1Char(' ')
            + estimateSentence(r, c.estimate, views::formatMachine(c.gpuCount, str(c.gpu->name)),
                QStringLiteral("the rental requested here and its GPU-hours")),
        {} });
    out.push_back({ JustificationBlock::Kind::Paragraph,
        buyingWeighedAgainstRenting(r, target, plan, sponsor), {} });
}

} // namespace

QString buyingWeighedAgainstRenting(
    const Results& r, BudgetTarget rental, const GrantPlan& plan, const SponsorRules& sponsor)
{
    const std::optional<std::size_t> same = matchingOwnedOption(r, rental.index);
    QString weighed;
    if (!same) {
        weighed = noMachineForSaleText(r.cloud[rental.index]);
    } else {
        // Weighed as this budget is: the sponsor's rules, this plan's runs and calendar (the
        // planner's break-even counts months at its own run rate).
        const OwnedOption& o = r.options[*same];
        const BudgetTarget buying { BudgetTarget::Kind::Owned, *same };
        const GrantPlanProblem problem = checkGrantPlan(plan, r, buying);
        weighed = QStringLiteral("Buying the same GPUs instead (%1, %2) was considered")
                      .arg(shortMachineLabel(o), views::formatUsd(o.machineCostUsd))
            + (problem == GrantPlanProblem::None
                    ? QStringLiteral(". ")
                        + budgetRulesComparison(r, *same, rental, false, plan, sponsor,
                            grantBudget(r, buying, plan, sponsor))
                    : QStringLiteral("; it cannot be budgeted in this plan: %1.")
                          .arg(problem == GrantPlanProblem::RunsBeforePurchase
                                  // The proposal's words, not the tool's advice on moving runs.
                                  ? QStringLiteral("runs are planned before year %1, when it "
                                                   "would be bought")
                                        .arg(plan.equipmentYear)
                                  : views::grantPlanProblemText(problem, plan)));
    }
    return weighed;
}

namespace {

// `compared`: owning, the rental the comparison weighs buying against.
QStringList sourceItems(const Results& r, BudgetTarget target, std::optional<BudgetTarget> compared)
{
    QStringList items;
    const Assumptions& a = r.assumptions;
    if (target.kind == BudgetTarget::Kind::Owned) {
        const OwnedOption& o = r.options[target.index];
        if (o.system)
            items << QStringLiteral("%1: %2 (%3)")
                         .arg(str(o.system->name), views::formatUsd(o.system->priceUsd),
                             citedPrice(o.system->priceSource, r));
        else {
            if (o.gpu->priceUsd)
                items << QStringLiteral("%1: %2 per GPU (%3)")
                             .arg(str(o.gpu->name), views::formatUsd(*o.gpu->priceUsd),
                                 citedPrice(o.gpu->priceSource, r));
            if (o.chassis)
                items << QStringLiteral("%1: %2 (%3)")
                             .arg(str(o.chassis->name), views::formatUsd(o.chassis->priceUsd),
                                 citedPrice(o.chassis->priceSource, r));
        }
        items << QStringLiteral("Electricity: $%1 per kWh (%2); PUE %3 (%4)")
                     .arg(QString::number(a.electricityUsdPerKwh),
                         citedRate(AssumptionId::ElectricityUsdPerKwh, r), QString::number(a.pue),
                         views::assumptionCitation(a.source(AssumptionId::Pue)));
        // Each owning cost the budget charges, with the rate or quote behind it: a grants office
        // asks for the basis of every figure (the lines stood with no source).
        for (AssumptionId id : { AssumptionId::HostingUsdPerKwMonth,
                 AssumptionId::MachineRoomUsdPerMonth, AssumptionId::SupportRate,
                 AssumptionId::StaffUsdPerYear, AssumptionId::FringeRate }) {
            const double value = assumptionValue(a, id);
            // Fringe benefits fall on staff time: without it, they are no line of the budget.
            if (value <= 0.0 || (id == AssumptionId::FringeRate && a.staffUsdPerYear <= 0.0))
                continue;
            const AssumptionSpec& spec = assumptionSpec(id);
            // Colocation is charged on the machine's own draw, before the PUE: the grid's 16.12
            // kW stated beside $100/kW-month did not give the $12,240 a year charged (review).
            const QString basis = id == AssumptionId::HostingUsdPerKwMonth
                ? QStringLiteral(", on the machine's %1 kW before PUE")
                      .arg(QString::number(o.powerKw / a.pue, 'f', 2))
                : QString();
            items << QStringLiteral("%1: %2%3 (%4)")
                         .arg(views::toQString(spec.label), views::formatQuantity(value, spec.unit),
                             basis, citedRate(id, r));
        }
        // The rental the comparison weighs buying against (budgetRulesComparison), not the
        // planner's per-run cheapest: the offer compared is the one to cite and date.
        if (compared) {
            const CloudOffer& offer = *r.cloud[compared->index].offer;
            items << QStringLiteral("Compared with %1 %2 (%3)")
                         .arg(
                             str(offer.provider), str(offer.instance), citedPrice(offer.source, r));
        }
        if (!o.estimate.note.empty())
            items << QStringLiteral("Training time: %1").arg(str(o.estimate.note));
    } else {
        const CloudOption& c = r.cloud[target.index];
        items << QStringLiteral("%1 %2 (%3)")
                     .arg(str(c.offer->provider), str(c.offer->instance),
                         citedPrice(c.offer->source, r));
        if (!c.estimate.note.empty())
            items << QStringLiteral("Training time: %1").arg(str(c.estimate.note));
    }
    items << QStringLiteral("Model recipe: %1").arg(cited(r.workload->source));
    return items;
}

} // namespace

Justification budgetJustification(const Results& r, BudgetTarget target, const GrantPlan& plan,
    const SponsorRules& sponsor, const GrantBudget& b)
{
    Justification out;
    if (!r.workload)
        return out;
    out.push_back({ JustificationBlock::Kind::Heading,
        QStringLiteral("Budget justification: computing to train %1").arg(str(r.workload->name)),
        {} });
    // Once: it budgets every way to rent the machine's GPUs (a reservation's terms among them).
    std::optional<BudgetTarget> compared;
    if (target.kind == BudgetTarget::Kind::Owned) {
        compared = cheapestRentalBudget(r, target.index, plan, sponsor);
        ownedParagraphs(r, target, plan, sponsor, b, compared, out);
    } else {
        rentedParagraphs(r, target, plan, sponsor, b, out);
    }
    QString plain = QStringLiteral("The runs are planned as %1.").arg(runPlanText(plan, b));
    for (QString sentence : { views::overfullYearsText(b), views::runsPastGrantText(b) })
        if (!sentence.isEmpty()) {
            sentence[0] = sentence[0].toUpper();
            plain += QLatin1Char(' ') + sentence + QLatin1Char('.');
        }
    plain += QLatin1Char(' ') + indirectSentence(r, target, sponsor, b);
    plain += QStringLiteral(" Amounts are in today's prices, without escalation, and in whole "
                            "dollars by line and year.");
    out.push_back({ JustificationBlock::Kind::Paragraph, plain, {} });
    out.push_back(
        { JustificationBlock::Kind::Paragraph, QStringLiteral("Prices and their sources:"), {} });
    out.push_back({ JustificationBlock::Kind::Bullets, {}, sourceItems(r, target, compared) });
    return out;
}

QString noMachineForSaleText(const CloudOption& rented)
{
    return QStringLiteral("No machine with the same GPUs (%1) is for sale in this price set, so "
                          "buying the same work is not priced here.")
        .arg(views::formatMachine(rented.gpuCount, str(rented.gpu->name)));
}

QString toMarkdown(const Justification& j)
{
    QStringList parts;
    for (const auto& block : j) {
        switch (block.kind) {
        case JustificationBlock::Kind::Heading:
            parts << QStringLiteral("# ") + block.text;
            break;
        case JustificationBlock::Kind::Paragraph:
            parts << block.text;
            break;
        case JustificationBlock::Kind::Bullets:
            parts << QStringLiteral("- ") + block.items.join(QStringLiteral("\n- "));
            break;
        }
    }
    return parts.join(QStringLiteral("\n\n")) + QLatin1Char('\n');
}

QString toPlainText(const Justification& j)
{
    QStringList parts;
    for (const auto& block : j) {
        switch (block.kind) {
        case JustificationBlock::Kind::Heading:
            parts << block.text;
            break;
        case JustificationBlock::Kind::Paragraph:
            parts << block.text;
            break;
        case JustificationBlock::Kind::Bullets:
            parts << QStringLiteral("* ") + block.items.join(QStringLiteral("\n* "));
            break;
        }
    }
    return parts.join(QStringLiteral("\n\n")) + QLatin1Char('\n');
}

void fillDocument(const Justification& j, QTextDocument& document)
{
    document.clear();
    QTextCursor cursor(&document);
    bool first = true;
    for (const auto& block : j) {
        auto newBlock = [&](const QTextBlockFormat& format, const QTextCharFormat& chars) {
            if (first)
                cursor.setBlockFormat(format);
            else
                cursor.insertBlock(format, chars);
            cursor.setCharFormat(chars);
            first = false;
        };
        QTextBlockFormat paragraph;
        paragraph.setBottomMargin(6);
        QTextCharFormat plain;
        switch (block.kind) {
        case JustificationBlock::Kind::Heading: {
            QTextBlockFormat heading = paragraph;
            heading.setHeadingLevel(1);
            QTextCharFormat bold;
            bold.setFontWeight(QFont::Bold);
            bold.setFontPointSize(14);
            newBlock(heading, bold);
            cursor.insertText(block.text, bold);
            break;
        }
        case JustificationBlock::Kind::Paragraph:
            newBlock(paragraph, plain);
            cursor.insertText(block.text, plain);
            break;
        case JustificationBlock::Kind::Bullets: {
            QTextListFormat format;
            format.setStyle(QTextListFormat::ListDisc);
            QTextList* list = nullptr;
            for (const QString& item : block.items) {
                newBlock(paragraph, plain);
                // Each item's block joins the list: a new block does not inherit it.
                if (!list)
                    list = cursor.createList(format);
                else
                    list->add(cursor.block());
                cursor.insertText(item, plain);
            }
            break;
        }
        }
    }
}

bool writeJustification(const Justification& j, const QString& path, QString* error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("odt") && suffix != QLatin1String("md")
        && suffix != QLatin1String("txt")) {
        *error = QStringLiteral("%1: the justification is written as .odt, .md or .txt").arg(path);
        return false;
    }
    QByteArray bytes;
    if (suffix == QLatin1String("odt")) {
        QTextDocument document;
        fillDocument(j, document);
        QBuffer odf(&bytes);
        odf.open(QIODevice::WriteOnly);
        QTextDocumentWriter writer(&odf, "odf");
        if (!writer.write(&document)) {
            *error = QStringLiteral("cannot write %1 as ODF text").arg(path);
            return false;
        }
    } else {
        bytes = (suffix == QLatin1String("md") ? toMarkdown(j) : toPlainText(j)).toUtf8();
    }
    return views::saveWholeFile(path, bytes, error);
}

} // namespace gpuplan::render

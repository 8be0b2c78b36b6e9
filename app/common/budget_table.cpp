#include "app/common/budget_table.h"

#include "app/common/format.h"
#include "app/common/wording.h"
#include "core/costing/calendar.h"
#include "core/limits.h"

#include <QDate>
#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpuplan::views {

namespace {

QString machineName(const OwnedOption& o)
{
    QString name = formatMachine(o.gpuCount, QString::fromStdString(o.gpu->name));
    if (o.system)
        name += QStringLiteral(" (%1)").arg(QString::fromStdString(o.system->name));
    else if (o.chassis)
        name += QStringLiteral(" in %1").arg(QString::fromStdString(o.chassis->name));
    return name;
}

QString plainNumber(double usd)
{
    return QString::number(usd, 'f', 2);
}

QJsonArray numbers(const std::vector<double>& values)
{
    QJsonArray array;
    for (double v : values)
        array.append(v);
    return array;
}

} // namespace

QString budgetCategoryLabel(BudgetCategory category, const Results& r, BudgetTarget target)
{
    switch (category) {
    case BudgetCategory::Equipment:
        return QStringLiteral("Equipment");
    case BudgetCategory::Supplies:
        return QStringLiteral("Materials and supplies");
    case BudgetCategory::Energy:
        return QStringLiteral("Electricity");
    case BudgetCategory::Hosting:
        return QStringLiteral("Hosting (colocation, machine room)");
    case BudgetCategory::Support:
        return QStringLiteral("Support contract");
    case BudgetCategory::Staff:
        return QStringLiteral("Staff time");
    case BudgetCategory::Fringe:
        return QStringLiteral("Fringe benefits (on staff time)");
    case BudgetCategory::ComputingServices:
        if (target.kind == BudgetTarget::Kind::Rented && target.index < r.cloud.size()) {
            switch (r.cloud[target.index].offer->kind) {
            case OfferKind::Campus:
                return QStringLiteral("Computing services (campus recharge)");
            case OfferKind::Allocation:
                return QStringLiteral("Computing services (allocation, no cash)");
            case OfferKind::Cloud:
                break;
            }
        }
        return QStringLiteral("Computing services (cloud)");
    }
    return {};
}

QString budgetTargetLabel(const Results& r, BudgetTarget target, const GrantBudget* budget)
{
    if (target.kind == BudgetTarget::Kind::Owned)
        return target.index < r.options.size() ? machineName(r.options[target.index]) : QString();
    if (target.index >= r.cloud.size())
        return {};
    const CloudOption& c = r.cloud[target.index];
    return QStringLiteral("%1 %2, %3, %4")
        .arg(QString::fromStdString(c.offer->provider), QString::fromStdString(c.offer->instance),
            formatMachine(c.gpuCount, QString::fromStdString(c.gpu->name)),
            budget && budget->pricing == Pricing::Reserved ? budgetPricingLabel(*budget)
                : target.reservedTerms && !c.offer->reserved.empty()
                ? QStringLiteral("reserved terms")
                : pricingLabel(c.cheapestPricing, c.cheapestReservedYears));
}

QString grantYearLabel(const GrantPlan& plan, int year)
{
    const QString label = QStringLiteral("Year %1").arg(year);
    if (plan.startYear <= 0)
        return label;
    const QDate first = QDate(plan.startYear, plan.startMonth, 1).addYears(year - 1);
    const QDate last = first.addMonths(11);
    return label
        + QStringLiteral(" (%1 to %2)")
              .arg(first.toString(QStringLiteral("yyyy-MM")),
                  last.toString(QStringLiteral("yyyy-MM")));
}

QString grantPlanProblemText(GrantPlanProblem problem, const GrantPlan& plan)
{
    switch (problem) {
    case GrantPlanProblem::None:
        return {};
    case GrantPlanProblem::Years:
        return QStringLiteral("the grant must last %1 to %2 years, not %3")
            .arg(limits::kGrantYears.bounds.min)
            .arg(limits::kGrantYears.bounds.max)
            .arg(plan.years);
    case GrantPlanProblem::RunsPerYearCount:
        return QStringLiteral("runs per year has %1 entries; the grant has %2 years")
            .arg(plan.runsPerYear.size())
            .arg(plan.years);
    case GrantPlanProblem::RunsPerYearValue:
        return QStringLiteral("runs per year must be whole numbers from %1 to %2")
            .arg(limits::kRunsPerYear.bounds.min)
            .arg(limits::kRunsPerYear.bounds.max);
    case GrantPlanProblem::EquipmentYear:
        return QStringLiteral("the machine must be bought in a year of the grant (1 to %1), not "
                              "year %2")
            .arg(plan.years)
            .arg(plan.equipmentYear);
    case GrantPlanProblem::RunsBeforePurchase:
        return QStringLiteral("runs are planned before the machine is bought in year %1: move "
                              "them to a later year or buy earlier")
            .arg(plan.equipmentYear);
    case GrantPlanProblem::NoRuns:
        return QStringLiteral("the plan has no runs: plan at least one run in some year");
    case GrantPlanProblem::Target:
        return QStringLiteral("no such machine or offer in the plan");
    }
    return {};
}

QString unsetIndirectRateNote(const SponsorRules& sponsor, double indirectRate)
{
    if (indirectRate > 0.0 || !chargesIndirect(sponsor))
        return {};
    return QStringLiteral("The indirect (F&A) rate is 0%, yet the sponsor's rules (%1) charge it: "
                          "set your institution's negotiated rate (the Indirect (F&A) rate "
                          "assumption; --indirect-rate in gpuplan-cli), or the costs that carry "
                          "it, renting most of all, are understated.")
        .arg(toQString(sponsor.name));
}

namespace {

// "3-yr and 1-yr" for reservations bought in different terms; empty where one term serves.
QString mixedTermsText(const GrantBudget& budget)
{
    if (!budget.mixesReservationTerms())
        return {};
    QStringList named;
    for (const double years : budget.reservationTermYears)
        named << QStringLiteral("%1-yr").arg(years);
    return listedWithAnd(named);
}

} // namespace

QString budgetPricingLabel(const GrantBudget& budget)
{
    if (budget.pricing != Pricing::Reserved)
        return pricingLabel(budget.pricing);
    if (const QString mixed = mixedTermsText(budget); !mixed.isEmpty())
        return QStringLiteral("reserved (%1 terms)").arg(mixed);
    return pricingLabel(Pricing::Reserved, budget.reservedTermYears);
}

QString reservedAfterGrantText(const GrantBudget& budget)
{
    if (budget.reservedAfterGrantUsd <= 0.0)
        return {};
    const QString owed = formatWholeUsd(budget.reservedAfterGrantUsd);
    if (budget.mixesReservationTerms() || budget.holdsReservationsSideBySide())
        return QStringLiteral("reservations run past the grant's last year: a further %1 before "
                              "indirect costs is owed after it, outside this budget.")
            .arg(owed);
    return QStringLiteral("the %1-year reservation runs past the grant's last year: a further %2 "
                          "before indirect costs is owed after it, outside this budget.")
        .arg(budget.reservedTermYears)
        .arg(owed);
}

QString reservationsHeldText(const GrantBudget& budget)
{
    if (!budget.holdsReservationsSideBySide())
        return {};
    QStringList needing;
    for (std::size_t y = 0; y < budget.reservationsNeededPerYear.size(); ++y)
        if (budget.reservationsNeededPerYear[y] > 1)
            needing << QStringLiteral("year %1 (%2)")
                           .arg(y + 1)
                           .arg(formatQuantity(budget.runsPerYear.at(y), Unit::Runs));
    const auto& paidPerYear = budget.reservationsPaidPerYear;
    QStringList paid;
    for (std::size_t y = 0; y < paidPerYear.size(); ++y)
        if (paidPerYear[y] > 0)
            paid << QStringLiteral("%1 in year %2")
                        .arg(formatQuantity(paidPerYear[y], Unit::Count))
                        .arg(y + 1);
    // Side by side because a year's runs overflow it, or because a run longer than a year
    // still holds its reservation when the next year's runs start.
    const QString why = needing.isEmpty()
        ? QStringLiteral("runs longer than a year overlap the next year's")
        : QStringLiteral("the runs of %1 take longer than a year back to back")
              .arg(listedWithAnd(needing));
    QString text = QStringLiteral("%1, so reservations are held side by side; paid: %2.")
                       .arg(why, listedWithAnd(paid));
    if (const QString mixed = mixedTermsText(budget); !mixed.isEmpty())
        text += QStringLiteral(" Each buys the terms cheapest for its own runs (here %1 terms).")
                    .arg(mixed);
    return text;
}

QString overfullYearsText(const GrantBudget& budget)
{
    if (budget.overfullYears.empty())
        return {};
    QStringList years;
    for (int y : budget.overfullYears)
        years << QString::number(y);
    return QStringLiteral("the runs of %1 %2 do not fit on one machine back to back")
        .arg(years.size() == 1 ? QStringLiteral("year") : QStringLiteral("years"),
            listedWithAnd(years));
}

namespace {

// An overrun as it reads: under a tenth of a day "0.0 days" had warned of nothing, so minutes
// or hours there.
QString overrunText(double days)
{
    if (days >= 0.1)
        return formatDays(days);
    const double minutes = std::ceil(days * calendar::kHoursPerDay * 60.0 - 1e-9);
    if (minutes < 60.0)
        return minutes == 1.0 ? QStringLiteral("1 minute")
                              : QStringLiteral("%1 minutes").arg(minutes, 0, 'f', 0);
    return QStringLiteral("%1 hours").arg(days * calendar::kHoursPerDay, 0, 'f', 1);
}

} // namespace

QString runsPastGrantText(const GrantBudget& budget)
{
    // Less than a minute past is a rounding of the calendar, not a run cut short.
    if (budget.daysPastGrant * calendar::kHoursPerDay * 60.0 < 1.0)
        return {};
    const int runs = std::accumulate(budget.runsPerYear.begin(), budget.runsPerYear.end(), 0);
    // Booked in the year the plan puts them, which for runs waiting on the machine is not the
    // year they start.
    if (runs == 1)
        return QStringLiteral("the run ends %1 after the grant's last day; it is budgeted in the "
                              "year it is planned")
            .arg(overrunText(budget.daysPastGrant));
    return (budget.runsBackToBack
            ? QStringLiteral("back to back on one machine, the runs end %1 after the grant's "
                             "last day; each is budgeted in the year it is planned")
            : QStringLiteral("even side by side, the last runs end %1 after the grant's last "
                             "day; each is budgeted in the year it is planned"))
        .arg(overrunText(budget.daysPastGrant));
}

QStringList budgetNotes(double indirectRate, const SponsorRules& sponsor, const GrantBudget& budget)
{
    QStringList notes;
    if (const QString overfull = overfullYearsText(budget); !overfull.isEmpty())
        notes << QStringLiteral("Warning: ") + overfull + QLatin1Char('.');
    if (const QString past = runsPastGrantText(budget); !past.isEmpty())
        notes << QStringLiteral("Warning: ") + past + QLatin1Char('.');
    if (budget.runsOutlastMachineLife)
        notes << QStringLiteral("Warning: the last run ends after the machine's life (the "
                                "amortisation period from its purchase, which its cost per run "
                                "and resale value assume); this budget keeps it in use past that "
                                "life instead of counting a second machine.");
    if (const QString unset = unsetIndirectRateNote(sponsor, indirectRate); !unset.isEmpty())
        notes << QStringLiteral("Warning: ") + unset;
    // Salary without its fringe benefits understates a budget's personnel by about a third.
    const auto hasLine = [&budget](BudgetCategory category) {
        return std::any_of(budget.lines.begin(), budget.lines.end(),
            [category](const BudgetLine& line) { return line.category == category; });
    };
    if (hasLine(BudgetCategory::Staff) && !hasLine(BudgetCategory::Fringe))
        notes << QStringLiteral("Warning: the staff time is budgeted without fringe benefits: set "
                                "your institution's rate for staff (the Fringe benefits "
                                "assumption; --fringe-rate in gpuplan-cli), or the personnel "
                                "costs are understated.");
    // The budget then shows none of the rate the user gave.
    if (budget.indirectRate > 0.0 && !carriesIndirect(budget))
        notes << QStringLiteral("Note: the sponsor's rules (%1) put the indirect rate of %2 on no "
                                "category, so this budget has no indirect costs.")
                     .arg(toQString(sponsor.name), formatRate(budget.indirectRate));
    if (const QString held = reservationsHeldText(budget); !held.isEmpty())
        notes << QStringLiteral("Note: ") + held;
    if (const QString owed = reservedAfterGrantText(budget); !owed.isEmpty())
        notes << QStringLiteral("Note: ") + owed;
    return notes;
}

namespace {
// The costs the rules put in the base, in words.
QStringList carriedCosts(const SponsorRules& sponsor)
{
    const QString threshold = formatWholeUsd(sponsor.equipmentThresholdUsd);
    QStringList carried;
    // In the order a PI weighs them: renting, the machine, then what owning it adds.
    for (BudgetCategory c : { BudgetCategory::ComputingServices, BudgetCategory::Equipment,
             BudgetCategory::Supplies, BudgetCategory::Energy, BudgetCategory::Hosting,
             BudgetCategory::Support, BudgetCategory::Staff, BudgetCategory::Fringe }) {
        if (!sponsor.carries(c))
            continue;
        switch (c) {
        case BudgetCategory::ComputingServices:
            carried << QStringLiteral("cloud and recharge computing");
            break;
        case BudgetCategory::Equipment:
            carried << (sponsor.equipmentThresholdUsd > 0.0
                    ? QStringLiteral("a machine from %1 (equipment)").arg(threshold)
                    : QStringLiteral("every machine"));
            break;
        case BudgetCategory::Supplies:
            if (sponsor.equipmentThresholdUsd > 0.0)
                carried << QStringLiteral("a machine below %1 (supplies)").arg(threshold);
            break;
        case BudgetCategory::Energy:
            carried << QStringLiteral("electricity");
            break;
        case BudgetCategory::Hosting:
            carried << QStringLiteral("hosting");
            break;
        case BudgetCategory::Support:
            carried << QStringLiteral("support");
            break;
        case BudgetCategory::Staff:
            carried << QStringLiteral("staff time");
            break;
        case BudgetCategory::Fringe:
            carried << QStringLiteral("fringe benefits");
            break;
        }
    }
    return carried;
}
} // namespace

bool chargesIndirect(const SponsorRules& sponsor)
{
    return !carriedCosts(sponsor).isEmpty();
}

QString indirectBaseText(const SponsorRules& sponsor)
{
    const QStringList carried = carriedCosts(sponsor);
    if (carried.isEmpty())
        return QStringLiteral("no cost");
    // What is not named is exempt; only where every machine is equipment is that worth saying.
    QString text = listedWithAnd(carried);
    if (!sponsor.carries(BudgetCategory::Equipment) && sponsor.equipmentThresholdUsd <= 0.0)
        text += QStringLiteral("; every machine exempt as equipment");
    return text;
}

QString indirectScopeText(const SponsorRules& sponsor, double indirectRate)
{
    if (indirectRate <= 0.0)
        return {};
    if (!chargesIndirect(sponsor))
        return QStringLiteral("No cost includes F&A: the sponsor's rules (%1) put the rate of %2 "
                              "on none")
            .arg(toQString(sponsor.name), formatRate(indirectRate));
    return QStringLiteral("Costs include F&A at %1 on %2 (%3)")
        .arg(formatRate(indirectRate), indirectBaseText(sponsor), toQString(sponsor.name));
}

bool parseGrantStart(const QString& text, GrantPlan& plan)
{
    static const QRegularExpression month(QStringLiteral("^(\\d{4})-(\\d{2})$"));
    const auto match = month.match(text.trimmed());
    if (!match.hasMatch())
        return false;
    const int y = match.captured(1).toInt();
    const int m = match.captured(2).toInt();
    if (!limits::kGrantStartYear.contains(y) || m < 1 || m > 12)
        return false;
    plan.startYear = y;
    plan.startMonth = m;
    return true;
}

QString grantStartText(const GrantPlan& plan)
{
    if (plan.startYear <= 0)
        return {};
    return QStringLiteral("%1-%2")
        .arg(plan.startYear)
        .arg(plan.startMonth, 2, 10, QLatin1Char('0'));
}

bool parseRunsPerYear(const QString& text, GrantPlan& plan, QString* error)
{
    std::vector<int> runs;
    for (const QString& part : text.split(QLatin1Char(','))) {
        bool ok = false;
        const int value = part.trimmed().toInt(&ok);
        if (!ok || !limits::kRunsPerYear.bounds.contains(value)) {
            *error = QStringLiteral("runs per year must be whole numbers from %1 to %2 separated "
                                    "by commas, e.g. 3,4,3 (not '%3')")
                         .arg(limits::kRunsPerYear.bounds.min)
                         .arg(limits::kRunsPerYear.bounds.max)
                         .arg(text);
            return false;
        }
        runs.push_back(value);
    }
    plan.runsPerYear = std::move(runs);
    return true;
}

void defaultGrantStart(const QString& today, GrantPlan& plan)
{
    QDate day = QDate::fromString(today, Qt::ISODate);
    if (!day.isValid())
        day = QDate::currentDate();
    const QDate next = QDate(day.year(), day.month(), 1).addMonths(1);
    plan.startYear = next.year();
    plan.startMonth = next.month();
}

BudgetTable budgetTable(
    const Results& r, BudgetTarget target, const GrantPlan& plan, const GrantBudget& b)
{
    BudgetTable t;
    t.header << QStringLiteral("Category");
    for (int y = 1; y <= plan.years; ++y)
        t.header << grantYearLabel(plan, y);
    t.header << QStringLiteral("Total");
    auto money = [&](const QString& name, const std::vector<double>& byYear, double total) {
        QStringList row { name };
        for (double v : byYear)
            row << formatWholeUsd(v);
        row << formatWholeUsd(total);
        t.rows << row;
    };
    QStringList runs { QStringLiteral("Training runs") };
    int totalRuns = 0;
    for (int n : b.runsPerYear) {
        runs << QString::number(n);
        totalRuns += n;
    }
    runs << QString::number(totalRuns);
    t.rows << runs;
    for (const BudgetLine& line : b.lines)
        money(budgetCategoryLabel(line.category, r, target)
                + (line.carriesIndirect ? QString() : QStringLiteral(" (no F&A)")),
            line.usdByYear, line.totalUsd);
    money(QStringLiteral("Direct costs"), b.directByYear, b.directUsd);
    // What the rate falls on, so that the F&A row can be checked against it (US federal: the
    // modified total direct costs); only where a rate falls on something.
    if (carriesIndirect(b) && b.indirectRate > 0.0)
        money(QStringLiteral("F&A base"), b.indirectBaseByYear, b.indirectBaseUsd);
    // A rate that falls on none of the budget's categories (a sponsor that pays no indirect
    // costs) is not shown as if it applied.
    money(carriesIndirect(b) || b.indirectRate == 0.0
            ? QStringLiteral("Indirect costs (F&A at %1)").arg(formatRate(b.indirectRate))
            : QStringLiteral("Indirect costs (none under the sponsor's rules)"),
        b.indirectByYear, b.indirectUsd);
    money(QStringLiteral("Total"), b.totalByYear, b.totalUsd);
    return t;
}

QString budgetCsv(const GrantPlan& plan, const GrantBudget& b)
{
    QStringList lines;
    QStringList header { QStringLiteral("category"), QStringLiteral("carries_indirect") };
    for (int y = 1; y <= plan.years; ++y)
        header << QStringLiteral("year_%1_usd").arg(y);
    header << QStringLiteral("total_usd");
    lines << header.join(QLatin1Char(','));
    auto row = [&](const QString& name, const QString& carries, const std::vector<double>& byYear,
                   double total) {
        QStringList cells { name, carries };
        for (double v : byYear)
            cells << plainNumber(v);
        cells << plainNumber(total);
        lines << cells.join(QLatin1Char(','));
    };
    QStringList runs { QStringLiteral("runs"), QString() };
    int totalRuns = 0;
    for (int n : b.runsPerYear) {
        runs << QString::number(n);
        totalRuns += n;
    }
    runs << QString::number(totalRuns);
    lines << runs.join(QLatin1Char(','));
    for (const BudgetLine& line : b.lines)
        row(toQString(toString(line.category)),
            line.carriesIndirect ? QStringLiteral("yes") : QStringLiteral("no"), line.usdByYear,
            line.totalUsd);
    row(QStringLiteral("direct"), QString(), b.directByYear, b.directUsd);
    row(QStringLiteral("indirect_base"), QString(), b.indirectBaseByYear, b.indirectBaseUsd);
    row(QStringLiteral("indirect"), QString(), b.indirectByYear, b.indirectUsd);
    row(QStringLiteral("total"), QString(), b.totalByYear, b.totalUsd);
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QJsonObject budgetJson(const Results& r, BudgetTarget target, const GrantPlan& plan,
    const SponsorRules& sponsor, const GrantBudget& b)
{
    QJsonArray runs;
    for (int n : b.runsPerYear)
        runs.append(n);
    QJsonArray lines;
    for (const BudgetLine& line : b.lines)
        lines.append(QJsonObject {
            { QStringLiteral("category"), toQString(toString(line.category)) },
            { QStringLiteral("label"), budgetCategoryLabel(line.category, r, target) },
            { QStringLiteral("carries_indirect"), line.carriesIndirect },
            { QStringLiteral("usd_by_year"), numbers(line.usdByYear) },
            { QStringLiteral("total_usd"), line.totalUsd },
        });
    QJsonArray years;
    for (int y = 1; y <= plan.years; ++y)
        years.append(grantYearLabel(plan, y));
    QJsonArray overfull;
    for (int y : b.overfullYears)
        overfull.append(y);
    const bool owned = target.kind == BudgetTarget::Kind::Owned;
    QJsonObject json {
        { QStringLiteral("target_kind"), owned ? QStringLiteral("buy") : QStringLiteral("rent") },
        { QStringLiteral("target"), budgetTargetLabel(r, target, &b) },
        { QStringLiteral("sponsor"), toQString(sponsor.id) },
        { QStringLiteral("years_of_grant"), plan.years },
        { QStringLiteral("start"), grantStartText(plan) },
        { QStringLiteral("years"), years },
        { QStringLiteral("runs_per_year"), runs },
        { QStringLiteral("lines"), lines },
        { QStringLiteral("direct_usd_by_year"), numbers(b.directByYear) },
        { QStringLiteral("indirect_base_usd_by_year"), numbers(b.indirectBaseByYear) },
        { QStringLiteral("indirect_usd_by_year"), numbers(b.indirectByYear) },
        { QStringLiteral("total_usd_by_year"), numbers(b.totalByYear) },
        { QStringLiteral("direct_usd"), b.directUsd },
        { QStringLiteral("indirect_base_usd"), b.indirectBaseUsd },
        { QStringLiteral("indirect_usd"), b.indirectUsd },
        { QStringLiteral("total_usd"), b.totalUsd },
        { QStringLiteral("indirect_rate"), b.indirectRate },
        { QStringLiteral("overfull_years"), overfull },
        { QStringLiteral("days_past_grant"), b.daysPastGrant },
        { QStringLiteral("runs_outlast_machine_life"), b.runsOutlastMachineLife },
        // What the table's reader is told beneath it (budgetNotes), so that no output drops it.
        { QStringLiteral("notes"),
            QJsonArray::fromStringList(budgetNotes(b.indirectRate, sponsor, b)) },
        { QStringLiteral("reserved_after_grant_usd"), b.reservedAfterGrantUsd },
    };
    if (owned) {
        json.insert(QStringLiteral("machine_id"),
            QStringLiteral("%1x%2")
                .arg(r.options[target.index].gpuCount)
                .arg(QString::fromStdString(r.options[target.index].gpu->id)));
        json.insert(QStringLiteral("equipment_year"), plan.equipmentYear);
        // The machine's life past the grant: sold then, it fetches at least its resale value.
        json.insert(QStringLiteral("years_owned_after_grant"), b.yearsOwnedAfterGrant);
        // The grant past the machine's life, which its resale value is assumed at.
        json.insert(QStringLiteral("years_owned_past_life"), b.yearsOwnedPastLife);
        if (b.netOfResaleUsd)
            json.insert(QStringLiteral("net_of_resale_usd"), *b.netOfResaleUsd);
    } else {
        const CloudOption& c = r.cloud[target.index];
        json.insert(QStringLiteral("offer_id"), QString::fromStdString(c.offer->id));
        json.insert(QStringLiteral("gpu_count"), c.gpuCount);
        // "reserved 3-yr" as before, the term most of the money goes to; the lengths bought are
        // in reservation_term_years.
        json.insert(QStringLiteral("pricing"),
            pricingLabel(b.pricing,
                b.pricing == Pricing::Reserved ? std::optional<double>(b.reservedTermYears)
                                               : std::nullopt));
        json.insert(QStringLiteral("spend_per_run_usd"), b.spendPerRunUsd);
        if (b.reservedTermsPerRunUsd) // whole terms over the runs: what a run costs here
            json.insert(QStringLiteral("terms_per_run_usd"), *b.reservedTermsPerRunUsd);
        if (b.pricing == Pricing::Reserved) {
            QJsonArray terms, needed, paid;
            for (const double termYears : b.reservationTermYears)
                terms.append(termYears);
            for (const int n : b.reservationsNeededPerYear)
                needed.append(n);
            for (const int n : b.reservationsPaidPerYear)
                paid.append(n);
            json.insert(QStringLiteral("reservation_term_years"), terms);
            json.insert(QStringLiteral("reservations_needed_per_year"), needed);
            json.insert(QStringLiteral("reservations_paid_per_year"), paid);
        }
    }
    return json;
}

} // namespace gpuplan::views

#include "app/render/proposal_report.h"

#include "app/common/budget_table.h"
#include "app/common/cloud_columns.h"
#include "app/common/format.h"
#include "app/common/option_columns.h"
#include "app/common/price_staleness.h"
#include "app/common/results_csv.h"
#include "app/common/saved_file.h"
#include "app/common/wording.h"
#include "app/render/budget_justification.h"
#include "app/render/buy_vs_rent_chart.h"
#include "app/render/chart_export.h"
#include "app/render/planner_charts.h"
#include "app/render/sensitivity_chart.h"
#include "core/costing/calendar.h"
#include "core/price_age.h"

#include <QBuffer>
#include <QDate>
#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QLocale>
#include <QMap>
#include <QPageLayout>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QTextDocument>
#include <QUrl>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>

namespace gpuplan::render {

namespace {

// Charts go into the report as images at this resolution: sharp in print, small enough to mail.
constexpr int kReportChartDpi = 200;
// Width of a chart in the document's layout units (the A4 text width at 96 units per inch).
constexpr int kReportChartWidth = 640;

QString esc(const QString& text)
{
    return text.toHtmlEscaped();
}

QString esc(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString provenance(const Provenance& p)
{
    QString text = esc(p.date.empty() ? std::string("undated") : p.date) + QStringLiteral(", ")
        + esc(p.source);
    if (!p.note.empty())
        text += QStringLiteral(" (") + esc(p.note) + QLatin1Char(')');
    return text;
}

// An assumption's source as every view cites it (views::assumptionCitation), with its caveat.
QString assumptionSource(const Provenance& p)
{
    QString text = esc(views::assumptionCitation(p));
    if (!p.note.empty())
        text += QStringLiteral(" (") + esc(p.note) + QLatin1Char(')');
    return text;
}

// A header row is a <thead>: a table that runs onto the next page repeats it there. Figures are
// never broken inside: Qt's table layout broke "$255,23 / 7" over two lines in a five-year
// budget's Total column, where a grants office reads the figures, and "(1305.8-2872. / 8)" in
// the appendix. A cell of one figure does not wrap; a range's ends are joined by an en dash, the
// range dash of typeset text, after which a line may break ("(1305.8–" / "2872.8)").
QString row(const QStringList& cells, bool header = false, bool wholeFigures = true)
{
    // A range of two figures opening brackets, "($216,951-$293,523)" or "($1,514-$1,876,
    // on-demand)"; not a date, nor a part number ("i7-11700K") or an id.
    static const QRegularExpression rangeDash(
        QStringLiteral("\\((\\$?[0-9]+(?:[,.][0-9]+)*%?)-(\\$?[0-9]+(?:[,.][0-9]+)*%?)(?=[,)])"));
    const QString tag = header ? QStringLiteral("th") : QStringLiteral("td");
    QString html = QStringLiteral("<tr>");
    for (QString c : cells) {
        QString style;
        if (!header) {
            c.replace(rangeDash, QStringLiteral("(\\1\u2013\\2"));
            if (wholeFigures && !c.contains(QLatin1Char(' ')))
                style = QStringLiteral(" white-space:nowrap");
        }
        html += QStringLiteral("<%1 style=\"font-size:7pt;%3\">%2</%1>").arg(tag, c, style);
    }
    html += QStringLiteral("</tr>");
    return header ? QStringLiteral("<thead>") + html + QStringLiteral("</thead>") : html;
}

// Why page 1's buy total is not the grant budget's, where the two count different months
// (empty where they count the same): so that they are not read as one figure twice.
// - A grant longer than the machine's life from its purchase: the budget keeps the machine in
//   use to the grant's end, with no resale and no second machine; the comparison spreads its
//   price over that life, nets its resale and counts a second machine for runs past it.
// - Runs that, back to back on the one machine, end after the grant: the budget books each
//   run in its year and owning costs for the grant's months only; the comparison counts them
//   for every month the runs take (10 runs of Pythia-1B on one RTX 5090 take 85 months:
//   $29,796 there, $24,325 in the budget; review).
QString budgetDifferenceText(const Results& r, const OwnedOption& o, const GrantBudget& owned)
{
    const auto years = [](double y) {
        return countOf(
            y, y == std::floor(y) ? 0 : 1, QStringLiteral("year"), QStringLiteral("years"));
    };
    if (owned.yearsOwnedPastLife > 0.0)
        return QStringLiteral(
            "The grant runs %1 past the machine's %2 life. The grant budget below keeps it in "
            "use to the grant's end, for %3 with no resale and no second machine; the comparison "
            "above spreads its price over that life, nets its resale and counts a second machine "
            "for runs past it, so its totals differ from the budget's.")
            .arg(years(owned.yearsOwnedPastLife),
                QString::number(r.assumptions.amortizationYears, 'g', 3) + QStringLiteral("-year"),
                views::formatWholeUsd(owned.totalUsd));
    if (owned.runsBackToBack && owned.daysPastGrant > 0.0 && o.owning.monthlyUsd > 0.0)
        return QStringLiteral(
            "Back to back on the one machine, the runs end %1 after the grant. The grant budget "
            "below books each run in its year and the owning costs of the grant's months only, "
            "for %2; the comparison above counts the owning costs of every month the runs take, "
            "so its totals differ from the budget's.")
            .arg(countOf(std::round(owned.daysPastGrant / calendar::kDaysPerMonth), 0,
                     QStringLiteral("month"), QStringLiteral("months")),
                views::formatWholeUsd(owned.totalUsd));
    return {};
}

// A section that starts on a new page: its heading is never left alone at the foot of one (Qt's
// text layout has no keep-with-next).
QString newPageHeading(const QString& title)
{
    return QStringLiteral("<h2 style=\"page-break-before:always\">%1</h2>").arg(title);
}

QString tableStart()
{
    return QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\" "
                          "style=\"border-collapse:collapse; font-size:7.5pt;\">");
}

// The planner's runs and rate beside the grant's pace, and which of this report's figures the
// pace moves (`figuresAtPace`, figuresThatFollowThePace): a note naming owning costs or a
// break-even the report does not have sent a reader looking for them (helper 70).
QString assumptionsSection(const Results& r, const std::optional<ReportInput::PlannerPace>& planner,
    const QStringList& figuresAtPace)
{
    const Assumptions& a = r.assumptions;
    QString html = QStringLiteral("<h2>Assumptions</h2><ul>");
    html
        += QStringLiteral("<li>Estimate source: %1</li>").arg(views::toQString(toString(r.source)));
    html += QStringLiteral("<li>Amortisation: %1, machine in use %2 of the time</li>")
                .arg(views::formatQuantity(a.amortizationYears, Unit::Years),
                    views::formatPercent(a.machineUtilization));
    // One arg() for all four: chained, a source's own "%2C" (a URL's comma) took the next
    // value, and the PUE landed inside the electricity's source.
    // A stale electricity or hosting rate says so, as the prices and the budget justification
    // do (review): a 2024 tariff in a 2026 proposal is the reviewer's question.
    const auto dated = [&](AssumptionId id) {
        return assumptionSource(a.source(id)) + esc(views::assumptionStalenessText(id, r));
    };
    html += QStringLiteral("<li>Electricity: $%1 per kWh (%2); PUE %3 (%4)</li>")
                .arg(QString::number(a.electricityUsdPerKwh),
                    dated(AssumptionId::ElectricityUsdPerKwh), QString::number(a.pue),
                    assumptionSource(a.source(AssumptionId::Pue))); // a survey's figure, no price
    html += QStringLiteral("<li>Spot restart overhead: %1 (%2)</li>")
                .arg(views::formatPercent(a.spotRestartOverhead),
                    assumptionSource(a.source(AssumptionId::SpotRestartOverhead)));
    const QString rulesName = esc(QString::fromStdString(r.indirectRules.name));
    html += views::chargesIndirect(r.indirectRules)
        ? QStringLiteral("<li>Indirect (F&amp;A) rate: %1, on %2, in the per-run costs, "
                         "break-even and budget alike (%3)</li>")
              .arg(views::formatRate(a.indirectRate), esc(views::indirectBaseText(r.indirectRules)),
                  rulesName)
        : QStringLiteral("<li>Indirect (F&amp;A) rate: %1, on no cost under the sponsor's "
                         "rules (%2)</li>")
              .arg(views::formatRate(a.indirectRate), rulesName);
    html += QStringLiteral("<li>Analytic estimates assume %1 of peak (%2)</li>")
                .arg(views::formatPercent(a.analyticUtilization),
                    assumptionSource(a.source(AssumptionId::AnalyticUtilization)));
    // The owning costs beyond the paper move every per-experiment cost and break-even: a
    // reviewer reproducing them needs each, with its source.
    QStringList owning;
    for (AssumptionId id :
        { AssumptionId::HostingUsdPerKwMonth, AssumptionId::MachineRoomUsdPerMonth,
            AssumptionId::SupportRate, AssumptionId::StaffUsdPerYear, AssumptionId::FringeRate,
            AssumptionId::ResaleFraction }) {
        const double value = assumptionValue(a, id);
        if (value <= 0.0)
            continue;
        const Provenance& source = a.source(id);
        // Colocation is charged on each machine's own draw, before the PUE (costing/owning.h):
        // read against the grid's draw with PUE, the rate gave no budget's figure (review).
        const QString basis = id == AssumptionId::HostingUsdPerKwMonth
            ? QStringLiteral(" on each machine's draw before PUE")
            : QString();
        owning << QStringLiteral("%1 %2%3%4")
                      .arg(esc(views::toQString(assumptionSpec(id).label)).toLower(),
                          esc(views::formatQuantity(value, assumptionSpec(id).unit)), basis,
                          source.source.empty() ? QString()
                                                : QStringLiteral(" (%1)").arg(dated(id)));
    }
    html += owning.isEmpty()
        ? QStringLiteral("<li>Owning costs beyond the machine and its electricity (hosting, "
                         "machine room, support, staff, resale): none counted, as in the "
                         "paper</li>")
        : QStringLiteral("<li>Owning costs: %1</li>").arg(owning.join(QStringLiteral("; ")));
    html += QStringLiteral("<li>Planned: %1, at %2")
                .arg(countOf(a.plannedRuns, 0, QStringLiteral("run"), QStringLiteral("runs")),
                    runRateText(a.runsPerMonth));
    // An explicit run rate is not dropped without a word: at another pace the break-even months,
    // the owning costs each run carries, and so the verdict, can differ.
    if (planner) {
        html += QStringLiteral(": the grant budget's runs at its pace, over the months it has the "
                               "compute. The planner was set to %1 at %2")
                    .arg(countOf(planner->runs, 0, QStringLiteral("run"), QStringLiteral("runs")),
                        runRateText(planner->runsPerMonth));
        QStringList moved;
        if (planner->runs != a.plannedRuns)
            moved << QStringLiteral("the plan's totals count the grant's %1")
                         .arg(countOf(
                             a.plannedRuns, 0, QStringLiteral("run"), QStringLiteral("runs")));
        if (std::abs(planner->runsPerMonth - a.runsPerMonth) > 1e-9 && !figuresAtPace.isEmpty())
            moved << QStringLiteral("%1 follow the grant's pace")
                         .arg(views::listedWithAnd(figuresAtPace));
        html += moved.isEmpty()
            ? QStringLiteral("; that moves no figure here.")
            : QStringLiteral(". Here %1.").arg(moved.join(QStringLiteral(", and ")));
    }
    html += QStringLiteral("</li>");
    return html + QStringLiteral("</ul>");
}

// Flags in a narrow column as their initials ("AP, UT"), explained once in a legend under the
// tables: a flag's full name wraps over four lines in a portrait column.
class FlagLegend {
public:
    QString abbreviate(const QString& flags)
    {
        QStringList codes;
        for (const QString& flag : flags.split(QStringLiteral(", "), Qt::SkipEmptyParts)) {
            QString code;
            for (const QString& word : flag.split(QLatin1Char(' '), Qt::SkipEmptyParts))
                code += word.front().toUpper();
            m_used.insert(code, flag);
            codes << code;
        }
        return codes.join(QStringLiteral(", "));
    }

    QString html(const Results& r) const
    {
        if (m_used.isEmpty())
            return {};
        QStringList items;
        for (auto it = m_used.begin(); it != m_used.end(); ++it)
            items << QStringLiteral("<b>%1</b> %2: %3")
                         .arg(esc(it.key()), esc(it.value()), esc(explain(it.value(), r)));
        return QStringLiteral("<p style=\"font-size:7pt\">Flags: ")
            + items.join(QStringLiteral("; ")) + QStringLiteral(".</p>");
    }

private:
    static QString explain(const QString& flag, const Results& r)
    {
        for (int f = 0; f <= static_cast<int>(kLastEstimateFlag); ++f) {
            const auto e = static_cast<EstimateFlag>(f);
            if (views::toQString(label(e)) == flag) {
                QString text = views::toQString(describe(e));
                if (text.endsWith(QLatin1Char('.')))
                    text.chop(1);
                return text;
            }
        }
        for (const PowerSupplyFit fit : { PowerSupplyFit::NoSpare, PowerSupplyFit::Short })
            if (views::powerSupplyLabel(fit) == flag)
                return views::powerSupplyMeaning(fit);
        return views::stalePriceNote(r);
    }

    QMap<QString, QString> m_used;
};

QString optionsTable(const Results& r, const std::vector<std::size_t>& indices, FlagLegend& legend)
{
    QString html = tableStart();
    QStringList headers;
    for (int c = 0; c < views::kOptionColumnCount; ++c)
        headers << esc(views::displayHeader(static_cast<views::OptionColumn>(c), r));
    html += row(headers, true);
    for (std::size_t i : indices) {
        const auto& o = r.options[i];
        QStringList cells;
        for (int c = 0; c < views::kOptionColumnCount; ++c) {
            const auto column = static_cast<views::OptionColumn>(c);
            const QString text = views::displayText(o, column);
            cells << esc(column == views::OptionColumn::Flags ? legend.abbreviate(text) : text);
        }
        html += row(cells);
    }
    return html + QStringLiteral("</table>");
}

// The offers' columns a reader needs to compare; the full table is in the CSV.
constexpr std::array kReportCloudColumns { views::CloudColumn::Provider, views::CloudColumn::Offer,
    views::CloudColumn::GpuCount, views::CloudColumn::Days, views::CloudColumn::CheapestCost,
    views::CloudColumn::RateDate, views::CloudColumn::Flags };

QString offersTable(const Results& r, const std::vector<std::size_t>& indices, FlagLegend& legend)
{
    QString html = tableStart();
    QStringList headers { QStringLiteral("Kind") };
    for (auto c : kReportCloudColumns)
        headers << esc(views::displayHeader(c, &r));
    html += row(headers, true);
    for (std::size_t i : indices) {
        const auto& o = r.cloud[i];
        QStringList cells { esc(views::toQString(toString(o.offer->kind))) };
        for (auto c : kReportCloudColumns) {
            const QString text = views::displayText(o, c);
            cells << esc(c == views::CloudColumn::Flags ? legend.abbreviate(text) : text);
        }
        html += row(cells);
    }
    return html + QStringLiteral("</table>");
}

QString budgetSection(const ReportInput& in)
{
    const auto grant = reportGrant(in);
    if (!grant)
        return {};
    const Results& r = *in.results;
    const GrantBudget budget = grantBudget(r, grant->target, grant->plan, *grant->sponsor);
    const views::BudgetTable table = views::budgetTable(r, grant->target, grant->plan, budget);
    // The verdict on the first page adds unrounded figures; a budget form adds whole dollars.
    QString html = newPageHeading(QStringLiteral("Grant budget by year"))
        + QStringLiteral("<p>%1; %2. Each amount is in whole dollars by line and year, and each "
                         "total the sum of the amounts above it, so a total may differ by a few "
                         "dollars from the same figure unrounded elsewhere in this report.</p>")
              .arg(esc(views::budgetTargetLabel(r, grant->target, &budget)),
                  esc(QString::fromStdString(grant->sponsor->name)));
    html += tableStart() + row(table.header, true);
    // Up to a five-year grant (seven columns) every figure fits whole on a portrait page; a
    // longer grant's figures may wrap rather than run off the page.
    constexpr qsizetype kColumnsOfWholeFigures = 8;
    for (const auto& cells : table.rows) {
        QStringList escaped;
        for (const auto& c : cells)
            escaped << esc(c);
        html += row(escaped, false, table.header.size() <= kColumnsOfWholeFigures);
    }
    html += QStringLiteral("</table>");
    // What `gpuplan-cli budget` says under the same table: a budget without them misleads.
    for (const QString& note :
        views::budgetNotes(r.assumptions.indirectRate, *grant->sponsor, budget))
        html += QStringLiteral("<p>%1</p>").arg(esc(note));
    return html;
}

// "20 months (stale)" on the plan's day; empty without a day or a date.
QString ageCell(const Provenance& p, const Results& r)
{
    const auto months = monthsOld(p.date, r.today);
    if (!months)
        return r.today.empty() ? QString() : QStringLiteral("<b>undated: stale</b>");
    if (*months < 0)
        return QStringLiteral("<b>after today: stale</b>");
    const QString age = QStringLiteral("%1 mo").arg(*months);
    return isStaleAge(months, r.today, r.assumptions.staleMonths)
        ? QStringLiteral("<b>%1, stale</b>").arg(age)
        : age;
}

QString priceKindSuffix(const Provenance& p)
{
    return p.kind == PriceKind::Unstated
        ? QString()
        : QStringLiteral(" (%1)").arg(views::priceKindText(p.kind));
}

QString sourcesSection(
    const Catalog& catalog, const Results& r, const std::vector<std::size_t>& offerIndices)
{
    // On a page of its own: at the foot of the appendix its heading stood apart from its table.
    QString html = newPageHeading(QStringLiteral("Prices and their sources"));
    html += QStringLiteral("<p>Planned with %1; ages on %2, prices older than %3, undated "
                           "or dated after that day marked stale.</p>")
                .arg(views::priceSetLabel(catalog.priceSet).toHtmlEscaped(), esc(r.today),
                    views::formatQuantity(r.assumptions.staleMonths, Unit::Months));
    html += tableStart()
        + row({ QStringLiteral("Item"), QStringLiteral("Price"), QStringLiteral("Age"),
                  QStringLiteral("Date, source") },
            true);
    // The prices behind the machines planned (every option, as the options CSV lists them),
    // not the whole catalog: a plan narrowed to some GPUs listed every card, system and chassis.
    // By id: the catalog shown may be a copy of the one the results point into.
    const auto anyOption
        = [&r](const auto& uses) { return std::any_of(r.options.begin(), r.options.end(), uses); };
    for (const auto& g : catalog.gpus)
        if (g.priceUsd
            && anyOption([&g](const OwnedOption& o) { return !o.system && o.gpu->id == g.id; }))
            html += row({ esc(g.name) + QStringLiteral(" (GPU)"),
                views::formatUsd(*g.priceUsd) + priceKindSuffix(g.priceSource),
                ageCell(g.priceSource, r), provenance(g.priceSource) });
    for (const auto& sys : catalog.systems)
        if (anyOption([&sys](const OwnedOption& o) { return o.system && o.system->id == sys.id; }))
            html += row({ esc(sys.name) + QStringLiteral(" (system, %1 GPUs)").arg(sys.gpuCount),
                views::formatUsd(sys.priceUsd) + priceKindSuffix(sys.priceSource),
                ageCell(sys.priceSource, r), provenance(sys.priceSource) });
    for (const auto& c : catalog.chassis)
        if (anyOption([&c](const OwnedOption& o) { return o.chassis && o.chassis->id == c.id; }))
            html += row({ esc(c.name)
                    + QStringLiteral(" (chassis, %1)")
                          .arg(countOf(
                              c.gpuSlots, 0, QStringLiteral("slot"), QStringLiteral("slots"))),
                views::formatUsd(c.priceUsd), ageCell(c.priceSource, r),
                provenance(c.priceSource) });
    std::vector<const CloudOffer*> offers;
    for (std::size_t i : offerIndices)
        if (std::find(offers.begin(), offers.end(), r.cloud[i].offer) == offers.end())
            offers.push_back(r.cloud[i].offer);
    for (const CloudOffer* offer : offers) {
        const CloudOffer& o = *offer;
        QStringList rates;
        if (o.kind == OfferKind::Allocation)
            rates << QStringLiteral("no cash; apply %1 ahead, %2 in the queue per run")
                         .arg(views::formatQuantity(o.applicationLeadDays, Unit::Days),
                             views::formatQuantity(o.queueWaitDays, Unit::Days));
        if (o.onDemandUsdPerHour)
            rates << views::formatUsd(*o.onDemandUsdPerHour)
                    + (o.kind == OfferKind::Campus ? QStringLiteral("/h recharge")
                                                   : QStringLiteral("/h on-demand"));
        if (o.spotUsdPerHour)
            rates << views::formatUsd(*o.spotUsdPerHour) + QStringLiteral("/h spot");
        for (const auto& res : o.reserved)
            rates << views::formatUsd(res.usdPerHour) + QStringLiteral("/h %1-yr").arg(res.years);
        html += row({ esc(o.provider + " " + o.instance), rates.join(QStringLiteral(", ")),
            ageCell(o.source, r), provenance(o.source) });
    }
    html += QStringLiteral("</table>");
    if (r.workload)
        html += QStringLiteral("<p>Model recipe: %1.</p>").arg(provenance(r.workload->source));
    return html;
}

// "5.8 × 10^21" with a superscript, as FLOPs are written in papers.
QString scientific(double value)
{
    if (!(value > 0.0))
        return QStringLiteral("0");
    const int exponent = static_cast<int>(std::floor(std::log10(value)));
    const double mantissa = value / std::pow(10.0, exponent);
    return QStringLiteral("%1&nbsp;&times;&nbsp;10<sup>%2</sup>")
        .arg(QString::number(mantissa, 'f', 1))
        .arg(exponent);
}

} // namespace

QString humanCount(double value)
{
    static const QLocale english(QLocale::English, QLocale::UnitedStates);
    const std::pair<double, const char*> scales[]
        = { { 1e12, "trillion" }, { 1e9, "billion" }, { 1e6, "million" } };
    for (const auto& [scale, word] : scales)
        if (std::abs(value) >= scale) {
            const double shown = value / scale;
            const int decimals = shown >= 100.0 ? 0 : (shown >= 10.0 ? 1 : 2);
            QString text = english.toString(shown, 'f', decimals);
            while (text.contains(QLatin1Char('.')) && text.endsWith(QLatin1Char('0')))
                text.chop(1);
            if (text.endsWith(QLatin1Char('.')))
                text.chop(1);
            return text + QLatin1Char(' ') + QLatin1String(word);
        }
    return english.toString(value, 'f', 0);
}

namespace {
// The offer a budget that rents is budgeted on; none when the budget buys.
const CloudOption* rentedInBudget(const ReportInput& in)
{
    if (!in.budgetTarget || in.budgetTarget->kind != BudgetTarget::Kind::Rented
        || in.budgetTarget->index >= in.results->cloud.size())
        return nullptr;
    return &in.results->cloud[in.budgetTarget->index];
}
} // namespace

std::optional<std::size_t> reportBuyOption(const ReportInput& in)
{
    const Results& r = *in.results;
    if (in.buyOption && *in.buyOption < r.options.size())
        return in.buyOption;
    // A budget that rents is weighed against buying the same GPUs, as its justification does,
    // not against whichever machine the planner would compare; none where they are not sold.
    if (rentedInBudget(in))
        return matchingOwnedOption(r, in.budgetTarget->index);
    return defaultMachineToCompare(r);
}

std::vector<std::size_t> reportCloudOffers(const ReportInput& in)
{
    if (!in.buyCloudOffers.empty())
        return in.buyCloudOffers;
    // The offer a renting budget rents, where buying has a break-even against it (a
    // reservation-only offer has none: the cheapest pay-as-you-go rental stands in).
    const CloudOption* rented = rentedInBudget(in);
    const auto buy = reportBuyOption(in);
    if (rented && buy)
        for (const OfferBreakEven& b : in.results->options[*buy].breakEvens)
            if (b.cloudIndex == in.budgetTarget->index)
                return { in.budgetTarget->index };
    return {};
}

namespace {
// The machine the buy-vs-rent chart compares, where something rents the same GPUs: a chart of
// the buy line alone compares with nothing (as `gpuplan-cli chart` refuses it).
std::optional<std::size_t> buyVsRentChartOption(const ReportInput& in)
{
    const auto buy = reportBuyOption(in);
    if (!buy || (reportCloudOffers(in).empty() && matchingCloudOffers(*in.results, *buy).empty()))
        return std::nullopt;
    return buy;
}
} // namespace

std::optional<ReportGrant> reportGrant(const ReportInput& in)
{
    ReportGrant grant;
    grant.sponsor = in.sponsor;
    if (!grant.sponsor && in.catalog) {
        // The rules the plan's costs were weighed by, so that the budget weighs them alike.
        grant.sponsor = in.catalog->findSponsor(in.results->indirectRules.id);
        if (!grant.sponsor)
            grant.sponsor = in.catalog->findSponsor(in.catalog->defaultSponsorId());
    }
    if (!grant.sponsor)
        return std::nullopt;
    if (in.budgetTarget) {
        grant.target = *in.budgetTarget;
    } else if (const auto buy = reportBuyOption(in)) {
        grant.target = { BudgetTarget::Kind::Owned, *buy };
    } else {
        return std::nullopt;
    }
    if (in.grantPlan)
        grant.plan = *in.grantPlan;
    else
        views::defaultGrantStart(QString::fromStdString(in.results->today), grant.plan);
    if (checkGrantPlan(grant.plan, *in.results, grant.target) != GrantPlanProblem::None)
        return std::nullopt;
    return grant;
}

std::vector<std::size_t> reportOptions(const ReportInput& in)
{
    const Results& r = *in.results;
    const auto buy = reportBuyOption(in);
    std::vector<std::size_t> indices;
    for (std::size_t i = 0; i < r.options.size(); ++i)
        if (r.options[i].paretoHardware || r.options[i].paretoExperiment || r.recommended == i
            || buy == i)
            indices.push_back(i);
    return indices;
}

std::vector<std::size_t> reportOffers(const ReportInput& in)
{
    const Results& r = *in.results;
    const int runs = r.assumptions.plannedRuns;
    std::map<std::pair<const GpuSpec*, OfferKind>, std::size_t> cheapest;
    for (std::size_t i = 0; i < r.cloud.size(); ++i) {
        const auto key = std::make_pair(r.cloud[i].gpu, r.cloud[i].offer->kind);
        const auto it = cheapest.find(key);
        if (it == cheapest.end()
            || views::rankingCostPerRunUsd(r.cloud[i], runs)
                < views::rankingCostPerRunUsd(r.cloud[it->second], runs))
            cheapest[key] = i;
    }
    std::vector<std::size_t> indices;
    for (const auto& [key, index] : cheapest)
        indices.push_back(index);
    std::vector<std::size_t> compared = reportCloudOffers(in);
    if (const auto buy = reportBuyOption(in); buy && compared.empty()) {
        if (const auto c = r.options[*buy].cheapestCloudIndex)
            compared.push_back(*c);
    }
    if (const auto grant = reportGrant(in);
        grant && grant->target.kind == BudgetTarget::Kind::Rented)
        compared.push_back(grant->target.index);
    for (std::size_t i : compared)
        if (i < r.cloud.size() && std::find(indices.begin(), indices.end(), i) == indices.end())
            indices.push_back(i);
    std::stable_sort(indices.begin(), indices.end(), [&r, runs](std::size_t a, std::size_t b) {
        return views::rankingCostPerRunUsd(r.cloud[a], runs)
            < views::rankingCostPerRunUsd(r.cloud[b], runs);
    });
    return indices;
}

namespace {
// What this report states that the run rate moves (views::figuresAtThePace): of the machine
// its buy-vs-rent paragraph compares, and the reserved terms its renting appendix lists.
QStringList figuresThatFollowThePace(const ReportInput& in)
{
    const Results& r = *in.results;
    const auto offers = reportOffers(in);
    return views::figuresAtThePace(r, reportBuyOption(in),
        std::any_of(offers.begin(), offers.end(),
            [&r](std::size_t i) { return !r.cloud[i].commitments.empty(); }));
}
} // namespace

QString proposalReportHtml(const ReportInput& in)
{
    const Results& r = *in.results;
    const QString model = r.workload ? esc(r.workload->name) : QStringLiteral("(no model)");
    const QString date = in.date.isEmpty() ? QDate::currentDate().toString(Qt::ISODate) : in.date;
    QString html
        = QStringLiteral("<html><body style=\"font-family:'DejaVu Sans'; font-size:9pt;\">");
    html += QStringLiteral("<h1>Training compute for %1: buy or rent</h1>").arg(model);
    html += QStringLiteral("<p>Prepared with gpuplan on %1.</p>").arg(esc(date));
    if (r.workload) {
        const Workload& w = *r.workload;
        html += QStringLiteral("<p><b>Model:</b> %1, %2 parameters, %3 training FLOPs, global "
                               "batch of %4, %5.</p>")
                    .arg(model, humanCount(static_cast<double>(w.parameters)),
                        scientific(w.trainingFlops), humanCount(static_cast<double>(w.globalBatch)),
                        countOf(static_cast<double>(w.steps), 0, QStringLiteral("step"),
                            QStringLiteral("steps")));
    }
    if (r.recommended) {
        const auto& o = r.options[*r.recommended];
        html += QStringLiteral("<p><b>Recommendation:</b> %1, %2: %3, %4 machine, %5 per "
                               "experiment.%6</p>")
                    .arg(esc(shortMachineLabel(o)), esc(views::recommendationReason(r)),
                        esc(views::displayText(o, views::OptionColumn::Days)),
                        esc(views::displayText(o, views::OptionColumn::MachineCost)),
                        esc(views::displayText(o, views::OptionColumn::ExperimentCost)),
                        r.hasRanges ? QStringLiteral(" Ranges in brackets: every input at either "
                                                     "end of its range (prices, rates, training "
                                                     "time, electricity and the other "
                                                     "assumptions).")
                                    : QString());
        if (const QString caution = views::recommendationCaution(o); !caution.isEmpty())
            html += QStringLiteral("<p><b>%1</b></p>").arg(esc(caution));
        if (const QString note = views::recommendationRangeNote(r); !note.isEmpty())
            html += QStringLiteral("<p>%1</p>").arg(esc(note));
    } else if (const QString why = views::recommendationReason(r); !why.isEmpty()) {
        html += QStringLiteral("<p><b>Recommendation:</b> none, %1.</p>").arg(esc(why));
    }
    if (const QString aside = views::recommendationSetAside(r); !aside.isEmpty())
        html += QStringLiteral("<p>%1.</p>").arg(esc(aside));
    if (r.recommended) {
        if (const QString robust = views::robustnessText(r); !robust.isEmpty())
            html += QStringLiteral("<p><b>How firm:</b> %1 (%2 sampled scenarios, seed %3).</p>")
                        .arg(esc(robust))
                        .arg(r.monteCarlo ? r.monteCarlo->samples : 0)
                        .arg(r.monteCarlo ? QString::number(r.monteCarlo->seed) : QString());
    }
    if (const auto buy = reportBuyOption(in)) {
        const std::vector<std::size_t> compared = reportCloudOffers(in);
        const QString verdict = planVerdictText(r, *buy, compared);
        const auto grant = reportGrant(in);
        // The budget of the machine page 1 weighs, where the grant budgets that one.
        std::optional<GrantBudget> owned;
        if (grant && grant->sponsor && grant->target.kind == BudgetTarget::Kind::Owned
            && grant->target.index == *buy)
            owned = grantBudget(r, grant->target, grant->plan, *grant->sponsor);
        const QString differs
            = owned ? budgetDifferenceText(r, r.options[*buy], *owned) : QString();
        // The same plan as the budget's, unrounded: "$86,197" here and "$86,198" from the
        // budget's whole dollars a paragraph later read as two figures (review). Where the two
        // count different months, that is said instead: "a few dollars" beside $5,471 misled.
        const QString rounding = grant && differs.isEmpty() && !verdict.isEmpty()
            ? QStringLiteral(" These totals are unrounded; the grant budget adds whole dollars "
                             "by line and year, so its totals may differ by a few dollars.")
            : QString();
        html += QStringLiteral("<p><b>Buy vs rent:</b> %1%2%3</p>")
                    .arg(esc(buyVsRentConclusion(r, *buy, compared)),
                        verdict.isEmpty() ? QString() : QLatin1Char(' ') + esc(verdict), rounding);
        // A budget renting by reserved terms (an offer of terms only, or an offer's terms
        // chosen over its hourly rates): the planner's per-run comparison above weighs a
        // pay-as-you-go rental, and read alone it contradicted the budget (renting cheaper by
        // $58,843 above, $584,991 and $259,997 owed after the grant below). The budget's own
        // weighing follows it.
        const CloudOption* rented = rentedInBudget(in);
        if (rented && grant && grant->sponsor
            && (rented->cheapestIsCommitment || grant->target.reservedTerms))
            html += QStringLiteral("<p>The grant budget below rents %1 by reserved terms, which "
                                   "the per-run comparison above does not weigh. %2</p>")
                        .arg(esc(rentalLabel(*rented)),
                            esc(buyingWeighedAgainstRenting(
                                r, grant->target, grant->plan, *grant->sponsor)));
        if (!differs.isEmpty())
            html += QStringLiteral("<p>%1</p>").arg(esc(differs));
    } else if (const CloudOption* rented = rentedInBudget(in)) {
        html += QStringLiteral("<p><b>Buy vs rent:</b> %1</p>")
                    .arg(esc(noMachineForSaleText(*rented)));
    }
    html += assumptionsSection(
        r, in.plannerPace, in.plannerPace ? figuresThatFollowThePace(in) : QStringList());
    html += newPageHeading(QStringLiteral("Training time and cost"));
    QStringList charts { QStringLiteral("chart:hardware"), QStringLiteral("chart:experiment") };
    if (buyVsRentChartOption(in))
        charts << QStringLiteral("chart:buy-vs-rent");
    if (in.scenario && reportBuyOption(in))
        charts << QStringLiteral("chart:sensitivity");
    for (const QString& name : charts)
        html += QStringLiteral("<p><img src=\"%1\" width=\"%2\"></p>")
                    .arg(name)
                    .arg(kReportChartWidth);
    html += budgetSection(in);
    FlagLegend legend;
    html += QStringLiteral("<h2>Appendix: machines on the frontier</h2><p>The machines on either "
                           "chart's frontier, the recommended one and the one compared above")
        + (in.optionsCsvName.isEmpty() ? QStringLiteral(".</p>")
                                       : QStringLiteral("; all %1 options are in %2.</p>")
                                             .arg(r.options.size())
                                             .arg(esc(in.optionsCsvName)))
        + optionsTable(r, reportOptions(in), legend);
    if (const QString missing = views::unavailableSummary(r); !missing.isEmpty())
        html += QStringLiteral("<p>Not available: %1.</p>").arg(esc(missing));
    const std::vector<std::size_t> offers = reportOffers(in);
    html += QStringLiteral("<h2>Appendix: renting the same work</h2><p>The cheapest offer per GPU "
                           "type and kind of offer, and those compared above")
        + (in.offersCsvName.isEmpty()
                ? QStringLiteral(".</p>")
                : QStringLiteral("; all %1 offers and GPU counts are in %2.</p>")
                      .arg(r.cloud.size())
                      .arg(esc(in.offersCsvName)))
        + offersTable(r, offers, legend);
    if (const QString untimed = views::untimedOffersSummary(r); !untimed.isEmpty())
        html += QStringLiteral("<p>Not rented: %1.</p>").arg(esc(untimed));
    html += legend.html(r); // after both tables have named their flags
    QStringList terms;
    for (std::size_t i : offers)
        for (const auto& m : r.cloud[i].commitments)
            terms << esc(rentalLabel(r.cloud[i]) + QStringLiteral(": ")
                + views::commitmentVerdict(m, r.assumptions.plannedRuns));
    if (!terms.isEmpty())
        html += QStringLiteral("<p>Reserved rates, paid for the whole term:</p><ul><li>")
            + terms.join(QStringLiteral("</li><li>")) + QStringLiteral("</li></ul>");
    if (in.catalog)
        html += sourcesSection(*in.catalog, r, offers);
    return html + QStringLiteral("</body></html>");
}

std::optional<PlanAtGrantRuns> planAtGrantRuns(const ReportInput& in)
{
    if (!in.scenario || !in.results)
        return std::nullopt;
    const auto grant = reportGrant(in);
    if (!grant)
        return std::nullopt;
    const Assumptions& a = in.results->assumptions;
    const auto byYear = plannedRunsPerYear(grant->plan, a);
    const int runs = std::accumulate(byYear.begin(), byYear.end(), 0);
    const double pace = grantPaceRunsPerMonth(grant->plan, grant->target.kind, runs);
    if (runs < 1 || (runs == a.plannedRuns && std::abs(pace - a.runsPerMonth) < 1e-9))
        return std::nullopt;
    PlanAtGrantRuns plan;
    plan.scenario = *in.scenario;
    setAssumptionValue(plan.scenario.assumptions, AssumptionId::PlannedRuns, runs);
    setAssumptionValue(plan.scenario.assumptions, AssumptionId::RunsPerMonth, pace);
    plan.results = evaluate(plan.scenario);
    return plan;
}

bool writeProposalReport(const ReportInput& input, const QString& path, QString* error)
{
    if (!input.results || !input.results->workload) {
        *error = QStringLiteral("no model to report on");
        return false;
    }
    // The full tables beside the PDF, named in it: "plan.pdf" -> "plan-options.csv".
    ReportInput in = input;
    // One count of runs in the whole report (planAtGrantRuns).
    const auto atGrantRuns = planAtGrantRuns(in);
    if (atGrantRuns) {
        in.plannerPace = ReportInput::PlannerPace { input.results->assumptions.plannedRuns,
            input.results->assumptions.runsPerMonth };
        in.scenario = &atGrantRuns->scenario;
        in.results = &atGrantRuns->results;
    }
    const QStringList files = proposalReportFiles(path);
    in.optionsCsvName = QFileInfo(files[1]).fileName();
    in.offersCsvName = QFileInfo(files[2]).fileName();
    QTextDocument doc;
    doc.setDefaultFont(QFont(QStringLiteral("DejaVu Sans"), 8));
    // Smaller than an exported figure, so the chart text prints at about 8 pt on the page.
    const FigureSize figure { 7.0, 4.4, kReportChartDpi };
    doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart:hardware")),
        renderChartImage(hardwareCostChart(*in.results, in.chartOptions), figure));
    doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart:experiment")),
        renderChartImage(experimentCostChart(*in.results, in.chartOptions), figure));
    if (const auto machine = buyVsRentChartOption(in)) {
        BuyVsRentOptions buy;
        buy.optionIndex = *machine;
        buy.cloudIndices = reportCloudOffers(in);
        buy.months = in.buyMonths;
        doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart:buy-vs-rent")),
            renderChartImage(buyVsRentChart(*in.results, buy), figure));
    }
    if (in.scenario) {
        // Which input would flip the decision for the machine compared above, against the
        // cheapest way to rent the same GPUs; per-experiment cost where nothing rents them.
        if (const auto machine = reportBuyOption(in)) {
            QString unused;
            auto tornado = machineSensitivityChart(*in.scenario, *in.results, *machine,
                std::nullopt, SensitivityMetric::BreakEvenRuns, &unused);
            if (!tornado)
                tornado = machineSensitivityChart(*in.scenario, *in.results, *machine, std::nullopt,
                    SensitivityMetric::ExperimentCostUsd, &unused);
            doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart:sensitivity")),
                renderChartImage(*tornado, figure));
        }
    }
    doc.setHtml(proposalReportHtml(in));

    // Printed into memory and written in one step (saveWholeFile): a failed write leaves no
    // truncated report, and the earlier one, if any, as it was.
    QBuffer printed;
    printed.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&printed);
        pdf.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
            QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter));
        pdf.setTitle(QStringLiteral("Training compute plan"));
        pdf.setCreator(QStringLiteral("gpuplan"));
        // QTextDocument::print adds its own 2 cm margins; the writer adds none on top. It paints
        // through its own QPainter, so a failed painter shows only as nothing printed.
        doc.print(&pdf);
    }
    if (printed.data().isEmpty()) {
        *error = QStringLiteral("could not render the report for %1")
                     .arg(QDir::toNativeSeparators(path));
        return false;
    }
    // The report and its tables together or not at all: a report naming tables that were not
    // written (or tables of another plan beside it) would mislead.
    return views::saveWholeFiles(
        { { files[0], printed.data() }, { files[1], views::optionsCsv(*in.results).toUtf8() },
            { files[2], views::cloudCsv(*in.results).toUtf8() } },
        error);
}

QStringList proposalReportFiles(const QString& path)
{
    const QFileInfo pdf(path);
    const QString base = pdf.completeBaseName();
    return { path, pdf.dir().filePath(base + QStringLiteral("-options.csv")),
        pdf.dir().filePath(base + QStringLiteral("-offers.csv")) };
}

} // namespace gpuplan::render

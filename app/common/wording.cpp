#include "app/common/wording.h"

#include "app/common/option_columns.h"

#include "app/common/format.h"
#include "pricing/catalog_loader.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace gpuplan::views {

namespace {
// Why no machine is recommended, with the nearest miss: "; the cheapest, 1×RTX 3090, costs
// $2,320, over the $1,000 budget" or "; the fastest, 8×B200, takes 3.0 days, past the 1-day
// deadline" (within the budget where there is one). Empty without options.
QString unmetConstraintText(const Results& r)
{
    const auto label = [](const OwnedOption& o) {
        return formatMachine(o.gpuCount, QString::fromStdString(o.gpu->name));
    };
    const OwnedOption* cheapest = nullptr;
    const OwnedOption* fastest = nullptr; // within the budget, if any
    for (const OwnedOption& o : r.options) {
        if (!cheapest || o.machineCostUsd < cheapest->machineCostUsd)
            cheapest = &o;
        if (o.withinBudget && (!fastest || o.estimate.days < fastest->estimate.days))
            fastest = &o;
    }
    if (!cheapest)
        return {};
    if (r.budgetUsd && !fastest)
        return QStringLiteral("; the cheapest, %1, costs %2, over the %3 budget")
            .arg(label(*cheapest), formatUsd(cheapest->machineCostUsd), formatUsd(*r.budgetUsd));
    if (r.deadlineDays && fastest)
        return QStringLiteral("; the fastest%1, %2, takes %3, past the %4-day deadline")
            .arg(r.budgetUsd ? QStringLiteral(" within the budget") : QString(), label(*fastest),
                formatDays(fastest->estimate.days), formatDeadlineDays(*r.deadlineDays));
    return {};
}
} // namespace

QString recommendationReason(const Results& r)
{
    const QString budget = r.budgetUsd ? formatUsd(*r.budgetUsd) : QString();
    const QString deadline = r.deadlineDays ? formatDeadline(*r.deadlineDays) : QString();
    if (r.recommendationRule == RecommendationRule::None)
        return {};
    if (!r.recommended && r.setAsideAbovePeak)
        return QStringLiteral("no machine meets the constraints in a time its GPUs can reach");
    if (!r.recommended)
        return QStringLiteral("no machine meets the constraints") + unmetConstraintText(r);
    switch (r.recommendationRule) {
    case RecommendationRule::FastestWithinBudget:
        return QStringLiteral("fastest machine within the %1 budget").arg(budget);
    case RecommendationRule::CheapestWithinDeadline:
        return QStringLiteral("cheapest machine that trains within %1").arg(deadline);
    case RecommendationRule::CheapestWithinBoth:
        return QStringLiteral("cheapest machine within the %1 budget that trains within %2")
            .arg(budget, deadline);
    case RecommendationRule::None:
        break;
    }
    return {};
}

QString recommendationCaution(const OwnedOption& o)
{
    QStringList cautions;
    for (auto flag :
        { EstimateFlag::ExceedsPeak, EstimateFlag::Suspect, EstimateFlag::PerfectScaling })
        if (o.estimate.hasFlag(flag)) {
            cautions << QStringLiteral("Caution: ") + QString::fromUtf8(describe(flag));
            break;
        }
    // A time trusted as it stands that still wastes most of what the GPUs could do: the
    // recommendation is fastest or cheapest among what the tables list, not a good machine.
    if (o.estimate.hasFlag(EstimateFlag::ExchangeBound))
        cautions << QStringLiteral("Caution: ")
                + QString::fromUtf8(describe(EstimateFlag::ExchangeBound));
    // Both where both hold: a machine that assumes perfect scaling and has no spare power
    // supply (the 8xRTX 5090 a $40,000 budget bought, before its PCIe bus was priced) had the
    // second hidden by the first.
    if (const QString power = powerSupplyText(o); !power.isEmpty())
        cautions << QStringLiteral("Caution: ") + power;
    return cautions.join(QLatin1Char(' '));
}

QString recommendationRangeNote(const Results& r)
{
    if (!r.recommended || !r.hasRanges)
        return {};
    const OwnedOption& o = r.options[*r.recommended];
    QStringList crossed;
    if (r.deadlineDays && o.daysRange.high > *r.deadlineDays)
        crossed << QStringLiteral("its time's range reaches %1, past the %2-day deadline")
                       .arg(formatDays(o.daysRange.high), formatDeadlineDays(*r.deadlineDays));
    if (r.budgetUsd && o.machineCostRange.high > *r.budgetUsd)
        crossed << QStringLiteral("its price's range reaches %1, over the %2 budget")
                       .arg(formatUsd(o.machineCostRange.high), formatUsd(*r.budgetUsd));
    if (crossed.isEmpty())
        return {};
    return QStringLiteral("Within the constraints at the central estimate only: ")
        + crossed.join(QStringLiteral("; and ")) + QLatin1Char('.');
}

QString recommendationSetAside(const Results& r)
{
    if (!r.setAsideAbovePeak)
        return {};
    const OwnedOption& o = r.options[*r.setAsideAbovePeak];
    // Beside a recommendation it would have beaten it; without one it alone met the rule.
    const QString would = !r.recommended ? QStringLiteral("meet them")
        : r.recommendationRule == RecommendationRule::FastestWithinBudget
        ? QStringLiteral("be faster")
        : QStringLiteral("be cheaper");
    return QStringLiteral("Set aside: %1 would %2 (%3, %4 machine), but that time is %5 of its "
                          "GPUs' peak, which is physically impossible")
        .arg(formatMachine(o.gpuCount, QString::fromStdString(o.gpu->name)), would,
            formatDays(o.estimate.days), formatUsd(o.machineCostUsd),
            o.estimate.impliedUtilization ? formatPercent(*o.estimate.impliedUtilization)
                                          : QStringLiteral("more than 100%"));
}

QString robustnessText(const Results& r)
{
    const auto robust = recommendationRobustness(r);
    if (!robust)
        return {};
    QString text = recommendationReason(r);
    if (!r.recommended)
        text = QStringLiteral("no machine meets the constraints");
    text += QStringLiteral(" in %1 of sampled cases").arg(formatPercent(robust->share));
    if (robust->alternative) {
        const OwnedOption& other = r.options[*robust->alternative];
        text += QStringLiteral("; otherwise %1")
                    .arg(formatMachine(other.gpuCount, QString::fromStdString(other.gpu->name)));
    } else if (robust->noneShare > 0.0 && r.recommended) {
        text += QStringLiteral("; otherwise none");
    }
    return text;
}

QString breakEvenRangeText(const BreakEvenRange& range)
{
    auto runs = [](double v) { return QString::number(std::ceil(v - 1e-9), 'f', 0); };
    auto counted = [&](double v) { // "1 run", "9 runs"
        const QString n = runs(v);
        return n + (n == QLatin1String("1") ? QStringLiteral(" run") : QStringLiteral(" runs"));
    };
    if (!range.low)
        return QStringLiteral("never pays off");
    if (!range.high)
        return QStringLiteral("pays off after %1 at best, or never").arg(counted(*range.low));
    if (runs(*range.low) == runs(*range.high))
        return QStringLiteral("pays off after %1").arg(counted(*range.low));
    return QStringLiteral("pays off after %1\u2013%2 runs")
        .arg(runs(*range.low), runs(*range.high));
}

QString unavailableReason(const Unavailable& u, SourcePolicy source)
{
    switch (u.reason) {
    case UnavailableReason::NoChassis:
        return QStringLiteral("no chassis with %1 GPU slots").arg(u.gpuCount);
    case UnavailableReason::SoldOnlyAsSystem:
        return QStringLiteral("sold only in systems of %1 GPUs")
            .arg(QString::fromStdString(u.detail));
    case UnavailableReason::Infeasible:
        return QStringLiteral("infeasible: ") + QString::fromStdString(u.detail);
    case UnavailableReason::NeedsOffloading:
        return QStringLiteral("no analytic estimate: ") + QString::fromStdString(u.detail);
    case UnavailableReason::NoEstimate:
        return QStringLiteral("no %1 estimate").arg(toQString(toString(source)));
    case UnavailableReason::NoPrice:
        return QStringLiteral("no purchase price in this price set");
    }
    return {};
}

namespace {

// "A", "A and B", "A, B and C" (or "or").
QString listed(const QStringList& items, const QString& last)
{
    if (items.size() <= 1)
        return items.join(QString());
    return items.mid(0, items.size() - 1).join(QStringLiteral(", ")) + QLatin1Char(' ') + last
        + QLatin1Char(' ') + items.back();
}

// A GPU's name where the results hold one of its machines or offers; its id otherwise.
QString gpuName(const Results& r, const std::string& id)
{
    for (const auto& o : r.options)
        if (o.gpu && o.gpu->id == id)
            return QString::fromStdString(o.gpu->name);
    for (const auto& c : r.cloud)
        if (c.gpu && c.gpu->id == id)
            return QString::fromStdString(c.gpu->name);
    return QString::fromStdString(id);
}

template <typename T>
std::vector<T>& entryOf(std::vector<std::pair<QString, std::vector<T>>>& groups, const QString& key)
{
    for (auto& [k, values] : groups)
        if (k == key)
            return values;
    groups.push_back({ key, {} });
    return groups.back().second;
}

} // namespace

QString unavailableSummary(const Results& r)
{
    // Why -> GPU -> the counts it misses, each in the order first met.
    std::vector<std::pair<QString, std::vector<std::pair<QString, QStringList>>>> byReason;
    for (const auto& u : r.unavailable) {
        auto& gpus = entryOf(byReason, unavailableReason(u, r.source));
        const QString name = gpuName(r, u.gpuId);
        auto gpu = std::find_if(
            gpus.begin(), gpus.end(), [&](const auto& g) { return g.first == name; });
        if (gpu == gpus.end())
            gpu = gpus.insert(gpus.end(), { name, {} });
        gpu->second << QString::number(u.gpuCount);
    }
    QStringList parts;
    for (const auto& [reason, gpus] : byReason) {
        // GPUs that miss the same counts share one phrase.
        std::vector<std::pair<QString, std::vector<QString>>> byCounts;
        for (const auto& [name, counts] : gpus)
            entryOf(byCounts, listed(counts, QStringLiteral("or"))).push_back(name);
        QStringList phrases;
        for (const auto& [counts, names] : byCounts)
            phrases << QStringLiteral("%1 as %2 GPU%3")
                           .arg(listed(
                                    QStringList(names.begin(), names.end()), QStringLiteral("and")),
                               counts,
                               counts == QStringLiteral("1") ? QString() : QStringLiteral("s"));
        parts << QStringLiteral("%1 (%2)").arg(phrases.join(QStringLiteral(" and ")), reason);
    }
    return parts.join(QStringLiteral("; "));
}

QString untimedOfferList(const Results& r)
{
    QStringList offers;
    for (const auto& u : r.untimedOffers)
        offers << QString::fromStdString(u.offer->id);
    return listedWithAnd(offers);
}

QString untimedOffersSummary(const Results& r)
{
    // By reason, as core gives it: no estimate at all, or a training state too large.
    QStringList parts;
    for (const bool doesNotFit : { false, true }) {
        QStringList offers;
        QStringList gpus;
        for (const auto& u : r.untimedOffers) {
            if (u.stateDoesNotFit != doesNotFit)
                continue;
            offers << QString::fromStdString(u.offer->id);
            if (const QString name = QString::fromStdString(u.gpu->name); !gpus.contains(name))
                gpus << name;
        }
        if (offers.isEmpty())
            continue;
        parts << (doesNotFit ? QStringLiteral("%1 (the model's training state does not fit the "
                                              "memory of the %2 they rent)")
                             : QStringLiteral("%1 (no source times the model on %2: no peak is "
                                              "known for its precision there)"))
                     .arg(listedWithAnd(offers), listed(gpus, QStringLiteral("or")));
    }
    return parts.join(QStringLiteral("; "));
}

QStringList figuresAtThePace(const Results& r, std::optional<std::size_t> machine, bool termsShown)
{
    QStringList figures;
    if (machine && *machine < r.options.size()) {
        const OwnedOption& o = r.options[*machine];
        if (o.breakEvenRuns)
            figures << QStringLiteral("the break-even's months");
        if (o.owning.monthlyUsd > 0.0)
            figures << QStringLiteral("the owning costs each run carries")
                    << QStringLiteral("the buy-vs-rent verdict");
    }
    if (termsShown)
        figures << QStringLiteral("the runs each reserved term holds");
    return figures;
}

QString warningText(const Warning& w, SourcePolicy source)
{
    const QString subject = QString::fromStdString(w.subject);
    switch (w.kind) {
    case Warning::Kind::NoCatalog:
        return QStringLiteral("no catalog loaded");
    case Warning::Kind::UnknownModel:
        return QStringLiteral("unknown model: ") + subject;
    case Warning::Kind::OfferUnknownGpu:
        return QStringLiteral("cloud offer %1 names unknown GPU %2")
            .arg(subject, QString::fromStdString(w.detail));
    case Warning::Kind::UnknownSponsor:
        return QStringLiteral("unknown sponsor %1: the indirect (F&A) rate falls on cloud spend "
                              "only, every machine counted as exempt equipment")
            .arg(subject);
    case Warning::Kind::RunOutlastsLife: {
        QStringList counts = QString::fromStdString(w.detail).split(QLatin1Char(','));
        const QString last = counts.takeLast();
        const QString gpus = counts.isEmpty()
            ? last
            : counts.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
        return QStringLiteral("one run on %1 as %2 takes longer than the machine's life "
                              "(the amortisation period), so its per-experiment cost exceeds "
                              "the machine's price; lengthen the amortisation period")
            .arg(subject,
                gpus
                    + (gpus == QLatin1String("1") ? QStringLiteral(" GPU")
                                                  : QStringLiteral(" GPUs")));
    }
    case Warning::Kind::NoEstimateForAnyMachine: {
        // Every (GPU, count) left out is listed with its reason: no estimate, no price, ...
        const QString name = toQString(toString(source));
        const bool vowel = QStringLiteral("aeiou").contains(name.left(1));
        // Measurements exist only where a results file was loaded: say where they come from.
        const bool measures
            = source == SourcePolicy::Measured || source == SourcePolicy::Extrapolated;
        QString text = QStringLiteral("no machine to buy has %1 %2 estimate for %3%4")
                           .arg(vowel ? QStringLiteral("an") : QStringLiteral("a"), name, subject,
                               measures ? QStringLiteral("; measurements come from gpuplan-bench "
                                                         "results files: File > Import "
                                                         "measurements in the app, --results "
                                                         "FILE in gpuplan-cli")
                                        : QString());
        if (!w.detail.empty())
            text += QStringLiteral("; gpuplan-bench measured it on %1, a device the GPU table "
                                   "has no entry for (the results file's gpu_id is empty or "
                                   "unknown), so those measurements cannot be priced")
                        .arg(toQString(w.detail));
        return text;
    }
    }
    return {};
}

QString pricingLabel(Pricing pricing, std::optional<double> reservedYears)
{
    switch (pricing) {
    case Pricing::OnDemand:
        return QStringLiteral("on-demand");
    case Pricing::Spot:
        return QStringLiteral("spot");
    case Pricing::Reserved:
        return reservedYears ? QStringLiteral("reserved %1-yr").arg(*reservedYears)
                             : QStringLiteral("reserved");
    case Pricing::Allocation:
        return QStringLiteral("allocation");
    }
    return {};
}

QString commitmentVerdict(const Commitment& m, int plannedRuns)
{
    QString text = QStringLiteral("a %1-yr commitment costs %2 for %3 runs back to back")
                       .arg(QString::number(m.years), formatUsd(m.termCostUsd),
                           QString::number(m.runsInTerm, 'f', 1));
    if (!m.breakEvenRuns)
        return text + QStringLiteral(" (no on-demand rate to compare with)");
    const QString plan
        = plannedRuns == 1 ? QStringLiteral("1 run") : QStringLiteral("%1 runs").arg(plannedRuns);
    const auto runs = [](double v) { return QString::number(v, 'f', 1); };
    QString range; // over the training days' range
    if (const auto& r = m.breakEvenRunsRange; r && runs(r->low) != runs(r->high))
        range = QStringLiteral(" (%1\u2013%2)").arg(runs(r->low), runs(r->high));
    QString verdict = m.beatsOnDemandForPlan ? QStringLiteral("does") : QStringLiteral("does not");
    const auto differs = [&m](const std::optional<bool>& atCorner) {
        return atCorner && *atCorner != m.beatsOnDemandForPlan;
    };
    if (differs(m.beatsOnDemandAtLowCost) || differs(m.beatsOnDemandAtHighCost))
        verdict
            += QStringLiteral(" at the central estimate; within the ranges it may go either way");
    const QString terms = m.termsForPlan > 1
        ? QStringLiteral(" (%1 terms one after another)").arg(m.termsForPlan)
        : QString();
    const QString onDemand = m.onDemandOfferId.empty()
        ? QStringLiteral("on-demand")
        : QStringLiteral("on-demand (offer %1)").arg(QString::fromStdString(m.onDemandOfferId));
    return text
        + QStringLiteral("; within one term it beats %6 from %1 runs%2, and for this "
                         "plan of %3%4 it %5")
              .arg(runs(*m.breakEvenRuns), range, plan, terms, verdict, onDemand);
}

QString priceDateText(const std::string& date, const PriceAge& age)
{
    const QString text = QString::fromStdString(date);
    if (!age.months)
        return text;
    if (*age.months < 0)
        return text + QStringLiteral(" (after today, stale)");
    return text
        + (age.stale ? QStringLiteral(" (%1 mo, stale)") : QStringLiteral(" (%1 mo)"))
              .arg(*age.months);
}

QString assumptionCitation(const Provenance& source)
{
    const QString text = QString::fromStdString(source.source);
    if (source.source == kUserSupplied || source.date.empty())
        return text;
    return text + QStringLiteral(", ") + QString::fromStdString(source.date);
}

QString priceKindText(PriceKind kind)
{
    switch (kind) {
    case PriceKind::Unstated:
        break;
    case PriceKind::Quote:
        return QStringLiteral("vendor quote");
    case PriceKind::List:
        return QStringLiteral("list price");
    case PriceKind::Street:
        return QStringLiteral("street price");
    case PriceKind::Resale:
        return QStringLiteral("resale price");
    }
    return {};
}

QString stalePriceLabel()
{
    return QStringLiteral("stale price");
}

QString staleRateNote()
{
    return stalePriceLabel() + QStringLiteral(": check this rate before budgeting with it");
}

QString stalePriceNote(const Results& r)
{
    int stale = 0;
    for (const auto& o : r.options)
        stale += o.priceAge.stale ? 1 : 0;
    for (const auto& c : r.cloud)
        stale += c.rateAge.stale ? 1 : 0;
    if (stale == 0)
        return {};
    return QStringLiteral("The price or rate is older than %1 on %2, undated, or dated after "
                          "that day: check it before it goes into a budget (limit: assumption "
                          "stale_months)")
        .arg(formatQuantity(r.assumptions.staleMonths, Unit::Months),
            QString::fromStdString(r.today));
}

QString priceSetLabel(const std::string& priceSet)
{
    if (priceSet == kDefaultPriceSet)
        return QStringLiteral("current prices (2025-2026)");
    if (priceSet == kPaperPriceSet)
        return QStringLiteral("the paper's prices (2024-09-21)");
    return QString::fromStdString(priceSet);
}

QString sensitivityInputText(const SensitivityRow& row, double value)
{
    if (row.input == kPurchasePriceInput)
        return formatQuantity(value, Unit::Usd);
    if (row.input == kCloudRateInput)
        return formatQuantity(value, Unit::UsdPerHour);
    if (row.input == kTrainingDaysInput)
        return formatQuantity(value, Unit::Days);
    if (const auto id = assumptionFromKey(row.input))
        return formatQuantity(value, assumptionSpec(*id).unit);
    return formatQuantity(value, Unit::Ratio);
}

} // namespace gpuplan::views

#include "app/common/option_columns.h"

#include "app/common/format.h"
#include "app/common/wording.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace gpuplan::views {

QString header(OptionColumn c)
{
    switch (c) {
    case OptionColumn::Gpu:
        return QStringLiteral("GPU");
    case OptionColumn::GpuCount:
        return QStringLiteral("GPUs");
    case OptionColumn::Days:
        return QStringLiteral("Training days");
    case OptionColumn::Source:
        return QStringLiteral("Source");
    case OptionColumn::MachineCost:
        return QStringLiteral("Machine cost");
    case OptionColumn::ExperimentCost:
        return QStringLiteral("Per experiment");
    case OptionColumn::EnergyCost:
        return QStringLiteral("Energy per run");
    case OptionColumn::Utilization:
        return QStringLiteral("Implied utilisation");
    case OptionColumn::Flags:
        return QStringLiteral("Flags");
    case OptionColumn::Pareto:
        return QStringLiteral("Pareto");
    }
    return {};
}

namespace {
const QString kMachineCarries = QStringLiteral("the machine");
const QString kEnergyCarries = QStringLiteral("electricity");
const QString kOwningCarries = QStringLiteral("owning costs");

// The parts of buying whose F&A a column's figure holds: a machine's cost per experiment its
// price and owning costs, its energy per run the electricity; none for the other columns.
QStringList partsIn(OptionColumn c)
{
    switch (c) {
    case OptionColumn::ExperimentCost:
        return { kMachineCarries, kOwningCarries };
    case OptionColumn::EnergyCost:
        return { kEnergyCarries };
    default:
        return {};
    }
}

// Of `parts`, those that carry F&A in the option's figures.
QStringList carriedOf(const Results& r, const OwnedOption& o, const QStringList& parts)
{
    const QStringList carried = indirectOnBuying(r, o);
    QStringList here;
    for (const QString& part : parts)
        if (carried.contains(part))
            here << part;
    return here;
}
} // namespace

QStringList indirectOnBuying(const Results& r, const OwnedOption& o)
{
    QStringList carried;
    if (r.assumptions.indirectRate <= 0.0)
        return carried;
    const SponsorRules& rules = r.indirectRules;
    if (o.owning.purchaseUsd > o.machineCostUsd) // supplies: decided on the stated price
        carried << kMachineCarries;
    if (rules.carries(BudgetCategory::Energy))
        carried << kEnergyCarries;
    if (o.owning.monthlyUsd > 0.0
        && (rules.carries(BudgetCategory::Hosting) || rules.carries(BudgetCategory::Support)
            || rules.carries(BudgetCategory::Staff) || rules.carries(BudgetCategory::Fringe)))
        carried << kOwningCarries;
    return carried;
}

QString displayHeader(OptionColumn c, const Results& r)
{
    // A column says "(with F&A)" where any option's figure in it carries some.
    const QStringList parts = partsIn(c);
    const bool carries = !parts.isEmpty()
        && std::any_of(r.options.begin(), r.options.end(),
            [&](const OwnedOption& o) { return !carriedOf(r, o, parts).isEmpty(); });
    return header(c) + (carries ? QStringLiteral(" (with F&A)") : QString());
}

QString indirectInFigureText(const Results& r, const OwnedOption& o, OptionColumn c)
{
    const QStringList parts = partsIn(c);
    if (parts.isEmpty() || r.assumptions.indirectRate <= 0.0)
        return {};
    const QStringList here = carriedOf(r, o, parts);
    return here.isEmpty() ? QStringLiteral("Carries no F&A under these sponsor rules.")
                          : QStringLiteral("Includes F&A at %1 on %2.")
                                .arg(formatRate(r.assumptions.indirectRate), listedWithAnd(here));
}

QString daysText(const TrainingEstimate& e)
{
    // Every source's range (paper rounding, measured spread and validation error, an
    // extrapolation's bounds, the analytic utilisation range) where it shows at this precision.
    // Whole days where both ends are whole, else tenths: rounding 29.5-30.5 to whole days
    // would show 30-31, a range shifted up by half a day.
    const auto whole = [](double v) { return std::abs(v - std::round(v)) < 0.05; };
    const int decimals = e.days < 10.0 || !whole(e.daysLow) || !whole(e.daysHigh) ? 1 : 0;
    const QString low = QString::number(e.daysLow, 'f', decimals);
    const QString high = QString::number(e.daysHigh, 'f', decimals);
    if (!(e.daysHigh > e.daysLow) || low == high)
        return formatDays(e.days);
    // The point at the range's precision: "38 days (38.2-38.5)" read as outside its own range.
    return formatDays(e.days, decimals) + QStringLiteral(" (%1-%2)").arg(low, high);
}

QString flagList(const TrainingEstimate& e, const PriceAge& age)
{
    QStringList names;
    for (auto flag : e.flags)
        names << toQString(label(flag));
    if (age.stale) {
        const QString of = QString::fromStdString(age.of);
        names << (of.isEmpty()
                ? stalePriceLabel()
                : QStringLiteral("stale %1 %2")
                      .arg(of,
                          of.contains(QStringLiteral(" and ")) ? QStringLiteral("prices")
                                                               : QStringLiteral("price")));
    }
    return names.join(QStringLiteral(", "));
}

QString flagExplanations(const TrainingEstimate& e)
{
    QStringList lines;
    for (auto flag : e.flags)
        lines << toQString(describe(flag));
    return lines.join(QLatin1Char('\n'));
}

QString powerSupplyLabel(PowerSupplyFit fit)
{
    switch (fit) {
    case PowerSupplyFit::NotChecked:
    case PowerSupplyFit::Fits:
        return {};
    case PowerSupplyFit::NoSpare:
        return QStringLiteral("no spare power supply");
    case PowerSupplyFit::Short:
        return QStringLiteral("power supply short");
    }
    return {};
}

QString powerSupplyLabel(const OwnedOption& o)
{
    return powerSupplyLabel(o.powerSupplyFit);
}

QString powerSupplyMeaning(PowerSupplyFit fit)
{
    switch (fit) {
    case PowerSupplyFit::NotChecked:
    case PowerSupplyFit::Fits:
        return {};
    case PowerSupplyFit::NoSpare:
        return QStringLiteral("the cards' rated draw needs every one of the chassis's power "
                              "supplies, so none is spare if one fails; a server built for these "
                              "cards may cost more than this price");
    case PowerSupplyFit::Short:
        return QStringLiteral("the cards' rated draw exceeds the chassis's power supplies: as "
                              "priced it cannot power them, and a build that can costs more");
    }
    return {};
}

QString powerSupplyText(const OwnedOption& o)
{
    const bool flagged
        = o.powerSupplyFit == PowerSupplyFit::NoSpare || o.powerSupplyFit == PowerSupplyFit::Short;
    if (!flagged || !o.chassis)
        return {};
    const PowerSupplies& supplies = o.chassis->powerSupplies;
    const auto watts = [](double w) {
        return formatQuantity(std::round(w), Unit::Watts) + QStringLiteral(" W");
    };
    const QString draw
        = QStringLiteral("The cards and the rest of the machine draw %1 at their rating, ")
              .arg(watts(o.chassis->ratedDrawWatts(o.gpuCount, o.gpu->boardPowerWatts)));
    const QString each = watts(supplies.wattsEach);
    if (o.powerSupplyFit == PowerSupplyFit::NoSpare)
        return draw
            + (supplies.count == 2
                    ? QStringLiteral("more than one of the chassis's two %1 supplies gives: it "
                                     "needs both")
                          .arg(each)
                    : QStringLiteral("more than %1 of the chassis's %2 %3 supplies give: it needs "
                                     "all of them")
                          .arg(supplies.count - 1)
                          .arg(supplies.count)
                          .arg(each))
            + QStringLiteral(", so none is spare if one fails; a server built for these cards "
                             "may cost more than this price.");
    return draw
        + (supplies.count == 1
                ? QStringLiteral("more than the chassis's single %1 supply gives").arg(each)
                : QStringLiteral("more than the chassis's %1 %2 supplies give together")
                      .arg(supplies.count)
                      .arg(each))
        + QStringLiteral(": as priced it cannot power them, and a build that can costs more.");
}

QString optionFlagList(const OwnedOption& o)
{
    QStringList names;
    if (const QString flags = flagList(o.estimate); !flags.isEmpty())
        names << flags;
    if (const QString power = powerSupplyLabel(o); !power.isEmpty())
        names << power;
    if (const QString stale = flagList({}, o.priceAge); !stale.isEmpty())
        names << stale;
    return names.join(QStringLiteral(", "));
}

QString optionFlagExplanations(const OwnedOption& o)
{
    QStringList lines;
    if (const QString flags = flagExplanations(o.estimate); !flags.isEmpty())
        lines << flags;
    if (const QString power = powerSupplyText(o); !power.isEmpty())
        lines << power;
    return lines.join(QLatin1Char('\n'));
}

QString displayText(const OwnedOption& o, OptionColumn c)
{
    switch (c) {
    case OptionColumn::Gpu:
        return QString::fromStdString(o.gpu->name);
    case OptionColumn::GpuCount:
        return QString::number(o.gpuCount);
    case OptionColumn::Days:
        return daysText(o.estimate);
    case OptionColumn::Source:
        return toQString(toString(o.estimate.source));
    case OptionColumn::MachineCost:
        return formatUsdWithRange(
            o.machineCostUsd, o.machineCostRange.low, o.machineCostRange.high);
    case OptionColumn::ExperimentCost:
        return formatUsdWithRange(
            o.experimentCostUsd, o.experimentCostRange.low, o.experimentCostRange.high);
    case OptionColumn::EnergyCost:
        return formatUsdWithRange(o.energyCostUsd, o.energyCostRange.low, o.energyCostRange.high);
    case OptionColumn::Utilization:
        return o.estimate.impliedUtilization ? formatPercent(*o.estimate.impliedUtilization)
                                             : QStringLiteral("unknown");
    case OptionColumn::Flags:
        return optionFlagList(o);
    case OptionColumn::Pareto:
        return o.paretoHardware ? QStringLiteral("yes") : QString();
    }
    return {};
}

QVariant sortValue(const OwnedOption& o, OptionColumn c)
{
    switch (c) {
    case OptionColumn::GpuCount:
        return o.gpuCount;
    case OptionColumn::Days:
        return o.estimate.days;
    case OptionColumn::MachineCost:
        return o.machineCostUsd;
    case OptionColumn::ExperimentCost:
        return o.experimentCostUsd;
    case OptionColumn::EnergyCost:
        return o.energyCostUsd;
    case OptionColumn::Utilization:
        return o.estimate.impliedUtilization ? QVariant(*o.estimate.impliedUtilization)
                                             : QVariant();
    case OptionColumn::Pareto:
        return o.paretoHardware ? 1 : 0;
    case OptionColumn::Gpu:
    case OptionColumn::Source:
    case OptionColumn::Flags:
        return displayText(o, c);
    }
    return {};
}

} // namespace gpuplan::views

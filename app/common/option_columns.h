#pragma once

#include "core/evaluate.h"

#include <QString>
#include <QStringList>
#include <QVariant>

namespace gpuplan::views {

// The columns of the owned-options table, shared by the GUI's table model, the CLI's table
// and every CSV export.
enum class OptionColumn {
    Gpu,
    GpuCount,
    Days,
    Source,
    MachineCost,
    ExperimentCost,
    EnergyCost,
    Utilization,
    Flags,
    Pareto,
};
inline constexpr int kOptionColumnCount = 10;

QString header(OptionColumn c);
// The parts of buying an option that carry F&A under the results' rules, as its figures count
// them ("the machine" where it is supplies, "electricity", "owning costs"); empty at a rate
// of 0. The tables' headers and the buy-vs-rent wording read this one rule.
QStringList indirectOnBuying(const Results& results, const OwnedOption& option);
// The name a table shows: the costs per run say that they include F&A where the results' sponsor
// rules put it (electricity; the price of a machine below the equipment threshold, owning costs:
// "Per experiment (with F&A)" where any machine's does).
QString displayHeader(OptionColumn c, const Results& results);
// What a cost cell holds of F&A, for its tooltip, where the results charge any: "Includes F&A at
// 50% on the machine." or "Carries no F&A under these sponsor rules." (a header's "(with F&A)"
// covers the column, while a machine from the equipment threshold carries none on its price).
// Empty for other columns and at a rate of 0.
QString indirectInFigureText(const Results& results, const OwnedOption& option, OptionColumn c);
QString displayText(const OwnedOption& o, OptionColumn c);
// A value that sorts numerically where the column is a number.
QVariant sortValue(const OwnedOption& o, OptionColumn c);
// "12 days", or "9.4 days (8.2-10.6)" with the estimate's range where it shows.
QString daysText(const TrainingEstimate& e);
// "above peak, unsynchronised timing", with "stale price" last where the price is stale.
QString flagList(const TrainingEstimate& e, const PriceAge& age = {});
// One line per flag with its explanation, for tooltips and reports.
QString flagExplanations(const TrainingEstimate& e);
// A machine's flags: its estimate's, its power supplies' where they do not spare one
// (powerSupplyLabel), and a stale price last.
QString optionFlagList(const OwnedOption& o);
// Its estimate's explanations, then its power supplies' (powerSupplyText).
QString optionFlagExplanations(const OwnedOption& o);
// "no spare power supply", "power supply short"; empty where the supplies fit or were not
// checked.
QString powerSupplyLabel(PowerSupplyFit fit);
QString powerSupplyLabel(const OwnedOption& o);
// What a label means in general, for a legend of flags ("the chassis's power supplies feed
// the cards' rated draw only all together ..."); empty where there is no label.
QString powerSupplyMeaning(PowerSupplyFit fit);
// What the label means for this machine, with the figures: "The cards and the rest of the
// machine draw 3,270 W at their rating, more than one of the chassis's two 3,200 W supplies
// gives: it needs both, so none is spare if one fails; ...". Empty where there is no label.
QString powerSupplyText(const OwnedOption& o);

} // namespace gpuplan::views

#pragma once

#include "core/limits.h"

#include <QString>
#include <QStringList>
#include <string_view>

namespace gpuplan::views {

// "$162,673" (whole dollars at or above $1,000; cents below).
QString formatUsd(double usd);
// The amount formatUsd shows (cents under $1,000, whole dollars from it).
double shownUsd(double usd);
// How far apart two amounts are as formatUsd shows them, in whole dollars where either is
// shown so: "$7,608 ... $7,433: cheaper by $175" ($175.48 from the unrounded totals had not
// added up beside them).
QString formatShownDifference(double a, double b);
// "$604", "$18,586": a grant budget's amounts, whole dollars at every size (GrantBudget rounds
// them so that they add up as printed).
QString formatWholeUsd(double usd);
// "$4,999.50" at every size: an amount where whole dollars would mislead (a unit cost a cent
// below the equipment threshold).
QString formatUsdToTheCent(double usd);
// "$4.10", "$1.855": an hourly rate to the cent, and to a hundredth of a cent where it has
// more (an 8-GPU reservation's $14.84 an hour is $1.855 a GPU-hour; "$1.85 ... for 1,728
// GPU-hours" beside "$3,205 per run" did not multiply out).
QString formatUsdPerHour(double usd);
// "9 days", "0.8 days", "1,250 days"
QString formatDays(double days);
// At `decimals`: a point shown beside a range keeps the range's precision.
QString formatDays(double days, int decimals);
// A deadline as the user set it, "32.9" or "60" (up to two decimals): rounded to whole days,
// 32.9 read "32" in the recommendation, which 32.46 days then seemed to miss.
QString formatDeadlineDays(double days);
// The same with its unit, "1 day" or "32.9 days": "trains within 1 days" read as a typo in a
// proposal.
QString formatDeadline(double days);
// "98%"
QString formatPercent(double fraction);
// A rate the user sets (F&A, fringe benefits, an assumption's fraction), as precise as it is
// entered up to two decimals of a percent: "50%", "55.5%", "57.75%". A negotiated rate of 55.5%
// printed "56%" in a budget is a figure the grants office cannot check.
QString formatRate(double fraction);
// "57.50" -> "57.5", "50.00" -> "50" (`point`: the locale's decimal point): a number shown as
// precise as it is, not padded to a fixed number of decimals.
QString withoutTrailingZeros(QString text, QChar point);
// "8x A100 SXM 80GB" written with the multiplication sign, as in the paper's Fig. 7.
QString formatMachine(int gpuCount, const QString& gpuName);
// "$1,234 ($1,100-$1,400)": a cost and its range (the range left out where it is empty, i.e.
// the results carry none, or both ends print the same).
QString formatUsdWithRange(double usd, double low, double high);
// A value with its unit, as a proposal writes it: "$0.0845/kWh", "$2.10/h", "50%", "3 years",
// "1.58" (a ratio), "109 days".
QString formatQuantity(double value, Unit unit);
QString toQString(std::string_view text);
// "a", "a and b", "a, b and c".
QString listedWithAnd(const QStringList& items);

} // namespace gpuplan::views

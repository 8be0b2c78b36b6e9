#include "app/common/format.h"

#include <QLocale>
#include <algorithm>
#include <cmath>

namespace gpuplan::views {

namespace {

constexpr double kWholeDollarsFrom = 1000.0; // formatUsd's cents stop here

// Reports go into English-language proposals: group digits the same way on every machine.
const QLocale& numbers()
{
    static const QLocale locale(QLocale::English, QLocale::UnitedStates);
    return locale;
}
// Three significant digits below 1,000 (an electricity tariff keeps its tenths of a cent),
// whole grouped numbers from there; never an exponent ('g' writes 999.6 as "1E+03").
QString significant(double value)
{
    const double magnitude = std::abs(value);
    if (magnitude >= 999.5)
        return numbers().toString(value, 'f', 0);
    if (magnitude == 0.0)
        return QStringLiteral("0");
    const int decimals = std::max(0, 2 - static_cast<int>(std::floor(std::log10(magnitude))));
    QString text = numbers().toString(value, 'f', decimals);
    if (text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return text;
}

// A percentage that keeps a tenth below 10%: a support rate of 1.3% is not "1%".
QString finePercent(double fraction)
{
    return std::abs(fraction) < 0.1 ? significant(100.0 * fraction) + QLatin1Char('%')
                                    : formatRate(fraction);
}

} // namespace

QString formatUsd(double usd)
{
    const bool cents = std::abs(usd) < kWholeDollarsFrom;
    return QStringLiteral("$") + numbers().toString(usd, 'f', cents ? 2 : 0);
}

double shownUsd(double usd)
{
    return std::abs(usd) < kWholeDollarsFrom ? std::round(usd * 100.0) / 100.0 : std::round(usd);
}

QString formatShownDifference(double a, double b)
{
    const double difference = std::abs(shownUsd(a) - shownUsd(b));
    return std::abs(a) >= kWholeDollarsFrom || std::abs(b) >= kWholeDollarsFrom
        ? formatWholeUsd(difference)
        : formatUsd(difference);
}

QString formatWholeUsd(double usd)
{
    return QStringLiteral("$") + numbers().toString(std::round(usd), 'f', 0);
}

QString formatUsdToTheCent(double usd)
{
    return QStringLiteral("$") + numbers().toString(usd, 'f', 2);
}

QString formatUsdPerHour(double usd)
{
    QString text = numbers().toString(usd, 'f', 4);
    // Down to cents, no further: "$4.10", not "$4.1".
    const QChar point = numbers().decimalPoint().front();
    while (text.endsWith(QLatin1Char('0')) && text.indexOf(point) < text.size() - 3)
        text.chop(1);
    return QStringLiteral("$") + text;
}

QString formatUsdWithRange(double usd, double low, double high)
{
    const QString value = formatUsd(usd);
    if (!(high > low) || formatUsd(low) == formatUsd(high))
        return value;
    return value + QStringLiteral(" (%1-%2)").arg(formatUsd(low), formatUsd(high));
}

QString formatDays(double days)
{
    return formatDays(days, days < 10.0 ? 1 : 0);
}

QString formatDays(double days, int decimals)
{
    return numbers().toString(days, 'f', decimals)
        + (days == 1.0 ? QStringLiteral(" day") : QStringLiteral(" days"));
}

QString formatPercent(double fraction)
{
    return numbers().toString(100.0 * fraction, 'f', 0) + QLatin1Char('%');
}

QString formatDeadlineDays(double days)
{
    return withoutTrailingZeros(numbers().toString(days, 'f', 2), numbers().decimalPoint().front());
}

QString formatDeadline(double days)
{
    const QString shown = formatDeadlineDays(days);
    return shown + (shown == QLatin1String("1") ? QStringLiteral(" day") : QStringLiteral(" days"));
}

QString withoutTrailingZeros(QString text, QChar point)
{
    if (text.contains(point)) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(point))
            text.chop(1);
    }
    return text;
}

QString formatRate(double fraction)
{
    return withoutTrailingZeros(
               numbers().toString(100.0 * fraction, 'f', 2), numbers().decimalPoint().front())
        + QLatin1Char('%');
}

QString formatQuantity(double value, Unit unit)
{
    const QString number = significant(value);
    const auto counted = [&](const QString& one, const QString& many) {
        return number + QLatin1Char(' ') + (number == QLatin1String("1") ? one : many);
    };
    switch (unit) {
    case Unit::Usd:
        return formatUsd(value);
    case Unit::UsdPerHour:
        return formatUsd(value) + QStringLiteral("/h");
    case Unit::UsdPerKwh:
        return QLatin1Char('$') + number + QStringLiteral("/kWh");
    case Unit::UsdPerKwMonth:
        return formatUsd(value) + QStringLiteral("/kW-month");
    case Unit::UsdPerMonth:
        return formatUsd(value) + QStringLiteral("/month");
    case Unit::UsdPerYear:
        return formatUsd(value) + QStringLiteral("/year");
    case Unit::Years:
        return counted(QStringLiteral("year"), QStringLiteral("years"));
    case Unit::Months:
        return counted(QStringLiteral("month"), QStringLiteral("months"));
    case Unit::Days:
        // Three significant figures: a range's end at 29.5 days is not "30 days".
        return counted(QStringLiteral("day"), QStringLiteral("days"));
    case Unit::Fraction:
        return finePercent(value);
    case Unit::FractionPerYear:
        return finePercent(value) + QStringLiteral("/year");
    case Unit::Runs:
        return counted(QStringLiteral("run"), QStringLiteral("runs"));
    case Unit::RunsPerMonth:
        return counted(QStringLiteral("run"), QStringLiteral("runs")) + QStringLiteral("/month");
    case Unit::Ratio:
    case Unit::Count:
    case Unit::Gigabytes:
    case Unit::TflopsPerSecond:
    case Unit::Watts:
    case Unit::Flops:
    case Unit::GigabitsPerSecond:
        break;
    }
    return number;
}

QString formatMachine(int gpuCount, const QString& gpuName)
{
    return QString::number(gpuCount) + QChar(0x00D7) + gpuName;
}

QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString listedWithAnd(const QStringList& items)
{
    if (items.size() < 2)
        return items.join(QString());
    return items.mid(0, items.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" and ")
        + items.back();
}

} // namespace gpuplan::views

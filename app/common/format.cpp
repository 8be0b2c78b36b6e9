#include "app/common/format.h"

#include <QLocale>
#include <cmath>

namespace gpuplan::views {

namespace {
// Reports go into English-language proposals: group digits the same way on every machine.
const QLocale& numbers()
{
    static const QLocale locale(QLocale::English, QLocale::UnitedStates);
    return locale;
}
} // namespace

QString formatUsd(double usd)
{
    const bool cents = std::abs(usd) < 1000.0;
    return QStringLiteral("$") + numbers().toString(usd, 'f', cents ? 2 : 0);
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
    const int decimals = days < 10.0 ? 1 : 0;
    return numbers().toString(days, 'f', decimals)
        + (days == 1.0 ? QStringLiteral(" day") : QStringLiteral(" days"));
}

QString formatPercent(double fraction)
{
    return numbers().toString(100.0 * fraction, 'f', 0) + QLatin1Char('%');
}

QString formatQuantity(double value, Unit unit)
{
    // Three significant digits below 1,000 (an electricity tariff keeps its tenths of a cent),
    // whole grouped numbers above.
    const QString number = std::abs(value) >= 1000.0 ? numbers().toString(value, 'f', 0)
                                                     : numbers().toString(value, 'g', 3);
    const auto counted = [&](const QString& one, const QString& many) {
        return number + QLatin1Char(' ') + (value == 1.0 ? one : many);
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
        return formatDays(value);
    case Unit::Fraction:
        return formatPercent(value);
    case Unit::FractionPerYear:
        return formatPercent(value) + QStringLiteral("/year");
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

} // namespace gpuplan::views

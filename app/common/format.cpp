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

QString formatMachine(int gpuCount, const QString& gpuName)
{
    return QString::number(gpuCount) + QChar(0x00D7) + gpuName;
}

QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace gpuplan::views

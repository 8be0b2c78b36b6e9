#include "core/limits.h"

namespace gpuplan {

std::string_view unitName(Unit unit)
{
    switch (unit) {
    case Unit::Usd:
        return "USD";
    case Unit::UsdPerHour:
        return "USD/hour";
    case Unit::UsdPerKwh:
        return "USD/kWh";
    case Unit::UsdPerKwMonth:
        return "USD/kW-month";
    case Unit::UsdPerMonth:
        return "USD/month";
    case Unit::UsdPerYear:
        return "USD/year";
    case Unit::Years:
        return "years";
    case Unit::Months:
        return "months";
    case Unit::Days:
        return "days";
    case Unit::Fraction:
        return "fraction (0.1 = 10%)";
    case Unit::FractionPerYear:
        return "fraction per year (0.1 = 10%)";
    case Unit::Ratio:
        return "ratio";
    case Unit::Runs:
        return "runs";
    case Unit::RunsPerMonth:
        return "runs/month";
    case Unit::Count:
        return "count";
    case Unit::Gigabytes:
        return "GB";
    case Unit::TflopsPerSecond:
        return "TFLOP/s";
    case Unit::Watts:
        return "W";
    case Unit::Flops:
        return "FLOPs";
    case Unit::GigabitsPerSecond:
        return "Gbit/s";
    }
    return "";
}

} // namespace gpuplan

#include "core/price_age.h"

#include <algorithm>
#include <charconv>
#include <tuple>

namespace gpuplan {

namespace {

struct YearMonthDay {
    int year = 0;
    int month = 1;
    int day = 1;
};

std::optional<int> number(std::string_view text)
{
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::optional<YearMonthDay> parse(std::string_view date)
{
    if (date.size() != 4 && date.size() != 7 && date.size() != 10)
        return std::nullopt;
    YearMonthDay d;
    const auto year = number(date.substr(0, 4));
    if (!year)
        return std::nullopt;
    d.year = *year;
    if (date.size() >= 7) {
        const auto month = date[4] == '-' ? number(date.substr(5, 2)) : std::nullopt;
        if (!month || *month < 1 || *month > 12)
            return std::nullopt;
        d.month = *month;
    }
    if (date.size() == 10) {
        const auto day = date[7] == '-' ? number(date.substr(8, 2)) : std::nullopt;
        if (!day || *day < 1 || *day > 31)
            return std::nullopt;
        d.day = *day;
    }
    return d;
}

} // namespace

std::optional<int> monthsOld(std::string_view date, std::string_view today)
{
    const auto from = parse(date);
    const auto to = parse(today);
    if (!from || !to)
        return std::nullopt;
    // Whole months by the calendar: from a later date, the same count backwards, and any date
    // after today below 0 (2026-11-30 on 2026-11-28 is -1, not 0).
    const bool after
        = std::tie(from->year, from->month, from->day) > std::tie(to->year, to->month, to->day);
    int months = (to->year - from->year) * 12 + (to->month - from->month);
    if (!after && to->day < from->day)
        --months; // not a whole month yet
    if (after && to->day > from->day)
        ++months;
    return after ? std::min(months, -1) : months;
}

bool isStaleAge(std::optional<int> months, std::string_view today, int staleMonths)
{
    return !today.empty() && (!months || *months > staleMonths || *months < 0);
}

bool isStale(const Provenance& price, std::string_view today, int staleMonths)
{
    return isStaleAge(
        today.empty() ? std::nullopt : monthsOld(price.date, today), today, staleMonths);
}

} // namespace gpuplan

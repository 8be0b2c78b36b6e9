#include "benchmark/distributed/slurm_nodelist.h"

#include <charconv>

namespace gpuplan::bench::distributed {

namespace {

// One bracket group's values, e.g. "01-04,07" -> 01 02 03 04 07.
bool expandRanges(std::string_view inside, std::vector<std::string>& values, std::string& error)
{
    std::size_t start = 0;
    while (start <= inside.size()) {
        const std::size_t comma = std::min(inside.find(',', start), inside.size());
        const std::string_view part = inside.substr(start, comma - start);
        const std::size_t dash = part.find('-');
        const std::string_view first = part.substr(0, dash);
        const std::string_view last
            = dash == std::string_view::npos ? first : part.substr(dash + 1);
        unsigned long low = 0, high = 0;
        const auto parse = [](std::string_view digits, unsigned long& value) {
            if (digits.empty())
                return false;
            const auto [end, ec]
                = std::from_chars(digits.data(), digits.data() + digits.size(), value);
            return ec == std::errc() && end == digits.data() + digits.size();
        };
        if (!parse(first, low) || !parse(last, high)) {
            error = "'" + std::string(part) + "' is not a number or a range of numbers";
            return false;
        }
        if (low > high) {
            error = "range '" + std::string(part) + "' runs backwards";
            return false;
        }
        for (unsigned long n = low; n <= high; ++n) {
            std::string digits = std::to_string(n);
            if (digits.size() < first.size()) // "[08-10]": keep the padding of the first
                digits.insert(0, first.size() - digits.size(), '0');
            values.push_back(std::move(digits));
            if (values.size() > 1'000'000) {
                error = "range '" + std::string(part) + "' is too long";
                return false;
            }
        }
        start = comma + 1;
    }
    return true;
}

// One top-level entry: literal text and bracket groups, multiplied out.
bool expandEntry(
    std::string_view entry, std::vector<std::string>& hosts, std::size_t limit, std::string& error)
{
    std::vector<std::string> partial { "" };
    std::size_t i = 0;
    while (i < entry.size()) {
        const std::size_t open = entry.find('[', i);
        const std::string_view literal
            = entry.substr(i, open == std::string_view::npos ? entry.size() - i : open - i);
        if (literal.find(']') != std::string_view::npos) {
            error = "']' without '['";
            return false;
        }
        for (auto& p : partial)
            p.append(literal);
        if (open == std::string_view::npos)
            break;
        const std::size_t close = entry.find(']', open);
        if (close == std::string_view::npos) {
            error = "'[' without ']'";
            return false;
        }
        std::vector<std::string> values;
        if (!expandRanges(entry.substr(open + 1, close - open - 1), values, error))
            return false;
        std::vector<std::string> next;
        for (const auto& p : partial)
            for (const auto& v : values) {
                next.push_back(p + v);
                if (hosts.size() + next.size() > limit) {
                    error = "more than " + std::to_string(limit) + " hosts";
                    return false;
                }
            }
        partial = std::move(next);
        i = close + 1;
    }
    if (partial.size() == 1 && partial.front().empty()) {
        error = "empty host name";
        return false;
    }
    hosts.insert(hosts.end(), partial.begin(), partial.end());
    return true;
}

} // namespace

HostList expandNodeList(std::string_view nodeList, std::size_t limit)
{
    HostList out;
    std::size_t start = 0;
    int depth = 0;
    for (std::size_t i = 0; i <= nodeList.size(); ++i) {
        const char c = i < nodeList.size() ? nodeList[i] : ',';
        if (c == '[')
            ++depth;
        else if (c == ']')
            --depth;
        if (c != ',' || (depth > 0 && i < nodeList.size()))
            continue;
        if (!expandEntry(nodeList.substr(start, i - start), out.hosts, limit, out.error)) {
            out.error = "SLURM node list '" + std::string(nodeList) + "': " + out.error;
            out.hosts.clear();
            return out;
        }
        start = i + 1;
    }
    return out;
}

} // namespace gpuplan::bench::distributed

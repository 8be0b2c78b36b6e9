#include "pricing/yaml_reader.h"

#include "pricing/text_checks.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

namespace gpuplan::yaml {

namespace {
// yaml-cpp already refuses nesting deeper than its depth guard while parsing; our own walk
// over the parsed tree stops at the same depth so it can never recurse further.
constexpr int kMaxDepth = 256;

// The first alias (*name) of a document. An alias repeats the node it names, so a few lines of
// aliases of aliases stand for billions of nodes: a walk over the tree (ours, or a reader's)
// would never end. gpuplan's files have no use for them.
class FirstAlias : public YAML::EventHandler {
public:
    std::optional<YAML::Mark> mark;

    void OnDocumentStart(const YAML::Mark&) override { }
    void OnDocumentEnd() override { }
    void OnNull(const YAML::Mark&, YAML::anchor_t) override { }
    void OnAlias(const YAML::Mark& at, YAML::anchor_t) override
    {
        if (!mark)
            mark = at;
    }
    void OnScalar(
        const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override
    {
    }
    void OnSequenceStart(
        const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override
    {
    }
    void OnSequenceEnd() override { }
    void OnMapStart(
        const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override
    {
    }
    void OnMapEnd() override { }
};

std::optional<YAML::Mark> firstAlias(const std::string& text)
{
    // An alias starts with '*': most files have none, and are not parsed a second time.
    if (text.find('*') == std::string::npos)
        return std::nullopt;
    std::istringstream in(text);
    YAML::Parser parser(in);
    FirstAlias finder;
    parser.HandleNextDocument(finder);
    return finder.mark;
}

// Where a second YAML document starts: a '---' line after content, or content after a '...'
// line. YAML::Load reads the first document only, so a file made by joining two price files
// lost the second one's prices without a word (LoadAll, which reads them all, loops forever on
// some inputs in yaml-cpp 0.7). A marker is '---' or '...' at the start of a line, alone or
// before a space: inside a scalar it could only stand indented.
std::optional<YAML::Mark> secondDocument(const std::string& text)
{
    const auto atLine = [](int line) {
        YAML::Mark mark;
        mark.line = line;
        return mark;
    };
    const auto isMarker = [](std::string_view line, std::string_view marker) {
        return line.substr(0, 3) == marker
            && (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
    };
    bool content = false;
    bool ended = false;
    bool started = false; // a '---' seen: another starts a second document, empty or not
    int lineNumber = 0;
    // A byte-order mark is no content (spreadsheet programs and Windows editors write one).
    const std::size_t bom = text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
    for (std::size_t start = bom; start <= text.size(); ++lineNumber) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view line = std::string_view(text).substr(start, end - start);
        start = end + 1;
        const std::size_t first = line.find_first_not_of(" \t\r");
        const bool blank = first == std::string_view::npos || line[first] == '#';
        if (isMarker(line, "---")) {
            if (content || ended || started)
                return atLine(lineNumber);
            started = true;
            const std::size_t after = line.find_first_not_of(" \t\r", 3);
            content = after != std::string_view::npos && line[after] != '#'; // "--- key: v"
        } else if (isMarker(line, "...")) {
            ended = content || ended || started;
        } else if (!blank && !(line[0] == '%' && !content)) {
            if (ended)
                return atLine(lineNumber);
            content = true;
        }
    }
    return std::nullopt;
}

// Built by appending: GCC 12 at -O3 reports a false -Wrestrict for "'" + std::string (PR 105651).
std::string quoted(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2);
    out.append(1, '\'').append(text).append(1, '\'');
    return out;
}
} // namespace

bool isIsoDate(std::string_view t)
{
    auto digits = [&t](std::size_t from, std::size_t count) {
        for (std::size_t i = from; i < from + count; ++i)
            if (i >= t.size() || !std::isdigit(static_cast<unsigned char>(t[i])))
                return false;
        return true;
    };
    if (t.size() == 4)
        return digits(0, 4);
    if (t.size() != 7 && t.size() != 10)
        return false;
    if (!digits(0, 4) || t[4] != '-' || !digits(5, 2))
        return false;
    const int month = (t[5] - '0') * 10 + (t[6] - '0');
    if (month < 1 || month > 12)
        return false;
    if (t.size() == 7)
        return true;
    if (t[7] != '-' || !digits(8, 2))
        return false;
    const int day = (t[8] - '0') * 10 + (t[9] - '0');
    // A day the month has: 2026-02-30 is a typo, not a date a price was seen on.
    const int year = (t[0] - '0') * 1000 + (t[1] - '0') * 100 + (t[2] - '0') * 10 + (t[3] - '0');
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    constexpr int kDays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    const int days = month == 2 && leap ? 29 : kDays[month - 1];
    return day >= 1 && day <= days;
}

std::string formatNumber(double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

Reader::Reader(std::string fileName, std::vector<LoadIssue>& issues)
    : m_file(std::move(fileName))
    , m_issues(issues)
{
}

std::size_t Reader::errorCount() const
{
    return static_cast<std::size_t>(std::count_if(m_issues.begin(), m_issues.end(),
        [](const auto& i) { return i.severity == LoadIssue::Severity::Error; }));
}

void Reader::add(LoadIssue::Severity severity, const YAML::Mark& at, const std::string& message)
{
    const bool known = !at.is_null() && at.line >= 0;
    m_issues.push_back(
        { severity, m_file, known ? at.line + 1 : 0, known ? at.column + 1 : 0, message });
}

bool Reader::guarded(const std::function<void()>& read)
{
    try {
        read();
        return true;
    } catch (const YAML::Exception& e) {
        error(e.mark,
            "could not read this file (" + e.msg
                + "): a gpuplan defect, please report it with the file");
        return false;
    }
}

void Reader::error(const YAML::Mark& at, const std::string& message)
{
    add(LoadIssue::Severity::Error, at, message);
}

void Reader::warning(const YAML::Mark& at, const std::string& message)
{
    add(LoadIssue::Severity::Warning, at, message);
}

std::optional<YAML::Node> Reader::parse(std::string_view text)
{
    if (text.size() > kMaxFileBytes) {
        error(YAML::Mark::null_mark(),
            "file is " + std::to_string(text.size()) + " bytes, more than the "
                + std::to_string(kMaxFileBytes) + " a price table may have");
        return std::nullopt;
    }
    // Text first: a binary file or another encoding is named as such at its position, rather
    // than as a YAML syntax error somewhere after it or as garbled sources in every output.
    if (auto junk = findBinaryJunk(text, m_file, "a gpuplan YAML file (save it as UTF-8)")) {
        m_issues.push_back(std::move(*junk));
        return std::nullopt;
    }
    YAML::Node root;
    try {
        const std::string copy(text);
        root = YAML::Load(copy); // never LoadAll: 0.7.0 loops forever on ","
        if (const auto second = secondDocument(copy)) {
            error(*second,
                "a second YAML document starts here ('---' or after '...'): gpuplan reads one "
                "document per file; join them into one, or save the second as a file of its "
                "own");
            return std::nullopt;
        }
        if (const auto alias = firstAlias(copy)) {
            error(*alias,
                "aliases (*name) are not read in gpuplan files: write the value out where it is "
                "used");
            return std::nullopt;
        }
    } catch (const YAML::DeepRecursion& e) {
        error(e.mark,
            "nesting is too deep (more than " + std::to_string(e.depth())
                + " levels): not a price table");
        return std::nullopt;
    } catch (const YAML::Exception& e) {
        error(e.mark, "invalid YAML: " + e.msg);
        return std::nullopt;
    }
    if (!root || root.IsNull()) {
        // A byte-order mark alone is an empty file too.
        const std::string_view body = text.substr(text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0);
        const bool blank = body.find_first_not_of(" \t\r\n") == std::string_view::npos;
        error(YAML::Mark::null_mark(),
            blank ? "the file is empty"
                  : "the file holds no YAML map (expected 'schema_version: 1' and tables)");
        return std::nullopt;
    }
    if (!root.IsMap()) {
        error(root, "expected a map with 'schema_version' at the top level");
        return std::nullopt;
    }
    const std::size_t before = m_issues.size();
    checkDuplicateKeys(root, 0);
    if (m_issues.size() != before)
        return std::nullopt;
    const auto version = integer(root, "schema_version", "the file", { 0, 1e6 });
    if (!version)
        return std::nullopt;
    if (*version != kSchemaVersion) {
        error(root["schema_version"],
            "unsupported schema_version " + std::to_string(*version)
                + " (this gpuplan reads version " + std::to_string(kSchemaVersion) + ")");
        return std::nullopt;
    }
    return root;
}

void Reader::checkDuplicateKeys(const YAML::Node& node, int depth)
{
    if (depth > kMaxDepth) {
        error(node, "nesting is deeper than " + std::to_string(kMaxDepth) + " levels");
        return;
    }
    if (node.IsMap()) {
        std::set<std::string> seen;
        for (auto it = node.begin(); it != node.end(); ++it) {
            const std::string key = it->first.IsScalar() ? it->first.Scalar() : std::string();
            if (it->first.IsScalar() && !seen.insert(key).second)
                error(it->first, "duplicate key " + quoted(key));
            checkDuplicateKeys(it->second, depth + 1);
        }
    } else if (node.IsSequence()) {
        for (const auto& child : node)
            checkDuplicateKeys(child, depth + 1);
    }
}

bool Reader::expectMap(const YAML::Node& node, std::string_view what)
{
    if (node.IsMap())
        return true;
    error(node, "expected a map for " + std::string(what));
    return false;
}

bool Reader::expectSequence(const YAML::Node& node, std::string_view what)
{
    if (node.IsSequence())
        return true;
    error(node, "expected a list for " + std::string(what));
    return false;
}

void Reader::warnUnknownKeys(
    const YAML::Node& map, std::initializer_list<std::string_view> allowed, std::string_view what)
{
    warnUnknownKeys(map, std::vector<std::string_view>(allowed), what);
}

void Reader::warnUnknownKeys(
    const YAML::Node& map, const std::vector<std::string_view>& allowed, std::string_view what)
{
    for (auto it = map.begin(); it != map.end(); ++it) {
        const std::string key = it->first.Scalar();
        bool known = false;
        for (auto a : allowed)
            known = known || a == key;
        if (!known)
            warning(it->first,
                "unknown key " + quoted(key) + " in " + std::string(what) + " (ignored)");
    }
}

YAML::Node Reader::field(const YAML::Node& map, std::string_view key, std::string_view what,
    bool required, std::string_view hint)
{
    const YAML::Node value = map[std::string(key)];
    if (value && !value.IsNull())
        return value;
    if (required)
        error(map,
            std::string(what) + " is missing " + quoted(key)
                + (hint.empty() ? std::string() : " (" + std::string(hint) + ")"));
    return YAML::Node(YAML::NodeType::Undefined);
}

std::optional<std::string> Reader::string(
    const YAML::Node& map, std::string_view key, std::string_view what, bool required)
{
    const YAML::Node value = field(map, key, what, required);
    if (!value)
        return std::nullopt;
    if (!value.IsScalar()) {
        error(value, quoted(key) + " of " + std::string(what) + " must be text");
        return std::nullopt;
    }
    return value.Scalar();
}

std::optional<double> Reader::number(const YAML::Node& value, std::string_view what, Range range)
{
    if (!value.IsScalar()) {
        error(value, std::string(what) + " must be a number");
        return std::nullopt;
    }
    double parsed = 0.0;
    try {
        parsed = value.as<double>();
    } catch (const YAML::Exception&) {
        error(value, std::string(what) + " must be a number, not " + quoted(value.Scalar()));
        return std::nullopt;
    }
    if (std::isnan(parsed) || std::isinf(parsed)) {
        error(value, std::string(what) + " must be a finite number, not " + value.Scalar());
        return std::nullopt;
    }
    if (parsed < 0.0 && range.min >= 0.0) {
        error(value, std::string(what) + " must not be negative (" + value.Scalar() + ")");
        return std::nullopt;
    }
    if (parsed == 0.0 && range.positive) {
        // A price or rate of 0 means "none" to whoever wrote it; any other 0 is simply wrong.
        // Told apart by the field's key, the first word of `what` ("usd of price of gpu 'x'"),
        // which the schema names (usd, *_usd_per_hour), never the user.
        const std::string_view field = what.substr(0, what.find(' '));
        const bool money = field.find("usd") != std::string_view::npos;
        error(value,
            std::string(what)
                + (money ? " is 0: leave the field out when there is no price"
                         : " is 0: it must be more than 0"));
        return std::nullopt;
    }
    if (parsed < range.min || parsed > range.max) {
        error(value,
            std::string(what) + " = " + value.Scalar() + " is outside the plausible range "
                + formatNumber(range.min) + " to " + formatNumber(range.max));
        return std::nullopt;
    }
    return parsed;
}

std::optional<double> Reader::number(
    const YAML::Node& map, std::string_view key, std::string_view what, Range range, bool required)
{
    const YAML::Node value = field(map, key, what, required);
    if (!value)
        return std::nullopt;
    return number(value, std::string(key) + " of " + std::string(what), range);
}

std::optional<double> Reader::number(
    const YAML::Node& map, const FieldSpec& spec, std::string_view what, bool required)
{
    std::string label(spec.label);
    if (!label.empty())
        label[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(label[0])));
    const std::string hint = label + ", in " + std::string(unitName(spec.unit));
    const YAML::Node value = field(map, spec.key, what, required, hint);
    if (!value)
        return std::nullopt;
    return number(value, std::string(spec.key) + " of " + std::string(what), spec.bounds);
}

std::optional<std::int64_t> Reader::integer(
    const YAML::Node& map, std::string_view key, std::string_view what, Range range, bool required)
{
    const auto value = number(map, key, what, range, required);
    if (!value)
        return std::nullopt;
    if (std::floor(*value) != *value) {
        error(map[std::string(key)],
            std::string(key) + " of " + std::string(what) + " must be a whole number");
        return std::nullopt;
    }
    return static_cast<std::int64_t>(*value);
}

std::optional<std::int64_t> Reader::integer(
    const YAML::Node& value, std::string_view what, Range range)
{
    const auto parsed = number(value, what, range);
    if (!parsed)
        return std::nullopt;
    if (std::floor(*parsed) != *parsed) {
        error(value, std::string(what) + ": " + value.Scalar() + " must be a whole number");
        return std::nullopt;
    }
    return static_cast<std::int64_t>(*parsed);
}

std::optional<double> Reader::number(const YAML::Node& map, std::string_view key,
    std::string_view what, Range range, bool wholeNumber, bool required)
{
    if (!wholeNumber)
        return number(map, key, what, range, required);
    const auto whole = integer(map, key, what, range, required);
    return whole ? std::optional<double>(static_cast<double>(*whole)) : std::nullopt;
}

std::optional<bool> Reader::boolean(
    const YAML::Node& map, std::string_view key, std::string_view what, bool required)
{
    const YAML::Node value = field(map, key, what, required);
    if (!value)
        return std::nullopt;
    try {
        return value.as<bool>();
    } catch (const YAML::Exception&) {
        error(value, std::string(key) + " of " + std::string(what) + " must be true or false");
        return std::nullopt;
    }
}

std::optional<std::string> Reader::id(
    const YAML::Node& map, std::string_view key, std::string_view what)
{
    auto text = string(map, key, what);
    if (!text)
        return std::nullopt;
    bool valid = !text->empty() && text->size() <= 64;
    for (char c : *text)
        valid = valid
            && (std::islower(static_cast<unsigned char>(c))
                || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.');
    if (!valid) {
        error(map[std::string(key)],
            quoted(*text) + " is not a valid id for " + std::string(what)
                + " (lower-case letters, digits, '.', '_', '-'; at most 64)");
        return std::nullopt;
    }
    return text;
}

Provenance Reader::provenance(const YAML::Node& map, std::string_view what, bool required)
{
    Provenance p;
    if (auto date = string(map, "date", what, required)) {
        // "undated" is allowed only with a note saying why, so the gap is visible, not hidden.
        const bool undated = *date == kUndated && map["note"] && map["note"].IsScalar()
            && !map["note"].Scalar().empty();
        if (!isIsoDate(*date) && !undated)
            error(map["date"],
                "date of " + std::string(what)
                    + " must be YYYY, YYYY-MM or YYYY-MM-DD (or 'undated' with a note), not "
                    + quoted(*date));
        p.date = *date;
    }
    if (auto source = string(map, "source", what, required)) {
        if (source->empty() && required)
            error(map["source"], std::string(what) + " has an empty source");
        p.source = *source;
    }
    if (auto note = string(map, "note", what, /*required=*/false))
        p.note = *note;
    return p;
}

Provenance Reader::priceProvenance(const YAML::Node& map, std::string_view what)
{
    // A mistyped key here (usd_hgih) would silently drop a range or a kind.
    warnUnknownKeys(map, { "usd", "usd_low", "usd_high", "date", "source", "note", "kind" }, what);
    Provenance p = provenance(map, what);
    if (auto kind = string(map, "kind", what, /*required=*/false)) {
        if (auto k = priceKindFromString(*kind))
            p.kind = *k;
        else
            error(map["kind"],
                "kind of " + std::string(what) + " must be quote, list, street or resale, not "
                    + quoted(*kind));
    }
    // The range the sources give, if any: both ends, around the price.
    p.lowUsd = number(map, "usd_low", what, limits::kPriceUsd.bounds, /*required=*/false);
    p.highUsd = number(map, "usd_high", what, limits::kPriceUsd.bounds, /*required=*/false);
    if (p.lowUsd.has_value() != p.highUsd.has_value()) {
        error(map, std::string(what) + " gives only one of usd_low and usd_high");
        p.lowUsd.reset();
        p.highUsd.reset();
    } else if (p.lowUsd && map["usd"] && map["usd"].IsScalar()) {
        const double usd = map["usd"].as<double>(0.0);
        if (!(*p.lowUsd <= usd && usd <= *p.highUsd))
            error(map["usd_low"], std::string(what) + ": usd_low <= usd <= usd_high must hold");
    }
    return p;
}

} // namespace gpuplan::yaml

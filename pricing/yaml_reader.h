#pragma once

// Position-aware reading of untrusted YAML with yaml-cpp 0.7, shared by every reader in
// pricing/. It exists because yaml-cpp's own accessors hide the traps listed in design.md:
// duplicate keys pass silently, `node["missing"].as<T>()` throws without a position, marks are
// 0-based, NaN and negative numbers convert without complaint, and LoadAll can hang.

#include "core/limits.h"
#include "core/provenance.h"
#include "pricing/load_issue.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::yaml {

// Inclusive bounds a number must lie in (core/limits.h); anything outside is an error naming
// the bounds, and 0 where the bounds say `positive` is an error saying to leave the field out.
using Range = Bounds;

inline constexpr std::size_t kMaxFileBytes = 4 * 1024 * 1024; // shipped tables are < 64 KiB
inline constexpr std::size_t kMaxEntries = 10000; // per section (gpus, cloud_offers, ...)
inline constexpr int kSchemaVersion = 1;
inline constexpr std::string_view kUndated = "undated";

class Reader {
public:
    Reader(std::string fileName, std::vector<LoadIssue>& issues);

    // Parses one document (never LoadAll), checks size, duplicate keys (everywhere), that the
    // root is a map, and `schema_version`. nullopt after reporting an error.
    std::optional<YAML::Node> parse(std::string_view text);

    // Runs `read` over a parsed document. A yaml-cpp exception it lets out (a missing node
    // asked for its place, a plain value indexed as a map) is a reader's defect, but ends as an
    // error naming the file rather than as a crash: false then, and what `read` built is partial.
    bool guarded(const std::function<void()>& read);

    const std::string& fileName() const { return m_file; }
    // Errors reported so far (all files sharing the issue list), to tell whether a step failed.
    std::size_t errorCount() const;

    void error(const YAML::Mark& at, const std::string& message);
    void warning(const YAML::Mark& at, const std::string& message);
    void error(const YAML::Node& at, const std::string& message) { error(at.Mark(), message); }
    void warning(const YAML::Node& at, const std::string& message) { warning(at.Mark(), message); }

    bool expectMap(const YAML::Node& node, std::string_view what);
    bool expectSequence(const YAML::Node& node, std::string_view what);
    // Warns about keys outside `allowed` ("unknown key 'prise' in gpu 'a100'").
    void warnUnknownKeys(const YAML::Node& map, std::initializer_list<std::string_view> allowed,
        std::string_view what);
    void warnUnknownKeys(
        const YAML::Node& map, const std::vector<std::string_view>& allowed, std::string_view what);

    // Field accessors: report a missing required field at the map, a bad value at the value.
    std::optional<std::string> string(
        const YAML::Node& map, std::string_view key, std::string_view what, bool required = true);
    std::optional<double> number(const YAML::Node& map, std::string_view key, std::string_view what,
        Range range, bool required = true);
    std::optional<double> number(const YAML::Node& value, std::string_view what, Range range);
    // A field as core/limits.h specifies it: its key and bounds, and its unit in the message
    // when it is missing ("is missing 'gbps' (network per instance, in Gbit/s)"), where the
    // key alone would not say how to write it.
    std::optional<double> number(
        const YAML::Node& map, const FieldSpec& spec, std::string_view what, bool required = true);
    std::optional<std::int64_t> integer(const YAML::Node& map, std::string_view key,
        std::string_view what, Range range, bool required = true);
    // One item of a list of counts ("gpu_counts: 2.5 must be a whole number"): cutting it to 2
    // had drawn the machines of another count without a word.
    std::optional<std::int64_t> integer(
        const YAML::Node& value, std::string_view what, Range range);
    // A number, or a whole number when `wholeNumber` (returned as a double either way).
    std::optional<double> number(const YAML::Node& map, std::string_view key, std::string_view what,
        Range range, bool wholeNumber, bool required);
    std::optional<bool> boolean(
        const YAML::Node& map, std::string_view key, std::string_view what, bool required = true);
    // An identifier: lower-case letters, digits, '.', '_' and '-'.
    std::optional<std::string> id(
        const YAML::Node& map, std::string_view key, std::string_view what);
    // {date, source, note}; date must be ISO (YYYY, YYYY-MM or YYYY-MM-DD) or "undated" with a
    // note, and source non-empty, when `required`.
    Provenance provenance(const YAML::Node& map, std::string_view what, bool required = true);
    // A price's provenance: also its optional `kind` (quote, list, street, resale).
    Provenance priceProvenance(const YAML::Node& map, std::string_view what);

private:
    void add(LoadIssue::Severity severity, const YAML::Mark& at, const std::string& message);
    // The value of `key`, or an undefined node (reported at the map when `required`).
    // `hint`: said after the message when it is missing.
    YAML::Node field(const YAML::Node& map, std::string_view key, std::string_view what,
        bool required, std::string_view hint = {});
    void checkDuplicateKeys(const YAML::Node& node, int depth);

    std::string m_file;
    std::vector<LoadIssue>& m_issues;
};

bool isIsoDate(std::string_view text);
std::string formatNumber(double value);

} // namespace gpuplan::yaml

#pragma once

// Checks that a data file is text at all, before any CSV or YAML parsing: a NUL byte or a byte
// sequence that is not UTF-8 means a binary file (a spreadsheet, an archive, a truncated
// download) or another encoding (Latin-1), which is better refused with its position than read
// as odd prices or garbled sources.

#include "pricing/load_issue.h"

#include <optional>
#include <string>
#include <string_view>

namespace gpuplan {

// The UTF-8 byte-order mark that spreadsheet programs write at the start of a CSV.
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// The first NUL byte or invalid UTF-8 sequence in `text`, as an error at its line and column
// (columns count characters, from 1), saying the file is not `expected`; nullopt when the text
// is clean UTF-8.
std::optional<LoadIssue> findBinaryJunk(std::string_view text, const std::string& fileName,
    std::string_view expected = "a CSV catalog");

} // namespace gpuplan

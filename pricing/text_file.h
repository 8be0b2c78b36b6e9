#pragma once

// Reading a data file from disk with its size checked before anything is read: a wrong file
// (a 3 GB dump, /dev/zero, a named pipe) fails at once with what it is, instead of being read
// into memory first or blocking forever. Price tables, gpuplan-bench results, GPU alias tables
// and catalog CSVs go through here; scenario files are read by the GUI's ScenarioDocument.

#include "pricing/load_issue.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

// The file's text, or nullopt with an error in `issues` naming the path: missing, a folder, not
// a regular file, larger than `maxBytes` ("... more than the 4 MiB " + `limitText`, e.g. "a
// gpuplan data file may have"), unreadable, or changed while being read.
std::optional<std::string> readTextFile(const std::string& path, std::vector<LoadIssue>& issues,
    std::uintmax_t maxBytes, const std::string& limitText);

} // namespace gpuplan

#pragma once

#include <string>
#include <vector>

namespace gpuplan {

// A problem found while reading a data file. Positions are 1-based, as editors show them;
// 0 means "no position" (e.g. a file that cannot be opened; a CSV row as a whole: file:line).
struct LoadIssue {
    enum class Severity { Warning, Error };
    Severity severity = Severity::Error;
    std::string file;
    int line = 0;
    int column = 0;
    std::string message;

    // "prices.yaml:12:5: error: negative price -3 for gpu 'rtx-3090'"
    std::string toString() const;
};

bool hasErrors(const std::vector<LoadIssue>& issues);
// All issues, one per line, errors and warnings alike.
std::string formatIssues(const std::vector<LoadIssue>& issues);

} // namespace gpuplan

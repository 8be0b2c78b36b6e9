#include "pricing/load_issue.h"

#include <algorithm>

namespace gpuplan {

std::string LoadIssue::toString() const
{
    std::string text = file;
    if (line > 0)
        text += ':' + std::to_string(line);
    if (line > 0 && column > 0)
        text += ':' + std::to_string(column);
    text += severity == Severity::Error ? ": error: " : ": warning: ";
    return text + message;
}

bool hasErrors(const std::vector<LoadIssue>& issues)
{
    return std::any_of(issues.begin(), issues.end(),
        [](const LoadIssue& i) { return i.severity == LoadIssue::Severity::Error; });
}

std::string formatIssues(const std::vector<LoadIssue>& issues)
{
    std::string text;
    for (const auto& issue : issues)
        text += issue.toString() + '\n';
    return text;
}

} // namespace gpuplan

#pragma once

// Writes a run's report as the results file of docs/results-format.md (schema_version 1), read
// back by pricing/measured_results.h as the planner's `measured` source.

#include "benchmark/measurement.h"

#include <string>

namespace gpuplan::bench {

std::string resultsYaml(const RunReport& report);

// Writes the file atomically: a temporary file beside it, then a rename, so a reader (or a
// crash) never sees half a file. Returns an error message, or "" on success.
std::string writeResultsFile(const RunReport& report, const std::string& path);

// An earlier results file at `path` set aside before a run rewrites `path` with its partial
// results: renamed to earlierResultsPath(path) ("<path>.previous"), so a run that fails or is
// stopped cannot cost the user a complete earlier file. Where a .previous is already there (an
// earlier rerun failed), it is the one kept, and the failed rerun's partial file is what this
// run replaces. "" on success, else an error message; *movedTo names the file kept, if any.
std::string setAsideEarlierResults(const std::string& path, std::string* movedTo);
std::string earlierResultsPath(const std::string& path);
// The run completed and its file is whole: the earlier one set aside is no longer needed.
void dropEarlierResults(const std::string& path);
// The run failed before writing anything: the earlier file goes back to `path`. True if it did.
bool restoreEarlierResults(const std::string& path);

// The file results at `path` are written to: `path`, or the file its symbolic link names.
std::string resultsTarget(const std::string& path);

// The temporary file writeResultsFile writes beside `path` before renaming it into place.
std::string temporaryResultsPath(const std::string& path);

// Whether writeResultsFile can write `path`: not a folder, and its temporary file can be made
// beside it (made and removed again; an existing file at `path` is left alone). Checked before a
// run measures anything, so an unwritable --out costs no GPU time. An error message, or "".
std::string checkResultsFileWritable(const std::string& path);

} // namespace gpuplan::bench

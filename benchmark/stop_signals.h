#pragma once

// A run in one process (no launcher of ours above it) stopped by SIGTERM or SIGINT (a job
// scheduler, Ctrl+C) says so and where what it measured is, and leaves no temporary results
// file behind, as the launcher does for its ranks. Without this it died silently.

#include <string>

namespace gpuplan::bench {

// Installs the handlers. `kept`: what the stop leaves ("the configurations finished before are
// in results.yaml"); `temporaryFile`: the results file's temporary copy, removed if a write was
// under way. Called again, it replaces both.
void reportStopSignals(const std::string& kept, const std::string& temporaryFile);

} // namespace gpuplan::bench

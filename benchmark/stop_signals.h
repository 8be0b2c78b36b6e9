#pragma once

// A run with no launcher of ours above it (one process, or rank 0 under srun or torchrun)
// stopped by SIGTERM or SIGINT (a job
// scheduler, Ctrl+C) says so and where what it measured is, and leaves no temporary results
// file behind, as the launcher does for its ranks. Without this it died silently.

#include <string>

namespace gpuplan::bench {

// What a stop leaves, decided when the signal comes: whether the results file was written yet.
struct StopReport {
    std::string resultsFile; // --out (its link's target); empty: nothing is saved
    std::string temporaryFile; // its temporary copy, removed if a write was under way
    // The earlier results set aside for this run (results.yaml.previous); empty if none. Put
    // back when the run is stopped before it wrote anything: it was "kept" in a file the
    // planner does not read.
    std::string earlierFile;
};

// Installs the handlers. Called again, it replaces what they report.
void reportStopSignals(const StopReport& report);

} // namespace gpuplan::bench

#pragma once

#include <QString>

namespace gpuplan::benchview {

// Where the gpuplan-bench executable is. `program` is empty when none was found, and `problem`
// then says in words what was looked for.
struct BenchLocation {
    QString program;
    QString problem;
};

// $GPUPLAN_BENCH if set (it must then name an executable: a wrong setting is reported, not
// silently skipped), else the gpuplan-bench beside the running program (as the .deb installs
// them), else the first one on PATH, else the one this build produced (running from a build tree).
BenchLocation locateBench();

} // namespace gpuplan::benchview

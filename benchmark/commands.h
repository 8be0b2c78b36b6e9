#pragma once

// The gpuplan-bench commands. Each returns the process exit code: 0 ok, 2 bad usage or
// bad input (message on stderr), 1 a failure while running.

#include "benchmark/cli_options.h"

#include <iosfwd>

namespace gpuplan::bench {

int runDevicesCommand(const CliOptions& options, std::ostream& out, std::ostream& err);
int runDescribeCommand(const CliOptions& options, std::ostream& out, std::ostream& err);
// Also the launcher of --nproc-per-node and each rank of a multi-process run
// (benchmark/distributed/distributed_run.h).
int runRunCommand(const CliOptions& options, std::ostream& out, std::ostream& err);
int runCommProbeCommand(const CliOptions& options, std::ostream& out, std::ostream& err);

} // namespace gpuplan::bench

#pragma once

// The three gpuplan-bench commands. Each returns the process exit code: 0 ok, 2 bad usage or
// bad input (message on stderr), 1 a failure while running.

#include "benchmark/cli_options.h"

#include <iosfwd>

namespace gpuplan::bench {

int runDevicesCommand(const CliOptions& options, std::ostream& out, std::ostream& err);
int runDescribeCommand(const CliOptions& options, std::ostream& out, std::ostream& err);
int runRunCommand(const CliOptions& options, std::ostream& out, std::ostream& err);

} // namespace gpuplan::bench

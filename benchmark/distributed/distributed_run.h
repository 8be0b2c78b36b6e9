#pragma once

// How this gpuplan-bench process takes part in a run, from --nproc-per-node and the launch
// variables (rendezvous_env.h):
//   single    one process, no communicator: the single-GPU path, unchanged;
//   launcher  --nproc-per-node N > 1 outside srun/torchrun: starts the N ranks (launcher.h);
//   rank      one rank of a run (started by us, srun or torchrun), or a world of one when
//             --nproc-per-node 1 or --parallelism asks for the parallel code on one device.
// No LibTorch.

#include "benchmark/cli_options.h"
#include "benchmark/distributed/rendezvous_env.h"

#include <chrono>
#include <iosfwd>
#include <string>

namespace gpuplan::bench::distributed {

enum class Role { Single, Launcher, Rank };

struct ProcessRole {
    Role role = Role::Single;
    Rendezvous rendezvous; // a world of one unless a launcher started this process
    std::string error; // bad variables or options (exit code 2)
};

ProcessRole processRole(const CliOptions& options, const Environment& environment);

// Starts the ranks of `options` (launcher role) and waits for them; returns the exit code.
int launchRanks(const CliOptions& options, const Environment& environment, std::ostream& out,
    std::ostream& err);

// What every rank must agree on: the command line without --nproc-per-node.
std::string commandFingerprint(const CliOptions& options);

// Rendezvous and collective timeouts: GPUPLAN_BENCH_RENDEZVOUS_TIMEOUT and
// GPUPLAN_BENCH_COLLECTIVE_TIMEOUT in seconds, else 300 s and 1800 s.
std::chrono::milliseconds rendezvousTimeout(const Environment& environment);
std::chrono::milliseconds collectiveTimeout(const Environment& environment);

// "rank 1: " in a multi-process run, "" otherwise: prefixes a rank's messages.
std::string rankPrefix(const Rendezvous& rendezvous);

} // namespace gpuplan::bench::distributed

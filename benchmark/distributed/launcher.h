#pragma once

// `--nproc-per-node N`: starts N copies of this program on this machine, one per GPU (or N CPU
// processes), as torchrun would: each gets RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE,
// MASTER_ADDR and MASTER_PORT, and rank 0 serves the rendezvous. The launcher then watches:
//   - a rank that crashes, is killed or exits with an error: the others get `faultGrace` to
//     stop by themselves (their collectives fail when the peer's connection closes), then
//     SIGTERM, then SIGKILL; the launcher exits non-zero naming the rank and why;
//   - SIGTERM / SIGINT / SIGHUP to the launcher (the GUI's Cancel, Ctrl-C, a scheduler) is
//     passed to every rank;
//   - the launcher dying: every rank gets SIGKILL from the kernel (PR_SET_PDEATHSIG), so no
//     rank outlives it.
// Rank 0 writes the results file after every configuration, so what finished is kept. POSIX
// only, no LibTorch.

#include <chrono>
#include <iosfwd>
#include <string>
#include <vector>

namespace gpuplan::bench::distributed {

struct LaunchPlan {
    std::string program; // this executable
    std::vector<std::string> arguments; // for every rank, without --nproc-per-node
    int processes = 1;
    std::string masterAddress;
    int masterPort = 0;
    int threadsPerProcess = 1; // OMP_NUM_THREADS for the ranks, unless the user set it
    bool progressJsonl = false; // the launcher's own events go to `out` as progress lines
    std::chrono::milliseconds faultGrace { std::chrono::seconds(15) };
    std::chrono::milliseconds termGrace { std::chrono::seconds(5) };
};

// Runs the ranks to the end. Returns the exit code: 0 when every rank succeeded, 2 when the
// first failing rank reported bad input, 1 for any other failure, 128 + signal when the
// launcher was stopped by that signal.
int launchLocalRanks(const LaunchPlan& plan, std::ostream& out, std::ostream& err);

// A TCP port nothing listens on now (bound to port 0 and released); "" error on success.
int freeTcpPort(const std::string& address, std::string& error);

// "exited with code 1", "was killed by signal 9 (SIGKILL), ...": a waitpid() status in words.
std::string describeExit(int status);

// This program's path, for starting copies of it.
std::string currentExecutable();

} // namespace gpuplan::bench::distributed

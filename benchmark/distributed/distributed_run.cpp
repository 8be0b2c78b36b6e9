#include "benchmark/distributed/distributed_run.h"

#include "benchmark/distributed/launcher.h"

#include <charconv>
#include <ostream>
#include <thread>

namespace gpuplan::bench::distributed {

namespace {

constexpr std::chrono::seconds kDefaultRendezvousTimeout { 300 };
// A rank waits in a collective while another finishes a long micro-step, writes the results
// file or measures a validation step: half an hour covers a big model on a CPU.
constexpr std::chrono::seconds kDefaultCollectiveTimeout { 1800 };

std::chrono::milliseconds secondsFrom(
    const Environment& environment, const char* name, std::chrono::seconds fallback)
{
    const auto text = environment(name);
    long long seconds = 0;
    if (text) {
        const auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), seconds);
        if (ec == std::errc() && ptr == text->data() + text->size() && seconds > 0)
            return std::chrono::seconds(seconds);
    }
    return fallback;
}

} // namespace

std::chrono::milliseconds rendezvousTimeout(const Environment& environment)
{
    return secondsFrom(environment, "GPUPLAN_BENCH_RENDEZVOUS_TIMEOUT", kDefaultRendezvousTimeout);
}

std::chrono::milliseconds collectiveTimeout(const Environment& environment)
{
    return secondsFrom(environment, "GPUPLAN_BENCH_COLLECTIVE_TIMEOUT", kDefaultCollectiveTimeout);
}

std::string rankPrefix(const Rendezvous& rendezvous)
{
    return rendezvous.worldSize > 1 ? "rank " + std::to_string(rendezvous.rank) + ": " : "";
}

std::string commandFingerprint(const CliOptions& options)
{
    std::string text;
    for (const auto& a : withoutProcessCount(options.arguments))
        text += a + '\n';
    return text;
}

ProcessRole processRole(const CliOptions& options, const Environment& environment)
{
    ProcessRole role;
    const RendezvousRead read = readRendezvous(environment);
    if (!read.error.empty()) {
        role.error = read.error;
        return role;
    }
    role.rendezvous = read.rendezvous;
    const bool launched = role.rendezvous.worldSize > 1;
    if (options.nprocPerNode && launched) {
        role.error = "--nproc-per-node starts its own processes, but this one is already rank "
            + std::to_string(role.rendezvous.rank) + " of "
            + std::to_string(role.rendezvous.worldSize) + " (started by " + role.rendezvous.launcher
            + "): leave --nproc-per-node out under srun or torchrun, which start one process "
              "per GPU themselves";
        return role;
    }
    if (options.nprocPerNode && *options.nprocPerNode > 1) {
        role.role = Role::Launcher;
        return role;
    }
    if (launched || options.nprocPerNode || options.parallelism) {
        role.role = Role::Rank;
        if (!launched)
            role.rendezvous = Rendezvous {}; // a world of one, meeting in-process
        return role;
    }
    role.role = Role::Single;
    role.rendezvous = Rendezvous {};
    return role;
}

int launchRanks(
    const CliOptions& options, const Environment& environment, std::ostream& out, std::ostream& err)
{
    LaunchPlan plan;
    plan.program = currentExecutable();
    if (plan.program.empty()) {
        err << "gpuplan-bench: cannot find this program's path (/proc/self/exe) to start the "
               "ranks\n";
        return 1;
    }
    plan.arguments = withoutProcessCount(options.arguments);
    plan.processes = *options.nprocPerNode;
    plan.progressJsonl = options.progressJsonl;
    plan.masterAddress = environment("MASTER_ADDR").value_or("127.0.0.1");
    if (const auto port = environment("MASTER_PORT")) {
        int value = 0;
        const auto [ptr, ec] = std::from_chars(port->data(), port->data() + port->size(), value);
        if (ec != std::errc() || ptr != port->data() + port->size() || value < 1 || value > 65535) {
            err << "gpuplan-bench: MASTER_PORT='" << *port << "' is not a port number (1-65535)\n";
            return 2;
        }
        plan.masterPort = value;
    } else {
        std::string error;
        plan.masterPort = freeTcpPort(plan.masterAddress, error);
        if (plan.masterPort == 0) {
            err << "gpuplan-bench: " << error << "\n";
            return 1;
        }
    }
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    plan.threadsPerProcess
        = static_cast<int>(std::max(1u, cores / static_cast<unsigned>(plan.processes)));
    return launchLocalRanks(plan, out, err);
}

} // namespace gpuplan::bench::distributed

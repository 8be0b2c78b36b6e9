#include "benchmark/distributed/distributed_run.h"

#include "benchmark/distributed/launcher.h"

#include <charconv>
#include <optional>
#include <ostream>
#include <thread>

namespace gpuplan::bench::distributed {

namespace {

constexpr std::chrono::seconds kDefaultRendezvousTimeout { 300 };
// A rank waits in a collective while another finishes a long micro-step, writes the results
// file or measures a validation step: half an hour covers a big model on a CPU.
constexpr std::chrono::seconds kDefaultCollectiveTimeout { 1800 };

// A week: longer is a typo (or milliseconds), and would hang a run for as long.
constexpr long long kMostTimeoutSeconds = 7 * 24 * 3600;

// The variable's whole seconds; nullopt when it is not set or not a number of seconds (which
// processRole refuses before anything waits).
std::optional<long long> secondsIn(const Environment& environment, const char* name)
{
    const auto text = environment(name);
    long long seconds = 0;
    if (!text)
        return std::nullopt;
    const auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), seconds);
    if (ec == std::errc() && ptr == text->data() + text->size() && seconds > 0
        && seconds <= kMostTimeoutSeconds)
        return seconds;
    return std::nullopt;
}

std::chrono::milliseconds secondsFrom(
    const Environment& environment, const char* name, std::chrono::seconds fallback)
{
    const auto seconds = secondsIn(environment, name);
    return seconds ? std::chrono::seconds(*seconds) : fallback;
}

// "GPUPLAN_BENCH_RENDEZVOUS_TIMEOUT must be ..." for a variable set to something that is not
// whole seconds; "" when unset or valid.
std::string timeoutError(const Environment& environment, const char* name)
{
    const auto text = environment(name);
    if (!text || secondsIn(environment, name))
        return "";
    return std::string(name) + " must be a whole number of seconds from 1 to "
        + std::to_string(kMostTimeoutSeconds) + ", not '" + *text + "'";
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
    // Malformed, a timeout would silently fall back to its default (300 s, 1800 s).
    for (const char* name :
        { "GPUPLAN_BENCH_RENDEZVOUS_TIMEOUT", "GPUPLAN_BENCH_COLLECTIVE_TIMEOUT" })
        if (std::string why = timeoutError(environment, name); !why.empty()) {
            role.error = std::move(why);
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

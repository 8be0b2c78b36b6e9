#include "benchmark/distributed/launcher.h"

#include "benchmark/json_text.h"
#include "core/benchmark_protocol.h"

#include <arpa/inet.h>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <netinet/in.h>
#include <optional>
#include <ostream>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace gpuplan::bench::distributed {

namespace {

using Clock = std::chrono::steady_clock;

struct Rank {
    pid_t pid = -1;
    bool running = false;
    int status = 0;
};

// The environment of rank `rank`: ours, with the rendezvous variables replaced.
std::vector<std::string> rankEnvironment(const LaunchPlan& plan, int rank)
{
    const std::vector<std::pair<std::string, std::string>> ours {
        { "RANK", std::to_string(rank) },
        { "WORLD_SIZE", std::to_string(plan.processes) },
        { "LOCAL_RANK", std::to_string(rank) },
        { "LOCAL_WORLD_SIZE", std::to_string(plan.processes) },
        { "MASTER_ADDR", plan.masterAddress },
        { "MASTER_PORT", std::to_string(plan.masterPort) },
        // The launcher speaks for the run (the earlier results file, stop signals): the ranks
        // know they are not on their own.
        { "GPUPLAN_BENCH_LAUNCHED", "1" },
    };
    std::vector<std::string> env;
    bool threadsSet = false;
    for (char** e = environ; *e; ++e) {
        const std::string entry = *e;
        const std::string name = entry.substr(0, entry.find('='));
        bool replaced = false;
        for (const auto& [key, value] : ours)
            replaced = replaced || name == key;
        threadsSet = threadsSet || name == "OMP_NUM_THREADS";
        if (!replaced)
            env.push_back(entry);
    }
    for (const auto& [key, value] : ours)
        env.push_back(key + "=" + value);
    // N ranks sharing the cores each take their share instead of all of them (torchrun
    // sets 1; a share keeps a CPU run's ranks as fast as the cores allow).
    if (!threadsSet)
        env.push_back("OMP_NUM_THREADS=" + std::to_string(plan.threadsPerProcess));
    return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings)
{
    std::vector<char*> out;
    for (auto& s : strings)
        out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

const char* signalName(int signal)
{
    switch (signal) {
    case SIGKILL:
        return "SIGKILL";
    case SIGTERM:
        return "SIGTERM";
    case SIGINT:
        return "SIGINT";
    case SIGSEGV:
        return "SIGSEGV";
    case SIGBUS:
        return "SIGBUS";
    case SIGABRT:
        return "SIGABRT";
    case SIGFPE:
        return "SIGFPE";
    case SIGHUP:
        return "SIGHUP";
    default:
        return "";
    }
}

void emitProgress(const LaunchPlan& plan, std::ostream& out, ProgressPhase phase,
    const std::string& message, double percent)
{
    if (!plan.progressJsonl)
        return;
    out << "{\"phase\": " << json::quote(std::string(toString(phase)))
        << ", \"configuration\": \"\", \"percent\": " << json::number(percent)
        << ", \"message\": " << json::quote(message) << "}" << std::endl;
}

} // namespace

std::string describeExit(int status)
{
    if (WIFEXITED(status)) {
        const int code = WEXITSTATUS(status);
        if (code == 2)
            return "exited with code 2 (bad usage or input; its message is above)";
        return "exited with code " + std::to_string(code) + (code ? " (its message is above)" : "");
    }
    if (WIFSIGNALED(status)) {
        const int signal = WTERMSIG(status);
        std::string text = "was killed by signal " + std::to_string(signal);
        if (*signalName(signal))
            text += std::string(" (") + signalName(signal) + ")";
        if (signal == SIGKILL)
            text += ": most often the out-of-memory killer, or a user or scheduler killing it";
        else if (signal == SIGSEGV || signal == SIGBUS)
            text += ": a crash in gpuplan-bench, LibTorch or the driver";
        else if (signal == SIGABRT)
            text += ": an error LibTorch, NCCL or CUDA could not recover from";
        return text;
    }
    return "stopped with status " + std::to_string(status);
}

int freeTcpPort(const std::string& address, std::string& error)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        error = std::string("socket(): ") + std::strerror(errno);
        return 0;
    }
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_port = 0;
    if (::inet_pton(AF_INET, address.c_str(), &addr.sin_addr) != 1)
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof addr;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0
        || ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length) != 0)
        error = std::string("finding a free port: ") + std::strerror(errno);
    else
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

std::string currentExecutable()
{
    char path[PATH_MAX] = {};
    const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
    return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

int launchLocalRanks(const LaunchPlan& plan, std::ostream& out, std::ostream& err)
{
    // Signals arrive through sigtimedwait below, never asynchronously.
    sigset_t watched, previous;
    sigemptyset(&watched);
    for (const int s : { SIGCHLD, SIGTERM, SIGINT, SIGHUP })
        sigaddset(&watched, s);
    sigprocmask(SIG_BLOCK, &watched, &previous);

    // Everything a child needs is built before fork(): between fork and exec only
    // async-signal-safe calls are allowed.
    std::vector<std::string> argumentStrings { plan.program };
    argumentStrings.insert(argumentStrings.end(), plan.arguments.begin(), plan.arguments.end());
    std::vector<char*> argv = pointers(argumentStrings);
    const pid_t launcher = ::getpid();

    std::vector<Rank> ranks(static_cast<std::size_t>(plan.processes));
    std::string pids;
    for (int r = 0; r < plan.processes; ++r) {
        std::vector<std::string> envStrings = rankEnvironment(plan, r);
        std::vector<char*> envp = pointers(envStrings);
        const pid_t pid = ::fork();
        if (pid == 0) {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != launcher) // the launcher died before prctl took effect
                ::_exit(1);
            ::sigprocmask(SIG_SETMASK, &previous, nullptr);
            ::execve(plan.program.c_str(), argv.data(), envp.data());
            static const char message[] = "gpuplan-bench: cannot start a rank (execve failed)\n";
            [[maybe_unused]] auto written = ::write(2, message, sizeof message - 1);
            ::_exit(127);
        }
        if (pid < 0) {
            err << "gpuplan-bench: cannot start rank " << r << ": " << std::strerror(errno) << "\n";
            for (auto& started : ranks)
                if (started.running)
                    ::kill(started.pid, SIGKILL);
            for (auto& started : ranks)
                if (started.running)
                    ::waitpid(started.pid, nullptr, 0);
            sigprocmask(SIG_SETMASK, &previous, nullptr);
            return 1;
        }
        ranks[static_cast<std::size_t>(r)] = { pid, true, 0 };
        pids += (r ? ", " : "") + std::to_string(pid);
    }
    const std::string started = "started " + std::to_string(plan.processes) + " ranks (pids " + pids
        + ") meeting at " + plan.masterAddress + ":" + std::to_string(plan.masterPort);
    err << "gpuplan-bench: " << started << std::endl;
    emitProgress(plan, out, ProgressPhase::Launch, started, 0.0);

    int firstFailure = -1; // rank
    int stoppedBy = 0; // signal that stopped the launcher
    std::optional<Clock::time_point> termAt, killAt;
    std::size_t running = ranks.size();
    const auto signalAll = [&](int signal) {
        for (const auto& r : ranks)
            if (r.running)
                ::kill(r.pid, signal);
    };
    while (running > 0) {
        const auto now = Clock::now();
        if (termAt && now >= *termAt) {
            signalAll(SIGTERM);
            termAt.reset();
            killAt = now + plan.termGrace;
        }
        if (killAt && now >= *killAt) {
            signalAll(SIGKILL);
            killAt.reset();
        }
        auto wait = std::chrono::milliseconds(1000);
        for (const auto& deadline : { termAt, killAt })
            if (deadline)
                wait = std::min(wait,
                    std::max(std::chrono::milliseconds(1),
                        std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - now)));
        timespec timeout { static_cast<time_t>(wait.count() / 1000),
            static_cast<long>((wait.count() % 1000) * 1000000) };
        siginfo_t info {};
        const int signal = ::sigtimedwait(&watched, &info, &timeout);
        if (signal == SIGTERM || signal == SIGINT || signal == SIGHUP) {
            if (!stoppedBy) {
                stoppedBy = signal;
                signalAll(SIGTERM); // rank 0 has written what it finished
                termAt.reset();
                killAt = Clock::now() + plan.termGrace;
            }
            continue;
        }
        // SIGCHLD, or a timeout: reap whoever ended. Of ranks failing together, one killed by
        // a signal is named before one that exited with an error: the error is most often the
        // others noticing the dead peer.
        int failedNow = -1;
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            auto& rank = ranks[r];
            if (!rank.running)
                continue;
            int status = 0;
            if (::waitpid(rank.pid, &status, WNOHANG) != rank.pid)
                continue;
            rank.running = false;
            rank.status = status;
            --running;
            const bool failed = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
            if (failed
                && (failedNow < 0
                    || (WIFSIGNALED(status)
                        && !WIFSIGNALED(ranks[static_cast<std::size_t>(failedNow)].status))))
                failedNow = static_cast<int>(r);
        }
        if (failedNow >= 0 && firstFailure < 0 && !stoppedBy) {
            firstFailure = failedNow;
            if (running > 0 && !killAt)
                termAt = Clock::now() + plan.faultGrace;
        }
    }
    sigprocmask(SIG_SETMASK, &previous, nullptr);

    // A failure first, then a stop (Ctrl+C while the launcher waited for the others to end):
    // the failure is what the user needs to hear.
    if (stoppedBy && firstFailure < 0) {
        const std::string message = std::string("stopped by ") + signalName(stoppedBy)
            + ": every rank was stopped; finished configurations are in the results file";
        err << "gpuplan-bench: " << message << "\n";
        return 128 + stoppedBy;
    }
    if (firstFailure >= 0) {
        const auto& rank = ranks[static_cast<std::size_t>(firstFailure)];
        const std::string message = "rank " + std::to_string(firstFailure) + " (pid "
            + std::to_string(rank.pid) + ") " + describeExit(rank.status)
            + "; the other ranks were stopped, finished configurations are kept";
        err << "gpuplan-bench: " << message << "\n";
        emitProgress(plan, out, ProgressPhase::Error, message, 100.0);
        return WIFEXITED(rank.status) && WEXITSTATUS(rank.status) == 2 ? 2 : 1;
    }
    return 0;
}

} // namespace gpuplan::bench::distributed

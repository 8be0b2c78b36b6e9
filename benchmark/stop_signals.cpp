#include "benchmark/stop_signals.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace gpuplan::bench {

namespace {

// What the handler may touch: bytes prepared beforehand, nothing allocated, only
// async-signal-safe calls (access, rename, unlink, write, _exit).
constexpr std::size_t kMaxText = 4096;
struct Texts {
    char written[kMaxText]; // the results file exists: what it holds
    char nothingWritten[kMaxText]; // no configuration finished (and the earlier file put back)
};
Texts g_onTerm;
Texts g_onInt;
char g_results[kMaxText];
char g_temporary[kMaxText];
char g_earlier[kMaxText];

void copyInto(char (&to)[kMaxText], const std::string& text)
{
    const std::size_t n = std::min(text.size(), kMaxText - 1);
    std::memcpy(to, text.data(), n);
    to[n] = '\0';
}

void say(const char* text)
{
    [[maybe_unused]] const auto written = ::write(2, text, std::strlen(text));
}

extern "C" void onStopSignal(int signal)
{
    // Once per process: sa_mask blocks the other signal only in this thread, and a rank's other
    // threads (OpenMP, Gloo, CUDA) can take it at the same moment (Ctrl+C reaches the whole
    // process group as the launcher forwards SIGTERM). The second caller waits for the exit.
    static std::atomic_flag stopping = ATOMIC_FLAG_INIT;
    if (stopping.test_and_set())
        for (;;)
            ::pause();
    if (g_temporary[0] != '\0')
        ::unlink(g_temporary);
    const Texts& texts = signal == SIGINT ? g_onInt : g_onTerm;
    const bool written = g_results[0] != '\0' && ::access(g_results, F_OK) == 0;
    if (!written && g_earlier[0] != '\0')
        std::rename(g_earlier, g_results);
    say(written ? texts.written : texts.nothingWritten);
    ::_exit(128 + signal);
}

void prepare(Texts& texts, const char* signal, const StopReport& r)
{
    const std::string stopped = std::string("gpuplan-bench: stopped by ") + signal + "; ";
    if (r.resultsFile.empty()) {
        copyInto(texts.written, stopped + "nothing is saved without --out\n");
        copyInto(texts.nothingWritten, stopped + "nothing is saved without --out\n");
        return;
    }
    copyInto(texts.written,
        stopped + "the configurations finished so far are in " + r.resultsFile
            + (r.earlierFile.empty() ? std::string()
                                     : "; the earlier results are kept in " + r.earlierFile)
            + "\n");
    copyInto(texts.nothingWritten,
        stopped + "no configuration had finished, so nothing was written"
            + (r.earlierFile.empty() ? std::string()
                                     : ": the earlier results are back in " + r.resultsFile)
            + "\n");
}

} // namespace

void reportStopSignals(const StopReport& report)
{
    prepare(g_onTerm, "SIGTERM", report);
    prepare(g_onInt, "SIGINT", report);
    copyInto(g_results, report.resultsFile);
    copyInto(g_temporary, report.temporaryFile);
    copyInto(g_earlier, report.earlierFile);
    struct sigaction action { };
    action.sa_handler = onStopSignal;
    // Each blocks the other while it runs: a Ctrl+C during a SIGTERM's handler found the file
    // it had just put back and reported it a second time, as this run's.
    sigemptyset(&action.sa_mask);
    sigaddset(&action.sa_mask, SIGTERM);
    sigaddset(&action.sa_mask, SIGINT);
    for (const int signal : { SIGTERM, SIGINT })
        ::sigaction(signal, &action, nullptr);
}

} // namespace gpuplan::bench

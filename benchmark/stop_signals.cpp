#include "benchmark/stop_signals.h"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <unistd.h>

namespace gpuplan::bench {

namespace {

// What the handler may touch: bytes prepared beforehand, nothing allocated, only
// async-signal-safe calls (unlink, write, _exit).
constexpr std::size_t kMaxText = 4096;
char g_onTerm[kMaxText];
char g_onInt[kMaxText];
char g_temporary[kMaxText];

void copyInto(char (&to)[kMaxText], const std::string& text)
{
    const std::size_t n = std::min(text.size(), kMaxText - 1);
    std::memcpy(to, text.data(), n);
    to[n] = '\0';
}

extern "C" void onStopSignal(int signal)
{
    if (g_temporary[0] != '\0')
        ::unlink(g_temporary);
    const char* text = signal == SIGINT ? g_onInt : g_onTerm;
    [[maybe_unused]] const auto written = ::write(2, text, std::strlen(text));
    ::_exit(128 + signal);
}

} // namespace

void reportStopSignals(const std::string& kept, const std::string& temporaryFile)
{
    copyInto(g_onTerm, "gpuplan-bench: stopped by SIGTERM; " + kept + "\n");
    copyInto(g_onInt, "gpuplan-bench: stopped by SIGINT; " + kept + "\n");
    copyInto(g_temporary, temporaryFile);
    struct sigaction action { };
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    for (const int signal : { SIGTERM, SIGINT })
        ::sigaction(signal, &action, nullptr);
}

} // namespace gpuplan::bench

// gpuplan-bench: measures how long a model's training takes on this machine's GPU (or CPU).

#include "benchmark/cli_options.h"
#include "benchmark/commands.h"
#include "benchmark/cpu_allocator.h"
#include "benchmark/cuda_allocator.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>

int main(int argc, char** argv)
{
    using namespace gpuplan::bench;
    configureCpuAllocator(); // before the first large allocation
    configureCudaAllocator(); // before anything touches CUDA
    const CliParse parse = parseCommandLine(std::vector<std::string>(argv + 1, argv + argc));
    if (!parse.error.empty()) {
        std::cerr << "gpuplan-bench: " << parse.error << "\n" << usageText();
        return 2;
    }
    const auto command = [&parse]() {
        const CliOptions& o = parse.options;
        if (o.command == "help") {
            std::cout << usageText();
            return 0;
        }
        if (o.command == "version") {
            std::cout << "gpuplan-bench " << GPUPLAN_BENCH_VERSION << "\n";
            return 0;
        }
        if (o.command == "devices")
            return runDevicesCommand(o, std::cout, std::cerr);
        if (o.command == "describe")
            return runDescribeCommand(o, std::cout, std::cerr);
        if (o.command == "comm-probe")
            return runCommProbeCommand(o, std::cout, std::cerr);
        return runRunCommand(o, std::cout, std::cerr);
    };
    int code = 0;
    try {
        code = command();
    } catch (const std::exception& e) {
        std::cerr << "gpuplan-bench: " << e.what() << "\n";
        return 1;
    }
    // What went to stdout (a table, JSON a script reads) must have arrived: a full disk or a
    // closed stdout had exited 0 with nothing written (review).
    errno = 0;
    std::cout.flush();
    if (!std::cout) {
        std::cerr << "gpuplan-bench: cannot write the output"
                  << (errno != 0 ? std::string(": ") + std::strerror(errno) : std::string())
                  << "\n";
        return code == 0 ? 2 : code;
    }
    return code;
}

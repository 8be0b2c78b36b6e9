// gpuplan-bench: measures how long a model's training takes on this machine's GPU (or CPU).

#include "benchmark/cli_options.h"
#include "benchmark/commands.h"
#include "benchmark/cpu_allocator.h"
#include "benchmark/cuda_allocator.h"

#include <exception>
#include <iostream>

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
    try {
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
    } catch (const std::exception& e) {
        std::cerr << "gpuplan-bench: " << e.what() << "\n";
        return 1;
    }
}

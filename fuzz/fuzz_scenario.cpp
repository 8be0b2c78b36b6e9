// libFuzzer target: the scenario reader (pricing/scenario) on any bytes. A scenario that reads
// must read again, unchanged, after writeScenario (what File > Save writes).

#include "pricing/scenario/scenario_file.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace gpuplan;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const Assumptions defaults;
    const ScenarioRead read = readScenario(text, "input.gpuplan.yaml", defaults);
    if (!read.scenario)
        return 0;
    const std::string written = writeScenario(*read.scenario, read.view);
    const ScenarioRead again = readScenario(written, "saved.gpuplan.yaml", defaults);
    if (!again.scenario || writeScenario(*again.scenario, again.view) != written)
        __builtin_trap();
    return 0;
}

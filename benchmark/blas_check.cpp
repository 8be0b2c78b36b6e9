#include "benchmark/blas_check.h"

#include <fstream>
#include <sstream>

namespace gpuplan::bench {

BlasInfo classifyBlas(std::string_view maps)
{
    BlasInfo info { "bundled", "", "" };
    std::istringstream lines { std::string(maps) };
    std::string line;
    while (std::getline(lines, line)) {
        const auto slash = line.find('/');
        if (slash == std::string::npos)
            continue;
        const std::string path = line.substr(slash);
        const auto file = path.substr(path.rfind('/') + 1);
        auto found = [&](const char* name) {
            info.name = name;
            info.library = path;
        };
        if (path.find("openblas") != std::string::npos)
            found("openblas");
        else if (path.find("libmkl") != std::string::npos)
            found("mkl");
        else if (path.find("blis") != std::string::npos)
            found("blis");
        else if (file.rfind("libblas.so", 0) == 0)
            found("reference"); // Debian's netlib build lives in .../blas/libblas.so.3
        else
            continue;
        if (info.name != "reference")
            return info;
    }
    if (info.name == "reference")
        info.warning = "LibTorch runs on the reference BLAS (" + info.library
            + "): CPU timings will be about 30x slow. Install libopenblas0-pthread "
              "(sudo apt-get install libopenblas0-pthread).";
    return info;
}

BlasInfo detectBlas()
{
    std::ifstream maps("/proc/self/maps");
    std::ostringstream text;
    text << maps.rdbuf();
    return classifyBlas(text.str());
}

} // namespace gpuplan::bench

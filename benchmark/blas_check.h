#pragma once

// Which BLAS LibTorch's CPU matrix products run on. Debian's libtorch calls whatever
// libblas.so.3 the alternatives system points to; on a fresh machine that is the reference
// BLAS, about 30x slower than OpenBLAS for a tiny GPT-NeoX micro-step (measured on these
// machines: 6.1 s vs 0.20 s).

#include <string>
#include <string_view>

namespace gpuplan::bench {

struct BlasInfo {
    std::string name; // "openblas", "mkl", "blis", "reference", "bundled" (none loaded)
    std::string library; // the mapped file, "" when none
    std::string warning; // set when the CPU numbers will be misleadingly slow
};

// Reads /proc/self/maps.
BlasInfo detectBlas();
// The same for a maps text (testable).
BlasInfo classifyBlas(std::string_view maps);

} // namespace gpuplan::bench

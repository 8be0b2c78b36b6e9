// A build without the CUDA kernel (no CUDA compiler, or a CPU-only LibTorch): the reference.

#include "benchmark/kernels/selective_scan_op.h"

namespace gpuplan::bench {

torch::Tensor selectiveScan(const ScanInputs& in)
{
    return selectiveScanReference(in);
}

bool selectiveScanKernelCompiledIn()
{
    return false;
}

} // namespace gpuplan::bench

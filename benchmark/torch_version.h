#pragma once

// The LibTorch version as a compile-time test, without <torch/torch.h>: for the few torch-free
// sources that differ by version. Everything else that differs is in torch_compat.h.

#include <torch/version.h>

#define GPUPLAN_TORCH_AT_LEAST(major, minor)                                                       \
    (TORCH_VERSION_MAJOR > (major)                                                                 \
        || (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

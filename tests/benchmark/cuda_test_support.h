#pragma once

// What the CUDA kernel tests share: device copies of host tensors, whether there is a GPU to run
// on (the reason when there is not, for QSKIP), and the comparison with the fp64 reference.

#include "benchmark/kernels/cuda_check.h"

#include <QString>
#include <QTest>

#include <torch/torch.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <vector>

namespace gpuplan::bench::testing {

// Device memory holding a copy of a host tensor's storage (or room for one), freed on exit.
class DeviceCopy {
public:
    explicit DeviceCopy(const torch::Tensor& host)
        : host_(host)
    {
        GPUPLAN_CUDA_CALL(cudaMalloc(&data_, bytes()));
        GPUPLAN_CUDA_CALL(cudaMemcpy(data_, host_.data_ptr(), bytes(), cudaMemcpyHostToDevice));
    }
    ~DeviceCopy() { cudaFree(data_); }
    DeviceCopy(const DeviceCopy&) = delete;
    DeviceCopy& operator=(const DeviceCopy&) = delete;

    void* data() const { return data_; }
    void copyBack()
    {
        GPUPLAN_CUDA_CALL(cudaMemcpy(host_.data_ptr(), data_, bytes(), cudaMemcpyDeviceToHost));
    }

private:
    std::size_t bytes() const { return host_.numel() * host_.element_size(); }
    torch::Tensor host_;
    void* data_ = nullptr;
};

inline bool haveGpu(QString* why)
{
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess || count == 0) {
        *why = QString("no CUDA device (cudaGetDeviceCount: %1)")
                   .arg(status == cudaSuccess ? "0 devices" : cudaGetErrorString(status));
        return false;
    }
    return true;
}

// Each of `got` (in fp64) against the same-place `expected` (the fp64 reference): the same
// sizes, and the largest error within `tolerance` times the reference's largest magnitude. A
// failure names the result (`names`, one per tensor) and the figures.
inline void compareWithReference(const std::vector<torch::Tensor>& got,
    const std::vector<torch::Tensor>& expected, const char* const* names, double tolerance)
{
    QCOMPARE(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        QCOMPARE(got[i].sizes(), expected[i].sizes());
        const double scale = expected[i].abs().max().item<double>();
        const double error = (got[i] - expected[i]).abs().max().item<double>();
        QVERIFY2(std::isfinite(error) && error <= tolerance * scale,
            qPrintable(QString("%1: largest error %2 against largest value %3 (tolerance %4)")
                           .arg(names[i])
                           .arg(error)
                           .arg(scale)
                           .arg(tolerance)));
    }
}

} // namespace gpuplan::bench::testing

#pragma once

// What the CUDA kernel tests share: device copies of host tensors, and whether there is a GPU
// to run on (the reason when there is not, for QSKIP).

#include "benchmark/kernels/cuda_check.h"

#include <QString>

#include <torch/torch.h>

#include <cuda_runtime_api.h>

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

} // namespace gpuplan::bench::testing

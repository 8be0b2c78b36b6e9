#pragma once

// The element types our CUDA kernels take (fp32, fp16, bf16), read into and written from fp32
// registers: one rounding per stored value. Host and device, so the kernels also run on CPU
// threads in the tests (tests/benchmark/kernel_emulation.h).

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace gpuplan::bench::kernels {

__host__ __device__ __forceinline__ float toFloat(float x)
{
    return x;
}
__host__ __device__ __forceinline__ float toFloat(__half x)
{
    return __half2float(x);
}
__host__ __device__ __forceinline__ float toFloat(__nv_bfloat16 x)
{
    return __bfloat162float(x);
}

template <typename T> __host__ __device__ T fromFloat(float x);
template <> __host__ __device__ __forceinline__ float fromFloat<float>(float x)
{
    return x;
}
template <> __host__ __device__ __forceinline__ __half fromFloat<__half>(float x)
{
    return __float2half_rn(x);
}
template <> __host__ __device__ __forceinline__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float x)
{
    return __float2bfloat16_rn(x);
}

} // namespace gpuplan::bench::kernels

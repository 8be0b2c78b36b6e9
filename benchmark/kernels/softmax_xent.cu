// Launches the softmax-cross-entropy gradient kernel (softmax_xent_kernels.cuh): checks the
// shape, picks the instantiation for the logits' type, checks the launch.

#include "benchmark/kernels/cuda_check.h"
#include "benchmark/kernels/softmax_xent.h"
#include "benchmark/kernels/softmax_xent_kernels.cuh"

#include <stdexcept>
#include <string>

namespace gpuplan::bench::kernels {

namespace {

template <typename T>
void launch(const LogitRows& s, void* logits, const std::int64_t* targets, float* picked,
    cudaStream_t stream)
{
    softmaxCrossEntropyGradientKernel<T>
        <<<static_cast<unsigned>(s.rows), kSoftmaxThreads, 0, stream>>>(
            s, static_cast<T*>(logits), targets, picked);
    GPUPLAN_CUDA_CALL(cudaGetLastError());
}

} // namespace

void softmaxCrossEntropyGradient(const LogitRows& shape, void* logits, const std::int64_t* targets,
    float* picked, cudaStream_t stream)
{
    if (shape.rows < 1 || shape.vocabulary < 1)
        throw std::invalid_argument("softmax cross-entropy: empty logits ("
            + std::to_string(shape.rows) + " x " + std::to_string(shape.vocabulary) + ")");
    if (shape.vocabulary > kMostLogitVocabulary)
        throw std::invalid_argument("softmax cross-entropy: a vocabulary of "
            + std::to_string(shape.vocabulary) + " exceeds the kernel's int indexing");
    switch (shape.type) {
    case LogitType::Float32:
        return launch<float>(shape, logits, targets, picked, stream);
    case LogitType::Float16:
        return launch<__half>(shape, logits, targets, picked, stream);
    case LogitType::BFloat16:
        return launch<__nv_bfloat16>(shape, logits, targets, picked, stream);
    }
}

} // namespace gpuplan::bench::kernels

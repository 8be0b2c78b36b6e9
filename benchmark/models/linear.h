#pragma once

// The linear layer every benchmark model uses: LibTorch's Linear (same parameters, names and
// initialisation) run through at::linear, as Python's F.linear runs it. LibTorch's C++
// Linear::forward instead multiplies by weight.t() and, for inputs of more than two
// dimensions, adds the bias in a second pass over the output. That costs an extra kernel per
// layer, and the transposed view is not a leaf, so autocast casts it again in every forward
// instead of keeping one low-precision copy per step (training_setup.h). at::linear hands the
// weight itself to autocast and puts the bias in the matrix product (addmm; cuBLASLt's bias
// epilogue on CUDA).

#include <torch/torch.h>

namespace gpuplan::bench {

class LinearImpl : public torch::nn::LinearImpl {
public:
    using torch::nn::LinearImpl::LinearImpl;
    torch::Tensor forward(const torch::Tensor& input) { return torch::linear(input, weight, bias); }
};
TORCH_MODULE(Linear);

} // namespace gpuplan::bench

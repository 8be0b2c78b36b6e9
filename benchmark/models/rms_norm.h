#pragma once

// RMSNorm (Zhang and Sennrich, 2019) as Hugging Face's LlamaRMSNorm and MambaRMSNorm compute it:
// x / rms(x) in fp32, cast back to x's dtype, times a learned weight.

#include <torch/torch.h>

namespace gpuplan::bench {

class RmsNormImpl : public torch::nn::Module {
public:
    RmsNormImpl(int size, double eps);
    torch::Tensor forward(const torch::Tensor& x);

private:
    double eps_;
    torch::Tensor weight_;
};
TORCH_MODULE(RmsNorm);

} // namespace gpuplan::bench

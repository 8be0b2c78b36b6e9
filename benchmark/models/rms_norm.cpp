#include "benchmark/models/rms_norm.h"

namespace gpuplan::bench {

RmsNormImpl::RmsNormImpl(int size, double eps)
    : eps_(eps)
{
    weight_ = register_parameter("weight", torch::ones({ size }));
}

torch::Tensor RmsNormImpl::forward(const torch::Tensor& x)
{
    auto x32 = x.to(torch::kFloat);
    auto normed = x32 * torch::rsqrt(x32.pow(2).mean(-1, /*keepdim=*/true) + eps_);
    return weight_ * normed.to(x.scalar_type());
}

} // namespace gpuplan::bench

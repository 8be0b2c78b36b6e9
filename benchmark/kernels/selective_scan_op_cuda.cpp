// A build with the selective-scan CUDA kernel (selective_scan.h) and a LibTorch with CUDA: the
// kernel as a LibTorch autograd function for CUDA tensors it takes, the reference for the rest.

#include "benchmark/kernels/selective_scan.h"
#include "benchmark/kernels/selective_scan_op.h"

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

namespace gpuplan::bench {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

bool kernelTakes(at::ScalarType type)
{
    return type == torch::kFloat || type == torch::kHalf || type == torch::kBFloat16;
}

kernels::ScanType scanType(at::ScalarType type)
{
    switch (type) {
    case torch::kHalf:
        return kernels::ScanType::Float16;
    case torch::kBFloat16:
        return kernels::ScanType::BFloat16;
    default:
        return kernels::ScanType::Float32;
    }
}

// In `type`, with unit stride along the last dimension; views into wider tensors stay views.
torch::Tensor rows(const torch::Tensor& t, at::ScalarType type)
{
    auto r = t.scalar_type() == type ? t : t.to(type);
    return r.stride(-1) == 1 ? r : r.contiguous();
}

kernels::ScanOperand operand(const torch::Tensor& t)
{
    return { t.data_ptr(), t.stride(0), t.stride(1) };
}

// Indices of the saved tensors.
enum Saved { kU, kDelta, kA, kB, kC, kD, kZ, kBias, kStates };

kernels::ScanProblem problem(const std::vector<torch::Tensor>& s)
{
    kernels::ScanProblem p;
    p.batch = static_cast<int>(s[kU].size(0));
    p.length = static_cast<int>(s[kU].size(1));
    p.channels = static_cast<int>(s[kU].size(2));
    p.states = static_cast<int>(s[kA].size(1));
    p.type = scanType(s[kU].scalar_type());
    p.u = operand(s[kU]);
    p.delta = operand(s[kDelta]);
    p.B = operand(s[kB]);
    p.C = operand(s[kC]);
    p.z = operand(s[kZ]);
    p.A = s[kA].data_ptr<float>();
    p.D = s[kD].data_ptr<float>();
    p.deltaBias = s[kBias].data_ptr<float>();
    return p;
}

struct SelectiveScanFunction : public torch::autograd::Function<SelectiveScanFunction> {
    static torch::Tensor forward(AutogradContext* ctx, torch::Tensor u, torch::Tensor delta,
        torch::Tensor A, torch::Tensor B, torch::Tensor C, torch::Tensor D, torch::Tensor z,
        torch::Tensor deltaBias)
    {
        const c10::cuda::CUDAGuard guard(u.device());
        TORCH_CHECK(u.dim() == 3 && delta.sizes() == u.sizes() && z.sizes() == u.sizes(),
            "selective scan: u, delta and z must be [batch, length, channels]");
        TORCH_CHECK(A.dim() == 2 && A.size(0) == u.size(2) && B.dim() == 3 && B.size(2) == A.size(1)
                && C.sizes() == B.sizes(),
            "selective scan: A must be [channels, states], B and C [batch, length, states]");
        // The gradients go back in each input's own type.
        ctx->saved_data["delta_type"] = static_cast<std::int64_t>(delta.scalar_type());
        ctx->saved_data["B_type"] = static_cast<std::int64_t>(B.scalar_type());
        ctx->saved_data["C_type"] = static_cast<std::int64_t>(C.scalar_type());
        ctx->saved_data["z_type"] = static_cast<std::int64_t>(z.scalar_type());
        const auto type = u.scalar_type();
        std::vector<torch::Tensor> saved(kStates + 1);
        saved[kU] = rows(u, type);
        saved[kDelta] = rows(delta, type);
        saved[kB] = rows(B, type);
        saved[kC] = rows(C, type);
        saved[kZ] = rows(z, type);
        saved[kA] = A.to(torch::kFloat).contiguous();
        saved[kD] = D.to(torch::kFloat).contiguous();
        saved[kBias] = deltaBias.to(torch::kFloat).contiguous();
        const auto p = problem(saved);
        auto out = torch::empty({ p.batch, p.length, p.channels }, u.options());
        saved[kStates]
            = torch::empty({ p.batch, kernels::scanChunks(p.length), p.channels, p.states },
                u.options().dtype(torch::kFloat));
        kernels::selectiveScanForward(
            p, out.data_ptr(), saved[kStates].data_ptr<float>(), at::cuda::getCurrentCUDAStream());
        ctx->save_for_backward(saved);
        return out;
    }

    static variable_list backward(AutogradContext* ctx, variable_list gradOutputs)
    {
        const auto saved = ctx->get_saved_variables();
        const auto& u = saved[kU];
        const c10::cuda::CUDAGuard guard(u.device());
        const auto p = problem(saved);
        const auto dout = rows(gradOutputs[0], u.scalar_type());
        const auto fp32 = u.options().dtype(torch::kFloat);
        auto du = torch::empty({ p.batch, p.length, p.channels }, u.options());
        auto ddelta = torch::empty_like(du);
        auto dz = torch::empty_like(du);
        auto dB = torch::zeros({ p.batch, p.length, p.states }, fp32);
        auto dC = torch::zeros_like(dB);
        auto dA = torch::empty({ p.batch, p.channels, p.states }, fp32);
        auto dD = torch::empty({ p.batch, p.channels }, fp32);
        auto dBias = torch::empty_like(dD);
        kernels::ScanGradients g;
        g.du = du.data_ptr();
        g.ddelta = ddelta.data_ptr();
        g.dz = dz.data_ptr();
        g.dB = dB.data_ptr<float>();
        g.dC = dC.data_ptr<float>();
        g.dA = dA.data_ptr<float>();
        g.dD = dD.data_ptr<float>();
        g.ddeltaBias = dBias.data_ptr<float>();
        kernels::selectiveScanBackward(p, operand(dout), saved[kStates].data_ptr<float>(), g,
            at::cuda::getCurrentCUDAStream());
        const auto typeOf = [&](const char* key) {
            return static_cast<at::ScalarType>(ctx->saved_data[key].toInt());
        };
        return { du, ddelta.to(typeOf("delta_type")), dA.sum(0), dB.to(typeOf("B_type")),
            dC.to(typeOf("C_type")), dD.sum(0), dz.to(typeOf("z_type")), dBias.sum(0) };
    }
};

} // namespace

torch::Tensor selectiveScan(const ScanInputs& in)
{
    if (!in.u.is_cuda() || in.A.size(1) > kernels::kScanMaxStates
        || !kernelTakes(in.u.scalar_type()))
        return selectiveScanReference(in);
    return SelectiveScanFunction::apply(in.u, in.delta, in.A, in.B, in.C, in.D, in.z, in.deltaBias);
}

bool selectiveScanKernelCompiledIn()
{
    return true;
}

} // namespace gpuplan::bench

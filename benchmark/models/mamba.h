#pragma once

// Mamba (Gu and Dao, 2023), as Hugging Face's MambaForCausalLM: token embeddings, 64 (for
// 2.8B) pre-norm blocks of RMSNorm + mixer with an fp32 residual, a final RMSNorm and a head
// tied to the embeddings. The mixer projects to a sequence and a gate (in_proj), runs a causal
// depthwise convolution and SiLU over the sequence, projects it to the step's low-rank input
// and the input-dependent B and C (x_proj), expands the step (dt_proj), runs the selective scan
// (benchmark/kernels/selective_scan_op.h) and projects back (out_proj). Module names follow
// transformers' (without the "backbone." prefix; layer dots become underscores).

#include "benchmark/checkpoint.h"
#include "benchmark/model_spec.h"
#include "benchmark/models/rms_norm.h"
#include "benchmark/models/trainable_model.h"

#include <memory>

namespace gpuplan::bench {

std::shared_ptr<TrainableModel> makeMamba(const ModelSpec& spec, int sampleTokens);

class MambaMixer;

// One block on its own: the unit gpuplan-scan-bench times against the reference package.
class MambaBlock : public torch::nn::Module, public CheckpointedBlock {
public:
    explicit MambaBlock(const ModelSpec& spec);
    // hidden [batch, positions, hidden_size] -> the same shape, in fp32.
    torch::Tensor forwardBlock(const torch::Tensor& hidden) override;
    // The selective scan as a fused kernel (selectiveScan: the CUDA kernel where built) or as
    // plain LibTorch ops (selectiveScanReference), as the naive baseline runs it.
    void setFusedScan(bool fused) { fusedScan_ = fused; }

private:
    RmsNorm norm_ { nullptr };
    std::shared_ptr<MambaMixer> mixer_;
    bool fusedScan_ = true;
};

} // namespace gpuplan::bench

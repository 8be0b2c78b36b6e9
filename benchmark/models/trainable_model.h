#pragma once

// What every benchmark model offers the training loop: a loss for a batch of random data of
// the model's input shape, and the execution choices the methods switch.

#include "benchmark/checkpoint.h"

#include <torch/torch.h>

namespace gpuplan::bench {

struct Batch {
    torch::Tensor inputs; // token ids [b, positions] or images [b, 3, size, size]
    torch::Tensor targets; // next-token / masked-token / class ids; -100 = not scored
};

struct ExecutionOptions {
    bool fusedAttention = false; // scaled_dot_product_attention instead of explicit softmax
    bool checkpointing = false; // recompute each block's activations in backward
    BlockHooks* blockHooks = nullptr; // ZeRO-3's parameter gathering; not owned
    bool fusedScan = false; // Mamba: the fused selective-scan kernel instead of the reference
    bool chunkedLmHead = false; // LM head + cross-entropy in chunks (lm_loss.h)
    bool fusedRotary = false; // GPT-NeoX: query, key, value split and rotated in one node
    bool channelsLast = false; // convolutional models: weights and activations in NHWC
    bool depthwiseKernel = false; // ConvNeXt: depthwise convolutions in our kernels
};

// How every model runs its blocks: checkpointed or not, between the hooks.
inline torch::Tensor runBlock(
    CheckpointedBlock& block, const torch::Tensor& hidden, const ExecutionOptions& execution)
{
    return runBlock(block, hidden, execution.checkpointing, execution.blockHooks);
}

class TrainableModel : public torch::nn::Module {
public:
    virtual torch::Tensor loss(const Batch& batch) = 0;
    // Random inputs and targets for `microBatch` samples on `device`.
    virtual Batch makeBatch(int microBatch, const torch::Device& device) const = 0;
    // Virtual: a model whose parameters depend on an option (their memory format) converts
    // them here, before the step flattens or shards them.
    virtual void setExecution(ExecutionOptions options) { execution_ = options; }
    const ExecutionOptions& execution() const { return execution_; }
    // Frees every parameter's gradient buffer: a new set-up (the next configuration, a
    // profile) starts without the last one's memory.
    void dropGradients()
    {
        for (auto& p : parameters())
            p.mutable_grad() = torch::Tensor();
    }

protected:
    ExecutionOptions execution_;
};

} // namespace gpuplan::bench

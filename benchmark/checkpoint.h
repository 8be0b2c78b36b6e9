#pragma once

// Activation checkpointing: a block's forward runs without keeping its activations, and the
// backward pass recomputes them. Trades one extra forward per block for memory, which lets
// larger micro-batches fit.

#include <torch/torch.h>

namespace gpuplan::bench {

// A model block that can be recomputed: everything it needs besides the hidden states lives in
// the block (or the model it points to) and is unchanged between forward and backward.
class CheckpointedBlock {
public:
    virtual ~CheckpointedBlock() = default;
    virtual torch::Tensor forwardBlock(const torch::Tensor& hidden) = 0;
};

// Called around every block's forward (ZeRO-3 gathers the block's parameters before it and
// frees them after it, and arranges to gather them again before the block's backward).
class BlockHooks {
public:
    virtual ~BlockHooks() = default;
    virtual void beforeBlock(CheckpointedBlock& block) = 0;
    // Returns the output the model goes on with (the same tensor).
    virtual torch::Tensor afterBlock(CheckpointedBlock& block, torch::Tensor output) = 0;
};

// block->forwardBlock(hidden), keeping only `hidden` for the backward pass.
torch::Tensor checkpointed(CheckpointedBlock& block, const torch::Tensor& hidden);

// Runs `block` directly or checkpointed, between the hooks where there are any.
inline torch::Tensor runBlock(
    CheckpointedBlock& block, const torch::Tensor& hidden, bool checkpoint, BlockHooks* hooks)
{
    if (hooks)
        hooks->beforeBlock(block);
    auto output = checkpoint ? checkpointed(block, hidden) : block.forwardBlock(hidden);
    return hooks ? hooks->afterBlock(block, std::move(output)) : output;
}

} // namespace gpuplan::bench

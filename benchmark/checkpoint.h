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

// block->forwardBlock(hidden), keeping only `hidden` for the backward pass.
torch::Tensor checkpointed(CheckpointedBlock& block, const torch::Tensor& hidden);

// Runs `block` directly or checkpointed.
inline torch::Tensor runBlock(
    CheckpointedBlock& block, const torch::Tensor& hidden, bool checkpoint)
{
    return checkpoint ? checkpointed(block, hidden) : block.forwardBlock(hidden);
}

} // namespace gpuplan::bench

#pragma once

// Attention and rotary position embeddings shared by the transformer models.

#include <torch/torch.h>

namespace gpuplan::bench {

// softmax(q k^T / sqrt(d)) v for [batch, heads, positions, head_dim] tensors. `fused` (the free
// lunch): whichever of LibTorch's fused kernel, the spelled-out products and, where offered, our
// short-sequence kernels is fastest at this shape on this device (attention_choice.h); otherwise
// spelled out, as the naive baseline runs.
torch::Tensor attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
    bool causal, bool fused);

// The two paths themselves: LibTorch's scaled_dot_product_attention, and the products, mask and
// softmax as separate operations.
torch::Tensor attendFused(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal);
torch::Tensor attendExplicit(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal);

// cos and sin tables [positions, rotaryDims] for rotary embeddings (Su et al., 2021).
struct RotaryTables {
    torch::Tensor cos;
    torch::Tensor sin;
};
RotaryTables rotaryTables(int positions, int rotaryDims, double base, const torch::Device& device);

// `tables`, made again by rotaryTables only where they are not yet for `positions` on `device`:
// a model keeps one set and its steps reuse it (the sequence length changes only between runs).
const RotaryTables& refreshedRotaryTables(
    RotaryTables& tables, int positions, int rotaryDims, double base, const torch::Device& device);

// Rotates the first rotaryDims of each head ("rotate half" layout of GPT-NeoX and Llama);
// x is [batch, heads, positions, head_dim].
torch::Tensor applyRotary(const torch::Tensor& x, const RotaryTables& tables);

// Token-level cross entropy in fp32 over [.., classes] logits, ignoring targets of -100.
torch::Tensor crossEntropy(const torch::Tensor& logits, const torch::Tensor& targets);

} // namespace gpuplan::bench

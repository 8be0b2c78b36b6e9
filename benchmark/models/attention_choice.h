#pragma once

// Where the free lunch asks for fused attention, which attention runs: LibTorch's fused kernel
// (scaled_dot_product_attention, whose dispatcher picks flash, memory-efficient or cuDNN by
// rules) or the products and softmax spelled out, whichever is faster at the shape, measured
// once per shape on the device (timed_choice.h). The rules miss one case that matters here: in
// fp32 no fused kernel runs at TF32 speed (the memory-efficient kernel computes fp32 exactly),
// while the spelled-out products take TF32 where the free lunch allows it, as every other
// product of the model does. Both compute softmax(q k^T / sqrt(d)) v; they differ in speed, in
// memory (the spelled-out path keeps the softmax of the scores for the backward pass) and, in
// fp32, in the products' rounding (TF32 where the free lunch allows it, as for every other
// product).

#include "benchmark/timed_choice.h"

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

namespace gpuplan::bench {

enum class AttentionPath { Fused, Explicit };

using AttentionTimer = DeviceTimer;

// Above this many bytes of scores the spelled-out path is not tried: it keeps the scores and
// their softmax for the backward pass (twice this per layer), and at such sizes it loses to the
// fused kernels, which never hold them, anyway (Pythia-160M at micro-batch 64: 6.4 GB a layer).
inline constexpr std::int64_t kMostTriedScoreBytes = std::int64_t { 1 } << 30;

class AttentionChooser {
public:
    explicit AttentionChooser(AttentionTimer timer);

    // The faster path for attention over inputs like these (TimedChoice::useAlternative), timed
    // forward and backward the first time their shapes, dtype, causal flag, device, TF32
    // setting and autocast state are met; the cached choice after. Fused where the scores are
    // too large to try.
    AttentionPath choose(
        const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal);

    // The notes of the choices used at micro-batch `microBatch` (the inputs' first dimension),
    // as TimedChoice::takeNotes.
    std::vector<std::string> takeNotes(int microBatch) { return choice_.takeNotes(microBatch); }
    void forgetUse() { choice_.forgetUse(); }

    // After a step at micro-batch `microBatch` ran out of memory: the spelled-out path, where it
    // was chosen at that micro-batch, gives way to the fused kernel, which holds no scores.
    // Whether any choice changed (the step is then worth trying again).
    bool preferFusedAt(int microBatch)
    {
        return choice_.preferDefaultAt(microBatch, "ran out of memory in the step");
    }

private:
    TimedChoice choice_;
};

// The process's chooser for CUDA inputs (CUDA events); its notes come with every other timed
// choice's (takeTimedChoiceNotes). Inputs on a CPU always take the fused path: its kernel is
// the spelled-out arithmetic on LibTorch 1.13 and a flash kernel on 2.x.
AttentionPath chooseAttention(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal);
bool preferFusedAttentionAt(int microBatch);

} // namespace gpuplan::bench

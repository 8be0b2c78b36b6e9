#pragma once

// Where the free lunch asks for fused attention, which attention runs: LibTorch's fused kernel
// (scaled_dot_product_attention, whose dispatcher picks flash, memory-efficient or cuDNN by
// rules), the products and softmax spelled out, or our short-sequence kernels, whichever is
// fastest at the shape, measured once per shape on the device (timed_choice.h). The rules miss
// one case that matters here: in fp32 no fused kernel of LibTorch runs at TF32 speed (the
// memory-efficient kernel computes fp32 exactly), while the spelled-out products take TF32 where
// the free lunch allows it, as every other product of the model does, but send the scores
// through device memory; our kernels (kernels/short_attention_op.h) take TF32 products and keep
// the scores on chip, where they are offered (fp32, head size 64, at most 256 positions, TF32
// allowed: ViT-L). All compute softmax(q k^T / sqrt(d)) v; they differ in speed, in memory (the
// spelled-out path keeps the softmax of the scores for the backward pass) and, in fp32, in the
// products' rounding (TF32 where the free lunch allows it, as for every other product).
//
// Two timed choices in turn: the fused kernel against the spelled-out products, then, where
// ours are offered, the winner against ours (a case of its own for each winner), ours run only
// where their results agree with the winner's on the same inputs.

#include "benchmark/timed_choice.h"

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpuplan::bench {

enum class AttentionPath { Fused, Explicit, ShortKernel };

using AttentionTimer = DeviceTimer;

// Whether our short-sequence kernels are offered for these inputs (shortAttentionOffered; the
// tests put a stand-in).
using ShortAttentionOffer = std::function<bool(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal)>;

// How far our kernels' output and gradients may stray from the winner's, relative to the
// largest value, before they are not run (TimedChoice::Check): each TF32 path is within 3e-3 of
// fp64 (tst_bench_short_attention_kernel), so two differ by at most about 6e-3; a kernel that
// computes wrong on this device differs by the values themselves.
inline constexpr double kMostKernelDisagreement = 2e-2;

// Above this many bytes of scores the spelled-out path is not tried: it keeps the scores and
// their softmax for the backward pass (twice this per layer), and at such sizes it loses to the
// fused kernels, which never hold them, anyway (Pythia-160M at micro-batch 64: 6.4 GB a layer).
inline constexpr std::int64_t kMostTriedScoreBytes = std::int64_t { 1 } << 30;

class AttentionChooser {
public:
    explicit AttentionChooser(AttentionTimer timer, ShortAttentionOffer offered = {});

    // The fastest path for attention over inputs like these (TimedChoice::useAlternative), timed
    // forward and backward the first time their shapes, dtype, causal flag, device, TF32
    // setting and autocast state are met; the cached choice after. Of the first two, fused
    // where the scores are too large to try.
    AttentionPath choose(
        const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal);

    // The notes of the choices used at micro-batch `microBatch` (the inputs' first dimension),
    // as TimedChoice::takeNotes: for a case where ours were offered, two.
    std::vector<std::string> takeNotes(int microBatch);
    void forgetUse()
    {
        choice_.forgetUse();
        kernelChoice_.forgetUse();
    }

    // After a step at micro-batch `microBatch` ran out of memory: the spelled-out path, where it
    // was chosen at that micro-batch, gives way to the fused kernel, which holds no scores.
    // Whether any choice changed (the step is then worth trying again). Ours hold no scores
    // either and stay; against the fused kernel they are a case of their own, timed anew.
    bool preferFusedAt(int microBatch)
    {
        return choice_.preferDefaultAt(microBatch, "ran out of memory in the step");
    }

private:
    TimedChoice choice_; // fused (default) or spelled out
    TimedChoice kernelChoice_; // that winner (default) or ours
    ShortAttentionOffer offered_;
};

// The process's chooser for CUDA inputs (CUDA events; ours offered by shortAttentionOffered); its
// notes come with every other timed choice's (takeTimedChoiceNotes). Inputs on a CPU always take
// the fused path: its kernel is the spelled-out arithmetic on LibTorch 1.13 and a flash kernel on
// 2.x.
AttentionPath chooseAttention(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal);
bool preferFusedAttentionAt(int microBatch);

} // namespace gpuplan::bench

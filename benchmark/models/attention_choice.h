#pragma once

// Where the free lunch asks for fused attention, which attention runs: LibTorch's fused kernel
// (scaled_dot_product_attention, whose dispatcher picks flash, memory-efficient or cuDNN by
// rules) or the products and softmax spelled out, whichever is faster at the shape, measured
// once per shape on the device. The rules miss one case that matters here: in fp32 no fused
// kernel runs at TF32 speed (the memory-efficient kernel computes fp32 exactly), while the
// spelled-out products take TF32 where the free lunch allows it, as every other product of the
// model does. Both compute softmax(q k^T / sqrt(d)) v; they differ in speed, in memory (the
// spelled-out path keeps the softmax of the scores for the backward pass) and, in fp32, in the
// products' rounding (TF32 where the free lunch allows it, as for every other product).

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gpuplan::bench {

enum class AttentionPath { Fused, Explicit };

// Seconds `work` takes on `device`, the device finished with it.
using AttentionTimer
    = std::function<double(const torch::Device& device, const std::function<void()>& work)>;

// Above this many bytes of scores the spelled-out path is not tried: it keeps the scores and
// their softmax for the backward pass (twice this per layer), and at such sizes it loses to the
// fused kernels, which never hold them, anyway (Pythia-160M at micro-batch 64: 6.4 GB a layer).
inline constexpr std::int64_t kMostTriedScoreBytes = std::int64_t { 1 } << 30;

class AttentionChooser {
public:
    explicit AttentionChooser(AttentionTimer timer);

    // The faster path for attention over inputs like these, timed forward and backward (one
    // untimed run, then the median of three) the first time their shapes, dtype, causal flag,
    // device, TF32 setting and autocast state are met; the cached choice after. Not timed, and
    // not cached, while the device's stream is being captured into a CUDA graph, or when called
    // from inside a trial (Fused). A trial that runs out of memory chooses Fused.
    AttentionPath choose(
        const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal);

    // One note per choice used since the last call at micro-batch `microBatch` (the inputs'
    // first dimension: a search's other micro-batches are left out), saying what was chosen and
    // the times it was chosen by. Then forgets which choices were used, not the choices.
    std::vector<std::string> takeNotes(int microBatch);
    void forgetUse(); // which choices were used, as takeNotes does

    // After a step at micro-batch `microBatch` ran out of memory: the spelled-out path, where it
    // was chosen at that micro-batch, gives way to the fused kernel, which holds no scores.
    // Whether any choice changed (the step is then worth trying again).
    bool preferFusedAt(int microBatch);

private:
    struct Key {
        std::vector<std::int64_t> sizes; // q's, then k's
        c10::ScalarType dtype;
        bool causal;
        int device;
        bool tf32;
        bool autocast;
        c10::ScalarType autocastDtype;
        auto operator<=>(const Key&) const = default;
    };
    struct Decision {
        AttentionPath path = AttentionPath::Fused;
        std::optional<double> fusedSeconds, explicitSeconds;
        std::string why; // when not timed, or overruled: why
    };
    Key keyOf(const torch::Tensor& q, const torch::Tensor& k, bool causal) const;
    Decision decide(
        const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal);
    double trial(AttentionPath path, const torch::Tensor& q, const torch::Tensor& k,
        const torch::Tensor& v, bool causal);

    AttentionTimer timer_;
    std::mutex mutex_;
    std::map<Key, Decision> decisions_;
    std::set<Key> used_;
};

// The process's chooser for CUDA inputs (CUDA events). Inputs on a CPU always take the fused
// path: its kernel is the spelled-out arithmetic on LibTorch 1.13 and a flash kernel on 2.x.
AttentionPath chooseAttention(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal);
std::vector<std::string> takeAttentionNotes(int microBatch);
void forgetAttentionUse();
bool preferFusedAttentionAt(int microBatch);

} // namespace gpuplan::bench

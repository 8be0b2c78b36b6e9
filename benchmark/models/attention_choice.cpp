#include "benchmark/models/attention_choice.h"

#include "benchmark/kernels/short_attention_op.h"
#include "benchmark/models/attention.h"
#include "benchmark/torch_compat.h"

#include <algorithm>

namespace gpuplan::bench {

namespace {

// Everything the answer depends on: q's and k's sizes, dtype, device, TF32 setting, autocast
// state, then the causal flag (last, so that a shape's causal case follows its other one).
ChoiceCase caseOf(const torch::Tensor& q, const torch::Tensor& k, bool causal)
{
    const auto autocast = compat::autocastState(q.device().type());
    const bool tf32 = at::globalContext().allowTF32CuBLAS();
    const std::string type = c10::toString(autocast.enabled ? autocast.dtype : q.scalar_type());
    ChoiceCase c;
    const std::size_t all = std::max(q.sizes().size(), k.sizes().size());
    c.key = sizesText(q.sizes(), all) + "|" + sizesText(k.sizes(), all) + "|"
        + c10::toString(q.scalar_type()) + "|" + q.device().str() + "|tf32=" + std::to_string(tf32)
        + "|autocast=" + (autocast.enabled ? type : "off") + "|causal=" + std::to_string(causal);
    c.label = "attention " + sizesText(q.sizes()) + " " + type + (causal ? " causal" : "");
    c.microBatch = q.dim() > 0 ? static_cast<int>(q.size(0)) : 0;
    c.device = q.device();
    return c;
}

} // namespace

AttentionChooser::AttentionChooser(AttentionTimer timer, ShortAttentionOffer offered)
    : choice_(timer)
    , kernelChoice_(timer)
    , offered_(offered ? std::move(offered) : ShortAttentionOffer(shortAttentionOffered))
{
}

std::vector<std::string> AttentionChooser::takeNotes(int microBatch)
{
    auto notes = choice_.takeNotes(microBatch);
    for (auto& note : kernelChoice_.takeNotes(microBatch))
        notes.push_back(std::move(note));
    return notes;
}

AttentionPath AttentionChooser::choose(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal)
{
    const ChoiceCase c = caseOf(q, k, causal);
    const ChoicePaths paths { "fused kernel", "fused",
        std::string("spelled-out products")
            + (at::globalContext().allowTF32CuBLAS() ? " (TF32 allowed)" : ""),
        "spelled out" };
    const std::int64_t scoreBytes
        = q.numel() / q.size(-1) * k.size(-2) * static_cast<std::int64_t>(q.element_size());
    const std::string refusal = scoreBytes > kMostTriedScoreBytes
        ? "spelled out, its scores would take " + std::to_string(scoreBytes >> 20) + " MiB a layer"
        : "";
    const auto prepare = [&](bool spelledOut) {
        return forwardBackwardOnCopies({ q, k, v }, [=](const std::vector<torch::Tensor>& in) {
            return spelledOut ? attendExplicit(in[0], in[1], in[2], causal)
                              : attendFused(in[0], in[1], in[2], causal);
        });
    };
    const bool spelledOut = choice_.useAlternative(c, paths, refusal, prepare);
    const AttentionPath winner = spelledOut ? AttentionPath::Explicit : AttentionPath::Fused;
    if (!offered_(q, k, v, causal))
        return winner;
    ChoiceCase against = c;
    against.key += std::string("|against=") + (spelledOut ? "spelled out" : "fused");
    const ChoicePaths kernelPaths { spelledOut ? paths.alternativeName : paths.defaultName,
        spelledOut ? paths.alternativeShort : paths.defaultShort, "our TF32 attention kernels",
        "ours" };
    const PathForward theWinner = [=](const std::vector<torch::Tensor>& in) {
        return spelledOut ? attendExplicit(in[0], in[1], in[2], causal)
                          : attendFused(in[0], in[1], in[2], causal);
    };
    const PathForward ours
        = [](const std::vector<torch::Tensor>& in) { return shortAttention(in[0], in[1], in[2]); };
    const auto prepareKernel = [&](bool kernel) {
        return forwardBackwardOnCopies({ q, k, v }, kernel ? ours : theWinner);
    };
    const auto check = [&] {
        return disagreementOnCopies({ q, k, v }, theWinner, ours, kMostKernelDisagreement);
    };
    return kernelChoice_.useAlternative(against, kernelPaths, "", prepareKernel, check)
        ? AttentionPath::ShortKernel
        : winner;
}

namespace {

AttentionChooser& cudaChooser()
{
    static AttentionChooser chooser(cudaEventTimer());
    return chooser;
}

} // namespace

AttentionPath chooseAttention(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal)
{
    if (!q.device().is_cuda())
        return AttentionPath::Fused;
    return cudaChooser().choose(q, k, v, causal);
}

bool preferFusedAttentionAt(int microBatch)
{
    return cudaChooser().preferFusedAt(microBatch);
}

} // namespace gpuplan::bench

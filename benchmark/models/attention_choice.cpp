#include "benchmark/models/attention_choice.h"

#include "benchmark/cuda_backend.h"
#include "benchmark/models/attention.h"
#include "benchmark/out_of_memory.h"
#include "benchmark/statistics.h"
#include "benchmark/torch_compat.h"

#include <cstdio>

namespace gpuplan::bench {

namespace {

constexpr int kTimedTrials = 3; // the median of three: one disturbed run does not decide

// Set while this thread runs a trial: attention met inside it (none today) takes the fused path
// untimed instead of waiting for the lock this thread's own choose() released.
thread_local bool inTrial = false;

std::string shapeText(const std::vector<std::int64_t>& sizes)
{
    std::string text;
    for (std::size_t i = 0; i < 4 && i < sizes.size(); ++i)
        text.append(i ? "x" : "").append(std::to_string(sizes[i]));
    return text;
}

std::string milliseconds(double seconds)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3f ms", seconds * 1e3);
    return text;
}

} // namespace

AttentionChooser::AttentionChooser(AttentionTimer timer)
    : timer_(std::move(timer))
{
}

AttentionChooser::Key AttentionChooser::keyOf(
    const torch::Tensor& q, const torch::Tensor& k, bool causal) const
{
    Key key;
    key.sizes.assign(q.sizes().begin(), q.sizes().end());
    key.sizes.insert(key.sizes.end(), k.sizes().begin(), k.sizes().end());
    key.dtype = q.scalar_type();
    key.causal = causal;
    key.device = q.device().has_index() ? q.device().index() : 0;
    key.tf32 = at::globalContext().allowTF32CuBLAS();
    const auto autocast = compat::autocastState(q.device().type());
    key.autocast = autocast.enabled;
    key.autocastDtype = autocast.enabled ? autocast.dtype : c10::ScalarType::Undefined;
    return key;
}

// Forward and backward of one path on detached copies of the inputs, so that the trial leaves
// no trace in the model's graph or gradients; with gradients on even where the caller runs
// without (a checkpointed block's forward).
double AttentionChooser::trial(AttentionPath path, const torch::Tensor& q, const torch::Tensor& k,
    const torch::Tensor& v, bool causal)
{
    torch::AutoGradMode gradients(true);
    const auto leaf = [](const torch::Tensor& t) { return t.detach().clone().requires_grad_(); };
    const auto qa = leaf(q), ka = leaf(k), va = leaf(v);
    const auto run = [&](const torch::Tensor& outputGradient) {
        auto out = path == AttentionPath::Fused ? attendFused(qa, ka, va, causal)
                                                : attendExplicit(qa, ka, va, causal);
        if (outputGradient.defined())
            out.backward(outputGradient);
        return out;
    };
    // The forward's own output as the incoming gradient: realistic values, and no draw from the
    // device's random generator, whose later draws (the batches) must not depend on a trial.
    const auto outputGradient = run(torch::Tensor()).detach();
    run(outputGradient); // untimed: first-use allocations and kernel choices
    std::vector<double> seconds;
    for (int i = 0; i < kTimedTrials; ++i)
        seconds.push_back(timer_(q.device(), [&] { run(outputGradient); }));
    return spreadOf(seconds).median;
}

AttentionChooser::Decision AttentionChooser::decide(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal)
{
    Decision d;
    const std::int64_t scoreBytes
        = q.numel() / q.size(-1) * k.size(-2) * static_cast<std::int64_t>(q.element_size());
    if (scoreBytes > kMostTriedScoreBytes) {
        d.why = "spelled out, its scores would take " + std::to_string(scoreBytes >> 20)
            + " MiB a layer";
        return d;
    }
    try {
        d.fusedSeconds = trial(AttentionPath::Fused, q, k, v, causal);
        d.explicitSeconds = trial(AttentionPath::Explicit, q, k, v, causal);
    } catch (const std::exception& e) {
        if (!isOutOfMemory(e))
            throw;
        d.fusedSeconds.reset();
        d.explicitSeconds.reset();
        d.why = "the trial ran out of memory";
        return d;
    }
    d.path = *d.explicitSeconds < *d.fusedSeconds ? AttentionPath::Explicit : AttentionPath::Fused;
    return d;
}

AttentionPath AttentionChooser::choose(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal)
{
    if (inTrial)
        return AttentionPath::Fused;
    const Key key = keyOf(q, k, causal);
    {
        std::lock_guard lock(mutex_);
        if (const auto found = decisions_.find(key); found != decisions_.end()) {
            used_.insert(key);
            return found->second.path;
        }
    }
    // A trial synchronises the device, which a stream being captured forbids; the capture
    // follows eager warm-up steps at the same shapes, so this is only a safeguard.
    if (q.device().is_cuda() && cuda::streamIsCapturing(key.device))
        return AttentionPath::Fused;
    // Timed without the lock: a trial runs autograd, whose threads must never wait for it.
    struct TrialScope {
        TrialScope() { inTrial = true; }
        ~TrialScope() { inTrial = false; }
    };
    Decision decision;
    {
        const TrialScope scope;
        decision = decide(q, k, v, causal);
    }
    std::lock_guard lock(mutex_);
    const auto found = decisions_.emplace(key, std::move(decision)).first;
    used_.insert(key);
    return found->second.path;
}

std::vector<std::string> AttentionChooser::takeNotes(int microBatch)
{
    std::lock_guard lock(mutex_);
    std::vector<std::string> notes;
    for (const Key& key : used_) {
        if (key.sizes.empty() || key.sizes.front() != microBatch)
            continue;
        const Decision& d = decisions_.at(key);
        std::string note = "attention " + shapeText(key.sizes) + " "
            + std::string(c10::toString(key.autocast ? key.autocastDtype : key.dtype))
            + (key.causal ? " causal" : "") + ": ";
        if (!d.fusedSeconds || !d.explicitSeconds || !d.why.empty())
            note += "fused kernel (" + d.why + ")";
        else if (d.path == AttentionPath::Explicit)
            note += "spelled-out products" + std::string(key.tf32 ? " (TF32 allowed)" : "") + ", "
                + milliseconds(*d.explicitSeconds) + " forward+backward against "
                + milliseconds(*d.fusedSeconds) + " fused";
        else
            note += "fused kernel, " + milliseconds(*d.fusedSeconds) + " forward+backward against "
                + milliseconds(*d.explicitSeconds) + " spelled out";
        notes.push_back(note);
    }
    used_.clear();
    return notes;
}

void AttentionChooser::forgetUse()
{
    std::lock_guard lock(mutex_);
    used_.clear();
}

bool AttentionChooser::preferFusedAt(int microBatch)
{
    std::lock_guard lock(mutex_);
    bool changed = false;
    for (auto& [key, d] : decisions_)
        if (key.sizes.front() == microBatch && d.path == AttentionPath::Explicit) {
            d.path = AttentionPath::Fused;
            d.why = "the spelled-out path, " + milliseconds(*d.explicitSeconds) + " against "
                + milliseconds(*d.fusedSeconds) + " fused, ran out of memory in the step";
            changed = true;
        }
    return changed;
}

namespace {

AttentionChooser& cudaChooser()
{
    static AttentionChooser chooser([](const torch::Device& device, const auto& work) {
        return cuda::timeWithEvents(device.has_index() ? device.index() : 0, work);
    });
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

std::vector<std::string> takeAttentionNotes(int microBatch)
{
    return cudaChooser().takeNotes(microBatch);
}

void forgetAttentionUse()
{
    cudaChooser().forgetUse();
}

bool preferFusedAttentionAt(int microBatch)
{
    return cudaChooser().preferFusedAt(microBatch);
}

} // namespace gpuplan::bench

#include "benchmark/timed_choice.h"

#include "benchmark/cuda_backend.h"
#include "benchmark/out_of_memory.h"
#include "benchmark/statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpuplan::bench {

namespace {

constexpr int kTimedTrials = 3; // the median of three: one disturbed run does not decide

// Set while this thread runs a trial: a choice met inside it takes the default untimed instead
// of waiting for a lock this thread's own useAlternative() released.
thread_local bool inTrial = false;

struct Registry {
    std::mutex mutex;
    std::vector<TimedChoice*> choices;
};

Registry& registry()
{
    static Registry r;
    return r;
}

std::string milliseconds(double seconds)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3f ms", seconds * 1e3);
    return text;
}

std::string firstLine(const std::string& text)
{
    return text.substr(0, text.find('\n'));
}

int deviceIndex(const torch::Device& device)
{
    return device.has_index() ? device.index() : 0;
}

} // namespace

TimedChoice::TimedChoice(DeviceTimer timer)
    : timer_(std::move(timer))
{
    std::lock_guard lock(registry().mutex);
    registry().choices.push_back(this);
}

TimedChoice::~TimedChoice()
{
    std::lock_guard lock(registry().mutex);
    auto& choices = registry().choices;
    choices.erase(std::remove(choices.begin(), choices.end(), this), choices.end());
}

// With gradients on even where the caller runs without (a checkpointed block's forward).
double TimedChoice::trial(const Prepare& prepare, bool alternative, const torch::Device& device)
{
    torch::AutoGradMode gradients(true);
    const auto run = prepare(alternative);
    run(); // untimed: first-use allocations and kernel choices
    std::vector<double> seconds;
    for (int i = 0; i < kTimedTrials; ++i)
        seconds.push_back(timer_(device, run));
    return spreadOf(seconds).median;
}

TimedChoice::Decision TimedChoice::decide(const ChoiceCase& c, const ChoicePaths& paths,
    const std::string& refusal, const Prepare& prepare, const Check& check)
{
    Decision d { c, paths, false, {}, {}, refusal };
    if (!refusal.empty())
        return d;
    if (check) {
        // A failure here is the check's: the alternative is not run, whatever went wrong (a
        // kernel of ours that cannot launch on this device throws), and the note says what.
        std::string why;
        try {
            why = check();
        } catch (const std::exception& e) {
            why = isOutOfMemory(e) ? "its check ran out of memory"
                                   : "its check failed: " + firstLine(e.what());
        }
        if (!why.empty()) {
            d.why = paths.alternativeName + " not run: " + why;
            return d;
        }
    }
    try {
        d.defaultSeconds = trial(prepare, false, c.device);
        d.alternativeSeconds = trial(prepare, true, c.device);
    } catch (const std::exception& e) {
        if (!isOutOfMemory(e))
            throw;
        d.defaultSeconds.reset();
        d.alternativeSeconds.reset();
        d.why = "the trial ran out of memory";
        return d;
    }
    d.alternative = *d.alternativeSeconds < *d.defaultSeconds;
    return d;
}

bool TimedChoice::useAlternative(const ChoiceCase& c, const ChoicePaths& paths,
    const std::string& refusal, const Prepare& prepare, const Check& check)
{
    if (inTrial)
        return false;
    {
        std::lock_guard lock(mutex_);
        if (const auto found = decisions_.find(c.key); found != decisions_.end()) {
            used_.insert(c.key);
            return found->second.alternative;
        }
    }
    // A trial synchronises the device, which a stream being captured forbids; the capture
    // follows eager warm-up steps at the same shapes, so this is only a safeguard.
    if (c.device.is_cuda() && cuda::streamIsCapturing(deviceIndex(c.device)))
        return false;
    // Timed without the lock: a trial runs autograd, whose threads must never wait for it.
    struct TrialScope {
        TrialScope() { inTrial = true; }
        ~TrialScope() { inTrial = false; }
    };
    Decision decision;
    {
        const TrialScope scope;
        decision = decide(c, paths, refusal, prepare, check);
    }
    std::lock_guard lock(mutex_);
    const auto found = decisions_.emplace(c.key, std::move(decision)).first;
    used_.insert(c.key);
    return found->second.alternative;
}

std::string TimedChoice::noteOf(const Decision& d)
{
    const std::string head = d.c.label + ": ";
    if (!d.defaultSeconds || !d.alternativeSeconds || !d.why.empty())
        return head + d.paths.defaultName + " (" + d.why + ")";
    if (d.alternative)
        return head + d.paths.alternativeName + ", " + milliseconds(*d.alternativeSeconds)
            + " forward+backward against " + milliseconds(*d.defaultSeconds) + " "
            + d.paths.defaultShort;
    return head + d.paths.defaultName + ", " + milliseconds(*d.defaultSeconds)
        + " forward+backward against " + milliseconds(*d.alternativeSeconds) + " "
        + d.paths.alternativeShort;
}

std::vector<std::string> TimedChoice::takeNotes(int microBatch)
{
    std::lock_guard lock(mutex_);
    std::vector<std::string> notes;
    for (const auto& key : used_) {
        const Decision& d = decisions_.at(key);
        if (d.c.microBatch == microBatch)
            notes.push_back(noteOf(d));
    }
    used_.clear();
    return notes;
}

void TimedChoice::forgetUse()
{
    std::lock_guard lock(mutex_);
    used_.clear();
}

bool TimedChoice::preferDefaultAt(int microBatch, const std::string& why)
{
    std::lock_guard lock(mutex_);
    bool changed = false;
    for (auto& [key, d] : decisions_)
        if (d.c.microBatch == microBatch && d.alternative) {
            d.alternative = false;
            d.why = d.paths.alternativeName + ", " + milliseconds(*d.alternativeSeconds)
                + " against " + milliseconds(*d.defaultSeconds) + " " + d.paths.defaultShort + ", "
                + why;
            changed = true;
        }
    return changed;
}

void forgetTimedChoiceUse()
{
    std::lock_guard lock(registry().mutex);
    for (auto* choice : registry().choices)
        choice->forgetUse();
}

std::vector<std::string> takeTimedChoiceNotes(int microBatch)
{
    std::lock_guard lock(registry().mutex);
    std::vector<std::string> notes;
    for (auto* choice : registry().choices)
        for (auto& note : choice->takeNotes(microBatch))
            notes.push_back(std::move(note));
    return notes;
}

namespace {

// Detached copies of `inputs` as leaves with gradients on (undefined ones stay undefined).
std::vector<torch::Tensor> leavesOf(const std::vector<torch::Tensor>& inputs)
{
    std::vector<torch::Tensor> leaves;
    for (const auto& t : inputs)
        leaves.push_back(t.defined() ? t.detach().clone().requires_grad_() : torch::Tensor());
    return leaves;
}

// The output, then each input's gradient, of one forward and backward on copies; the incoming
// gradient `outputGradient`, or the output itself where that is undefined.
std::vector<torch::Tensor> resultsOnCopies(const std::vector<torch::Tensor>& inputs,
    const PathForward& forward, const torch::Tensor& outputGradient)
{
    const auto leaves = leavesOf(inputs);
    const auto out = forward(leaves);
    out.backward(outputGradient.defined() ? outputGradient : out.detach());
    std::vector<torch::Tensor> results { out.detach() };
    for (const auto& leaf : leaves)
        results.push_back(leaf.defined() ? leaf.grad() : torch::Tensor());
    return results;
}

std::string shortNumber(double x)
{
    if (std::isnan(x))
        return "NaN"; // not printf's "-nan"
    char text[32];
    std::snprintf(text, sizeof text, "%.2g", x);
    return text;
}

} // namespace

std::string disagreementOnCopies(const std::vector<torch::Tensor>& inputs,
    const PathForward& defaultForward, const PathForward& alternativeForward, double tolerance)
{
    torch::AutoGradMode gradients(true); // also where the caller runs without
    const auto want = resultsOnCopies(inputs, defaultForward, {});
    auto got = resultsOnCopies(inputs, alternativeForward, want.front());
    for (std::size_t i = 0; i < want.size(); ++i) {
        const std::string what
            = i == 0 ? "its output" : "its gradient of input " + std::to_string(i);
        if (!want[i].defined())
            continue; // an undefined input: no gradient on either side
        if (!got[i].defined())
            return what + " is missing";
        // The largest magnitude without a temporary the size of the tensor, and the difference
        // in place of the alternative's own copy: the check runs where memory is short.
        const double largest
            = std::max(want[i].max().item<double>(), -want[i].min().item<double>());
        if (!std::isfinite(largest))
            continue; // the default's own result is not finite: nothing to measure against
        const double off = got[i].sub_(want[i]).abs_().max().item<double>();
        if (off <= tolerance * largest)
            continue;
        return what + " differs by " + shortNumber(largest > 0 ? off / largest : off)
            + (largest > 0 ? " of the largest value, " : " where all are 0, ")
            + shortNumber(tolerance) + " allowed";
    }
    return "";
}

std::function<void()> forwardBackwardOnCopies(
    const std::vector<torch::Tensor>& inputs, const PathForward& forward)
{
    const auto leaves = leavesOf(inputs);
    const auto outputGradient = forward(leaves).detach();
    return [leaves, forward, outputGradient] { forward(leaves).backward(outputGradient); };
}

std::string sizesText(c10::IntArrayRef sizes, std::size_t most)
{
    std::string text;
    for (std::size_t i = 0; i < most && i < sizes.size(); ++i)
        text.append(i ? "x" : "").append(std::to_string(sizes[i]));
    return text;
}

DeviceTimer cudaEventTimer()
{
    return [](const torch::Device& device, const std::function<void()>& work) {
        return cuda::timeWithEvents(deviceIndex(device), work);
    };
}

} // namespace gpuplan::bench

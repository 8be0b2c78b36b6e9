#pragma once

// A choice between two ways of computing the same function on a GPU, a default and an
// alternative, made by timing both the first time a case (shapes, types, settings) is met and
// kept for the run: attention as LibTorch's fused kernel or as spelled-out products
// (models/attention_choice.h), the depthwise convolution as LibTorch's or as our kernels
// (kernels/depthwise_conv_op.h). Rules cannot tell which wins at every shape on every GPU; a
// forward and backward of each, on copies of the real inputs, can. Each configuration's notes
// say what was chosen and by what times.

#include <torch/torch.h>

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gpuplan::bench {

// Seconds `work` takes on `device`, the device finished with it.
using DeviceTimer
    = std::function<double(const torch::Device& device, const std::function<void()>& work)>;

struct ChoiceCase {
    std::string key; // everything the answer depends on: shapes, types, settings, device
    std::string label; // how the notes name the case: "attention 128x16x197x64 Float"
    int microBatch = 0; // notes are taken per micro-batch
    torch::Device device = torch::kCPU;
};

struct ChoicePaths { // how the notes name the two paths
    std::string defaultName; // "fused kernel"
    std::string defaultShort; // "fused"
    std::string alternativeName; // "spelled-out products (TF32 allowed)"
    std::string alternativeShort; // "spelled out"
};

class TimedChoice {
public:
    // prepare(alternative): one path's trial made ready (its own copies of the inputs, with
    // gradients on), as a closure that runs its forward and backward once.
    using Prepare = std::function<std::function<void()>(bool alternative)>;
    // Run once, before a new case's trials: why the alternative must not run although it may be
    // faster (its results stray from the default's: disagreementOnCopies), or empty. One that
    // throws keeps the default too, its message the reason (out of memory included).
    using Check = std::function<std::string()>;

    explicit TimedChoice(DeviceTimer timer);
    ~TimedChoice();
    TimedChoice(const TimedChoice&) = delete;
    TimedChoice& operator=(const TimedChoice&) = delete;

    // Whether the alternative runs for this case. The first time its key is met both paths are
    // timed (each one untimed run, then the median of three) and the faster is kept; with a
    // `refusal` the default is kept untimed, noted with that reason, and a trial that runs out
    // of memory keeps it too. With a `check` that gives a reason, the default is kept untimed,
    // noted with the alternative's name and that reason: a kernel of ours that computes wrong on
    // this device is never timed, let alone chosen. Not timed, and nothing kept (the default
    // runs), while the device's stream is being captured into a CUDA graph or inside another
    // trial on this thread.
    bool useAlternative(const ChoiceCase& c, const ChoicePaths& paths, const std::string& refusal,
        const Prepare& prepare, const Check& check = {});

    // One note per case used since the last call at micro-batch `microBatch`, saying what was
    // chosen and the times it was chosen by. Then forgets which cases were used, not the
    // choices.
    std::vector<std::string> takeNotes(int microBatch);
    void forgetUse(); // which cases were used, as takeNotes does

    // After a step at `microBatch` ran out of memory: the alternative, where it was chosen for a
    // case at that micro-batch, gives way to the default, noted with `why`. Whether any choice
    // changed (the step is then worth trying again).
    bool preferDefaultAt(int microBatch, const std::string& why);

private:
    struct Decision {
        ChoiceCase c;
        ChoicePaths paths;
        bool alternative = false;
        std::optional<double> defaultSeconds, alternativeSeconds;
        std::string why; // when not timed, or overruled: why
    };
    Decision decide(const ChoiceCase& c, const ChoicePaths& paths, const std::string& refusal,
        const Prepare& prepare, const Check& check);
    double trial(const Prepare& prepare, bool alternative, const torch::Device& device);
    static std::string noteOf(const Decision& d);

    DeviceTimer timer_;
    std::mutex mutex_;
    std::map<std::string, Decision> decisions_;
    std::set<std::string> used_;
};

// One path's forward on its inputs (in order), for the trials and checks below.
using PathForward = std::function<torch::Tensor(const std::vector<torch::Tensor>&)>;

// A trial of one path for TimedChoice::Prepare: detached copies of `inputs` (undefined ones stay
// undefined) as leaves, so that the trial leaves no trace in the model's graph or gradients, and
// a closure that runs `forward` on them and its backward with the forward's own output as the
// incoming gradient: realistic values, and no draw from the device's random generator, whose
// later draws (the batches) must not depend on a trial. Runs the forward once, to get that
// output.
std::function<void()> forwardBackwardOnCopies(
    const std::vector<torch::Tensor>& inputs, const PathForward& forward);

// A TimedChoice::Check of two paths: each runs forward and backward on its own copies of
// `inputs` (gradients on, whatever the caller's mode), the default's output as both paths'
// incoming gradient; empty where the output and each defined input's gradient agree with the
// default's within `tolerance` of the default's largest magnitude, else which one strays and by
// how much ("its gradient of input 2 differs by 0.25 of the largest value, 0.01 allowed"; inputs
// counted from 1) or is missing. The alternative's NaN strays; a result where the default's own
// is not finite is not judged.
std::string disagreementOnCopies(const std::vector<torch::Tensor>& inputs,
    const PathForward& defaultForward, const PathForward& alternativeForward, double tolerance);

// "128x16x197x64": the first `most` sizes, for keys and labels.
std::string sizesText(c10::IntArrayRef sizes, std::size_t most = 4);

// Every TimedChoice of the process, in the order they were made: what the runner asks for each
// configuration.
void forgetTimedChoiceUse();
std::vector<std::string> takeTimedChoiceNotes(int microBatch);

// The CUDA events timer of the process's choices (cuda_backend.h).
DeviceTimer cudaEventTimer();

} // namespace gpuplan::bench

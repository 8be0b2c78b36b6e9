#pragma once

// Where a training step's time goes: the events a profiler recorded while the step ran (GPU
// kernels, or CPU operators), grouped by the kind of work they do, so that a shortfall in implied
// utilisation can be traced to its cause (matrix products running slowly, or memory-bound work
// between them). No LibTorch here: op_profiler.h records the events, this file sorts them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::bench {

// One profiler event. GPU kernels do not nest; CPU operators do (aten::linear calls aten::addmm),
// so each CPU event is charged only its self time, what its children on the same thread leave.
struct ProfiledEvent {
    std::string name; // the kernel's or the operator's name
    bool onCpu = false; // a CPU operator (nests), else a device kernel or transfer
    std::uint64_t thread = 0; // CPU events: the recording thread (nesting is per thread)
    std::int64_t startNs = 0;
    std::int64_t durationNs = 0;
};

// The kinds of work a step's time is split into, in the order a report lists them.
enum class WorkKind {
    MatrixProducts, // GEMMs: the work the implied utilisation counts
    Attention, // fused attention kernels (their products and softmax in one)
    Convolution,
    OurKernels, // gpuplan's own CUDA kernels (rotary split, selective scan)
    Normalization, // layer norm, RMS norm, batch norm
    SoftmaxAndLoss, // softmax, log-softmax, cross-entropy
    Elementwise, // activations, residual adds, scaling, masks
    CopiesAndCasts, // copies, casts, concatenations, fills, transfers
    Reductions, // sums and norms outside the above
    Indexing, // embeddings, gathers, scatters
    Optimizer, // the parameter update and its checks
    Communication, // collectives
    Framework, // CPU only: autograd and dispatch bookkeeping around the operators
    Other,
};

std::string_view toString(WorkKind kind);

// The kind of work an event does, from its name: CUDA kernel names (cuBLAS, cuDNN, ATen's
// templated kernels, ours) and ATen operator names both. First matching rule wins.
WorkKind kindOf(std::string_view eventName);

// Each event's time less the time of the events nested in it on the same thread: GPU kernels,
// which do not nest, keep their whole duration. Same order as `events`.
std::vector<std::int64_t> selfTimesNs(const std::vector<ProfiledEvent>& events);

struct KindTime {
    WorkKind kind = WorkKind::Other;
    double seconds = 0.0; // per optimizer step
    double share = 0.0; // of the step's profiled time (the sum over kinds)
};

struct EventTime {
    std::string name; // shortened to kMaxEventName characters
    WorkKind kind = WorkKind::Other;
    double seconds = 0.0; // per optimizer step
    int calls = 0; // per profiled run (a first micro-step apart, the block, the optimizer step)
};

// One optimizer step's profiled time by kind, extrapolated from a block of micro-steps and the
// optimizer step the same way the timed step is (statistics.h): block x accumulation / length +
// optimizer step, or, with the first micro-step profiled apart (kept casts), first + block x
// (accumulation - 1) / length + optimizer step.
struct TimeBreakdown {
    std::string source; // "CUDA kernels" or "CPU operators (self time)"
    int profiledMicroSteps = 0; // the block's length, plus one for a first micro-step apart
    double profiledSeconds = 0.0; // per step: the sum over kinds
    std::vector<KindTime> kinds; // largest first; kinds with no time left out
    std::vector<EventTime> top; // the most expensive events, largest first
};

inline constexpr std::size_t kMaxEventName = 120;
inline constexpr std::size_t kTopEvents = 10;

// `block`: the events of `blockLength` micro-steps; `optimizer`: those of one optimizer step;
// `firstMicroStep`, where a step's first micro-step does more than the rest (the kept casts:
// it casts every weight), its events, counted once a step, the block then standing for the
// other accumulation - 1. Throws std::invalid_argument when blockLength or accumulation is
// below 1.
TimeBreakdown breakdownOf(const std::vector<ProfiledEvent>& block, int blockLength,
    const std::vector<ProfiledEvent>& optimizer, int accumulation, std::string source,
    const std::vector<ProfiledEvent>* firstMicroStep = nullptr);

// The time of `kind` per step, 0 when the breakdown has none.
double secondsOf(const TimeBreakdown& breakdown, WorkKind kind);

// The implied utilisation the step would reach if the work its FLOPs count (matrix products,
// attention, convolution) took no longer than it does and everything else took no time:
// utilisation x step / that work's time. The ceiling that fusing the rest would approach and only
// faster products could raise; nullopt without such work or utilisation.
std::optional<double> computeOnlyUtilization(
    const TimeBreakdown& breakdown, double stepSeconds, std::optional<double> utilization);

} // namespace gpuplan::bench

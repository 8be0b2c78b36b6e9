#include "benchmark/time_breakdown.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <stdexcept>
#include <utility>

namespace gpuplan::bench {

namespace {

enum class Match { Contains, Exactly, StartsWith };

struct Rule {
    WorkKind kind;
    Match match;
    std::string_view text; // lower case
};

// First match wins, so the order matters where names overlap: cuDNN's attention kernels say
// "fprop" like its convolutions, and its convolutions say "implicit_gemm" like a product;
// ATen's copy kernels are "elementwise_kernel<... direct_copy ...>"; "aten::expand" begins like
// "aten::exp". Kernel names are those CUPTI reports on an H100 with LibTorch 2.x (cuBLAS's
// nvjet and sm90_xmma products, cuDNN's SDPA, PyTorch's flash and memory-efficient attention,
// ATen's templated kernels); operator names are ATen's.
constexpr auto kRules = std::to_array<Rule>({
    { WorkKind::Communication, Match::Contains, "nccl" },
    { WorkKind::Communication, Match::Contains, "c10d::" },
    { WorkKind::Communication, Match::Contains, "gloo" },
    { WorkKind::Communication, Match::Contains, "all_reduce" },
    { WorkKind::Communication, Match::Contains, "allreduce" },
    { WorkKind::Communication, Match::Contains, "reduce_scatter" },
    { WorkKind::Communication, Match::Contains, "all_gather" },
    // Autograd nodes of our own functions name our namespace too: bookkeeping, not kernels.
    { WorkKind::Framework, Match::StartsWith, "torch::autograd::" },
    // Our depthwise convolution is a convolution, as cuDNN's in its place is: the kinds of work
    // (and the compute-only ceiling) compare alike with and without it.
    { WorkKind::Convolution, Match::Contains, "depthwise" },
    { WorkKind::OurKernels, Match::Contains, "gpuplan::" },
    { WorkKind::Attention, Match::Contains, "sdpa" },
    { WorkKind::Attention, Match::Contains, "fmha" },
    { WorkKind::Attention, Match::Contains, "flash" },
    { WorkKind::Attention, Match::Contains, "attention" },
    { WorkKind::CopiesAndCasts, Match::Contains, "nchwtonhwc" },
    { WorkKind::CopiesAndCasts, Match::Contains, "nhwctonchw" },
    { WorkKind::Convolution, Match::Contains, "conv" },
    { WorkKind::Convolution, Match::Contains, "fprop" },
    { WorkKind::Convolution, Match::Contains, "dgrad" },
    { WorkKind::Convolution, Match::Contains, "wgrad" },
    { WorkKind::Convolution, Match::Contains, "implicit_gemm" },
    { WorkKind::Convolution, Match::Contains, "winograd" },
    { WorkKind::Convolution, Match::Contains, "im2col" },
    { WorkKind::Convolution, Match::Contains, "col2im" },
    { WorkKind::MatrixProducts, Match::Contains, "gemm" },
    { WorkKind::MatrixProducts, Match::Contains, "gemv" },
    { WorkKind::MatrixProducts, Match::Contains, "nvjet" },
    { WorkKind::MatrixProducts, Match::Contains, "cutlass" },
    { WorkKind::MatrixProducts, Match::Contains, "splitkreduce" },
    { WorkKind::MatrixProducts, Match::Exactly, "aten::mm" },
    { WorkKind::MatrixProducts, Match::Exactly, "aten::addmm" },
    { WorkKind::MatrixProducts, Match::Exactly, "aten::bmm" },
    { WorkKind::MatrixProducts, Match::Exactly, "aten::baddbmm" },
    { WorkKind::MatrixProducts, Match::Exactly, "aten::addmv" },
    { WorkKind::MatrixProducts, Match::Exactly, "aten::mv" },
    { WorkKind::MatrixProducts, Match::Exactly, "aten::dot" },
    { WorkKind::Normalization, Match::Contains, "layer_norm" },
    { WorkKind::Normalization, Match::Contains, "layernorm" },
    { WorkKind::Normalization, Match::Contains, "rms_norm" },
    { WorkKind::Normalization, Match::Contains, "batch_norm" },
    { WorkKind::Normalization, Match::Contains, "group_norm" },
    { WorkKind::Normalization, Match::Contains, "gammabeta" }, // layer norm's weight gradients
    { WorkKind::Normalization, Match::Contains, "rowwisemoments" }, // layer norm's statistics
    { WorkKind::SoftmaxAndLoss, Match::Contains, "softmax" },
    { WorkKind::SoftmaxAndLoss, Match::Contains, "nll_loss" },
    { WorkKind::SoftmaxAndLoss, Match::Contains, "cross_entropy" },
    // Before "fill" and "index": the causal mask, and ATen's kernel for arange-like ops.
    { WorkKind::Elementwise, Match::Contains, "masked_fill" },
    { WorkKind::Elementwise, Match::Contains, "elementwise_kernel_with_index" },
    { WorkKind::Indexing, Match::Contains, "embedding" },
    { WorkKind::Indexing, Match::Contains, "index" },
    { WorkKind::Indexing, Match::Contains, "gather" },
    { WorkKind::Indexing, Match::Contains, "scatter" },
    { WorkKind::Optimizer, Match::Contains, "multi_tensor_apply" },
    { WorkKind::Optimizer, Match::Contains, "adam" },
    { WorkKind::Optimizer, Match::Contains, "_foreach_" },
    { WorkKind::Optimizer, Match::Contains, "_amp_" },
    { WorkKind::CopiesAndCasts, Match::Contains, "copy" },
    { WorkKind::CopiesAndCasts, Match::Contains, "memcpy" },
    { WorkKind::CopiesAndCasts, Match::Contains, "memset" },
    { WorkKind::CopiesAndCasts, Match::Contains, "catarray" },
    { WorkKind::CopiesAndCasts, Match::Contains, "fill" },
    { WorkKind::CopiesAndCasts, Match::Exactly, "aten::cat" },
    { WorkKind::CopiesAndCasts, Match::Exactly, "aten::stack" },
    { WorkKind::CopiesAndCasts, Match::Exactly, "aten::clone" },
    { WorkKind::CopiesAndCasts, Match::Exactly, "aten::contiguous" },
    { WorkKind::CopiesAndCasts, Match::Exactly, "aten::zero_" },
    { WorkKind::CopiesAndCasts, Match::Exactly, "aten::constant_pad_nd" },
    { WorkKind::CopiesAndCasts, Match::Exactly, "aten::to" },
    { WorkKind::CopiesAndCasts, Match::Exactly, "aten::_to_copy" },
    // Views and bookkeeping: no arithmetic; on a CPU their self time is dispatch overhead.
    { WorkKind::Framework, Match::StartsWith, "autograd::" },
    { WorkKind::Framework, Match::Contains, "backward0" },
    { WorkKind::Framework, Match::Contains, "accumulategrad" },
    { WorkKind::Framework, Match::Exactly, "aten::empty" },
    { WorkKind::Framework, Match::Exactly, "aten::empty_like" },
    { WorkKind::Framework, Match::Exactly, "aten::empty_strided" },
    { WorkKind::Framework, Match::Exactly, "aten::resize_" },
    { WorkKind::Framework, Match::Exactly, "aten::as_strided" },
    { WorkKind::Framework, Match::Exactly, "aten::view" },
    { WorkKind::Framework, Match::Exactly, "aten::reshape" },
    { WorkKind::Framework, Match::Exactly, "aten::_reshape_alias" },
    { WorkKind::Framework, Match::Exactly, "aten::_unsafe_view" },
    { WorkKind::Framework, Match::Exactly, "aten::t" },
    { WorkKind::Framework, Match::Exactly, "aten::transpose" },
    { WorkKind::Framework, Match::Exactly, "aten::permute" },
    { WorkKind::Framework, Match::Exactly, "aten::expand" },
    { WorkKind::Framework, Match::Exactly, "aten::expand_as" },
    { WorkKind::Framework, Match::Exactly, "aten::detach" },
    { WorkKind::Framework, Match::Exactly, "detach" },
    { WorkKind::Framework, Match::Exactly, "aten::slice" },
    { WorkKind::Framework, Match::Exactly, "aten::select" },
    { WorkKind::Framework, Match::Exactly, "aten::narrow" },
    { WorkKind::Framework, Match::Exactly, "aten::unsqueeze" },
    { WorkKind::Framework, Match::Exactly, "aten::squeeze" },
    { WorkKind::Framework, Match::Exactly, "aten::flatten" },
    { WorkKind::Framework, Match::Exactly, "aten::split" },
    { WorkKind::Framework, Match::Exactly, "aten::chunk" },
    { WorkKind::Framework, Match::Exactly, "aten::unbind" },
    { WorkKind::Framework, Match::Exactly, "aten::alias" },
    { WorkKind::Framework, Match::Exactly, "aten::linear" }, // calls aten::addmm
    { WorkKind::Framework, Match::Exactly, "aten::matmul" }, // calls aten::mm or aten::bmm
    { WorkKind::Framework, Match::StartsWith, "aten::resolve_" },
    { WorkKind::Framework, Match::Exactly, "aten::result_type" },
    { WorkKind::Reductions, Match::Contains, "reduce" },
    { WorkKind::Reductions, Match::Exactly, "aten::sum" },
    { WorkKind::Reductions, Match::Exactly, "aten::mean" },
    { WorkKind::Reductions, Match::Exactly, "aten::norm" },
    { WorkKind::Reductions, Match::Exactly, "aten::linalg_vector_norm" },
    { WorkKind::Reductions, Match::Exactly, "aten::max" },
    { WorkKind::Reductions, Match::Exactly, "aten::amax" },
    { WorkKind::Elementwise, Match::Contains, "elementwise" },
    { WorkKind::Elementwise, Match::Contains, "pointwise" },
    { WorkKind::Elementwise, Match::Contains, "gelu" },
    { WorkKind::Elementwise, Match::Contains, "silu" },
    { WorkKind::Elementwise, Match::Contains, "relu" },
    { WorkKind::Elementwise, Match::Contains, "tanh" },
    { WorkKind::Elementwise, Match::Contains, "sigmoid" },
    { WorkKind::Elementwise, Match::Contains, "softplus" },
    { WorkKind::Elementwise, Match::Contains, "dropout" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::add" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::sub" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::rsub" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::mul" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::div" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::neg" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::exp" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::log" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::pow" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::sqrt" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::rsqrt" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::sin" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::cos" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::erf" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::abs" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::where" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::clamp" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::lerp" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::threshold" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::maximum" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::minimum" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::square" },
    { WorkKind::Elementwise, Match::StartsWith, "aten::reciprocal" },
    { WorkKind::Elementwise, Match::Exactly, "aten::ne" },
    { WorkKind::Elementwise, Match::Exactly, "aten::eq" },
    { WorkKind::Elementwise, Match::Exactly, "aten::triu" },
});

bool matches(const Rule& rule, std::string_view lowered)
{
    switch (rule.match) {
    case Match::Contains:
        return lowered.find(rule.text) != std::string_view::npos;
    case Match::Exactly:
        return lowered == rule.text;
    case Match::StartsWith:
        return lowered.starts_with(rule.text);
    }
    return false;
}

std::string lowered(std::string_view name)
{
    std::string out(name);
    std::transform(out.begin(), out.end(), out.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string shortened(const std::string& name)
{
    if (name.size() <= kMaxEventName)
        return name;
    return name.substr(0, kMaxEventName - 3) + "...";
}

constexpr double kNsPerSecond = 1e9;

} // namespace

std::string_view toString(WorkKind kind)
{
    switch (kind) {
    case WorkKind::MatrixProducts:
        return "matrix products";
    case WorkKind::Attention:
        return "attention";
    case WorkKind::Convolution:
        return "convolution";
    case WorkKind::OurKernels:
        return "gpuplan kernels";
    case WorkKind::Normalization:
        return "normalization";
    case WorkKind::SoftmaxAndLoss:
        return "softmax and loss";
    case WorkKind::Elementwise:
        return "elementwise";
    case WorkKind::CopiesAndCasts:
        return "copies and casts";
    case WorkKind::Reductions:
        return "reductions";
    case WorkKind::Indexing:
        return "indexing";
    case WorkKind::Optimizer:
        return "optimizer step";
    case WorkKind::Communication:
        return "communication";
    case WorkKind::Framework:
        return "framework";
    case WorkKind::Other:
        return "other";
    }
    return "other";
}

WorkKind kindOf(std::string_view eventName)
{
    const std::string name = lowered(eventName);
    for (const Rule& rule : kRules)
        if (matches(rule, name))
            return rule.kind;
    return WorkKind::Other;
}

std::vector<std::int64_t> selfTimesNs(const std::vector<ProfiledEvent>& events)
{
    std::vector<std::int64_t> self(events.size());
    std::map<std::uint64_t, std::vector<std::size_t>> byThread;
    for (std::size_t i = 0; i < events.size(); ++i) {
        self[i] = std::max<std::int64_t>(events[i].durationNs, 0);
        if (events[i].onCpu)
            byThread[events[i].thread].push_back(i);
    }
    const auto end = [&](std::size_t i) { return events[i].startNs + events[i].durationNs; };
    for (auto& [thread, indices] : byThread) {
        // Parents first: earlier start, and at equal starts the longer event.
        std::sort(indices.begin(), indices.end(), [&](std::size_t a, std::size_t b) {
            if (events[a].startNs != events[b].startNs)
                return events[a].startNs < events[b].startNs;
            return events[a].durationNs > events[b].durationNs;
        });
        std::vector<std::size_t> open;
        for (const std::size_t i : indices) {
            while (!open.empty() && end(open.back()) <= events[i].startNs)
                open.pop_back();
            if (!open.empty() && end(i) <= end(open.back()))
                self[open.back()] -= std::max<std::int64_t>(events[i].durationNs, 0);
            open.push_back(i);
        }
    }
    for (auto& t : self)
        t = std::max<std::int64_t>(t, 0);
    return self;
}

TimeBreakdown breakdownOf(const std::vector<ProfiledEvent>& block, int blockLength,
    const std::vector<ProfiledEvent>& optimizer, int accumulation, std::string source,
    const std::vector<ProfiledEvent>* firstMicroStep)
{
    if (blockLength < 1 || accumulation < 1)
        throw std::invalid_argument("a time breakdown needs at least one micro-step in its block "
                                    "and an accumulation of at least 1");
    TimeBreakdown out;
    out.source = std::move(source);
    out.profiledMicroSteps = blockLength + (firstMicroStep ? 1 : 0);
    std::map<WorkKind, double> byKind;
    std::map<std::pair<std::string, WorkKind>, EventTime> byName;
    const auto add = [&](const std::vector<ProfiledEvent>& events, double perStep,
                         std::optional<WorkKind> forced) {
        const auto self = selfTimesNs(events);
        for (std::size_t i = 0; i < events.size(); ++i) {
            const WorkKind kind = forced.value_or(kindOf(events[i].name));
            const double seconds = static_cast<double>(self[i]) / kNsPerSecond * perStep;
            byKind[kind] += seconds;
            auto& entry = byName[{ events[i].name, kind }];
            entry.kind = kind;
            entry.seconds += seconds;
            ++entry.calls;
        }
    };
    // The block stands for accumulation / blockLength of itself in a step (the other
    // accumulation - 1 where the first micro-step is profiled apart). Everything the optimizer
    // step runs is the optimizer's, whatever its kernels are called.
    const int standsFor = firstMicroStep ? accumulation - 1 : accumulation;
    if (firstMicroStep)
        add(*firstMicroStep, 1.0, std::nullopt);
    add(block, static_cast<double>(standsFor) / blockLength, std::nullopt);
    add(optimizer, 1.0, WorkKind::Optimizer);

    for (const auto& [kind, seconds] : byKind)
        out.profiledSeconds += seconds;
    for (const auto& [kind, seconds] : byKind)
        if (seconds > 0.0)
            out.kinds.push_back(
                { kind, seconds, out.profiledSeconds > 0.0 ? seconds / out.profiledSeconds : 0.0 });
    std::stable_sort(out.kinds.begin(), out.kinds.end(),
        [](const KindTime& a, const KindTime& b) { return a.seconds > b.seconds; });

    for (auto& [key, entry] : byName) {
        entry.name = shortened(key.first);
        if (entry.seconds > 0.0)
            out.top.push_back(entry);
    }
    std::stable_sort(out.top.begin(), out.top.end(),
        [](const EventTime& a, const EventTime& b) { return a.seconds > b.seconds; });
    if (out.top.size() > kTopEvents)
        out.top.resize(kTopEvents);
    return out;
}

double secondsOf(const TimeBreakdown& breakdown, WorkKind kind)
{
    for (const KindTime& k : breakdown.kinds)
        if (k.kind == kind)
            return k.seconds;
    return 0.0;
}

std::optional<double> computeOnlyUtilization(
    const TimeBreakdown& breakdown, double stepSeconds, std::optional<double> utilization)
{
    const double counted = secondsOf(breakdown, WorkKind::MatrixProducts)
        + secondsOf(breakdown, WorkKind::Attention) + secondsOf(breakdown, WorkKind::Convolution);
    if (!utilization || counted <= 0.0 || stepSeconds <= 0.0)
        return std::nullopt;
    return *utilization * stepSeconds / counted;
}

} // namespace gpuplan::bench

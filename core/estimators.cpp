#include "core/estimators.h"

#include "core/interconnect.h"
#include "core/micro_batch_model.h"
#include "core/step_communication.h"
#include "core/uncertainty.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpuplan {

namespace {

constexpr double kSecondsPerDay = 86400.0;
constexpr double kTera = 1e12;
// The paper's tables give whole days, so a published "9" means anything in [8.5, 9.5).
constexpr double kPublishedRounding = 0.5;

void addUtilizationFlags(TrainingEstimate& e)
{
    if (!e.impliedUtilization) {
        e.flags.push_back(EstimateFlag::NoPeakKnown);
        return;
    }
    if (*e.impliedUtilization > kExceedsPeakUtilization)
        e.flags.push_back(EstimateFlag::ExceedsPeak);
    else if (*e.impliedUtilization >= kSuspectUtilization)
        e.flags.push_back(EstimateFlag::Suspect);
}

TrainingEstimate blankEstimate(
    const Workload& w, const GpuSpec& gpu, int gpuCount, EstimateSource source)
{
    TrainingEstimate e;
    e.modelId = w.id;
    e.gpuId = gpu.id;
    e.gpuCount = gpuCount;
    e.source = source;
    return e;
}

std::string formatUtilization(double u)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "assumed utilisation %.2f of peak", u);
    return buffer;
}

// Bytes of a model's gradients where nothing measured says otherwise: fp32, as mixed-precision
// training keeps them (the paper's recipes included).
double fp32GradientBytes(const Workload& w)
{
    return static_cast<double>(w.parameters) * kGradientBytesPerParameter;
}

// Days spent on one all-reduce of `bytes` per optimizer step over a whole run.
double allReduceDays(std::int64_t steps, double bytes, int ranks, double busBytesPerSecond)
{
    return static_cast<double>(steps) * allReduceSeconds(bytes, ranks, busBytesPerSecond)
        / kSecondsPerDay;
}

// A bandwidth to three significant figures: 6.25 GB/s, 37.6, 0.00625 (RunPod's overlay).
std::string formatGBps(double gbps)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3g", gbps);
    return buffer;
}

// Where the table knows a slower machine of the same cards, what the range's slow end takes.
std::string slowerBusNote(const Interconnect& link, int gpuCount)
{
    if (!(link.lowBusGBps < busGBpsAt(link, gpuCount)))
        return {};
    return ", the range's slow end at " + formatGBps(link.lowBusGBps) + " GB/s ("
        + std::string(link.lowBusIs) + ")";
}

// A measurement's range as ratios of its days: the run range it recorded (the fastest and
// slowest step in files before 2026-11-28), widened to its validation error where it was
// validated: the extrapolation from a block to a step missed real steps by that much, on the
// GPU count measured and on every count extrapolated from it. The wider of the two, not their
// sum: both measure how far the step's time is known. The error e is |extrapolated - measured|
// / measured, so the measured step is the extrapolated one / (1 + e) or / (1 - e): those are
// the ends. Past e = 1 only the first is possible (a step takes some time), and the range does
// not reach above the days (1 - e had made them negative).
struct DaysRatios {
    double low = 1.0;
    double high = 1.0;
};
DaysRatios measuredDaysRatios(const MeasuredResult& m)
{
    DaysRatios r;
    if (m.trainingDaysLow > 0.0)
        r.low = m.trainingDaysLow / m.trainingDays;
    if (m.trainingDaysHigh > 0.0)
        r.high = m.trainingDaysHigh / m.trainingDays;
    if (m.validationError) {
        const double e = *m.validationError;
        r.low = std::min(r.low, 1.0 / (1.0 + e));
        if (e < 1.0)
            r.high = std::max(r.high, 1.0 / (1.0 - e));
    }
    return r;
}

} // namespace

std::optional<double> impliedUtilization(
    const Workload& w, const GpuSpec& gpu, int gpuCount, double days)
{
    const auto peak = gpu.peakTflopsFor(w.precision);
    if (!peak || *peak <= 0.0 || days <= 0.0 || gpuCount <= 0)
        return std::nullopt;
    return w.trainingFlops / (days * kSecondsPerDay * gpuCount * *peak * kTera);
}

std::optional<TrainingEstimate> paperEstimate(
    const Catalog& c, const Workload& w, const GpuSpec& gpu, int gpuCount, bool naive)
{
    const auto table
        = naive ? ReferenceMeasurement::Table::Naive : ReferenceMeasurement::Table::Optimal;
    const auto it = std::find_if(c.reference.begin(), c.reference.end(), [&](const auto& r) {
        return r.table == table && r.modelId == w.id && r.gpuId == gpu.id && r.gpuCount == gpuCount;
    });
    if (it == c.reference.end())
        return std::nullopt;

    TrainingEstimate e = blankEstimate(
        w, gpu, gpuCount, naive ? EstimateSource::PaperNaive : EstimateSource::Paper);
    e.configuration = it->configuration;
    e.note = it->source.source;
    e.flags.push_back(EstimateFlag::UnsynchronisedTiming);
    if (!it->days) {
        e.feasible = false;
        e.note = "published so in " + it->source.source; // views say "infeasible: " first
        return e;
    }
    e.days = *it->days;
    e.daysLow = std::max(0.0, e.days - kPublishedRounding);
    e.daysHigh = e.days + kPublishedRounding;
    e.impliedUtilization = impliedUtilization(w, gpu, gpuCount, e.days);
    addUtilizationFlags(e);
    // Nor does the range reach below the time at 100% of peak where the figure is above it:
    // 8x A100's 9 days for Pythia-1B (96.9% of peak) went down to 8.5, 102.6%, and a table's
    // 0.3 days to 0 days and $0 (review). A figure already past peak keeps its rounding.
    if (e.impliedUtilization && *e.impliedUtilization <= 1.0)
        e.daysLow = std::max(e.daysLow, e.days * *e.impliedUtilization);
    // A time above the GPUs' peak is too short by an unknown amount (the unsynchronised timer):
    // its range reaches at least the time at 100% of peak, the shortest the GPUs can do, so
    // that every figure built on it spans a possible time (8x RTX 3090's 30 days: 29.5-38.3).
    if (e.hasFlag(EstimateFlag::ExceedsPeak))
        e.daysHigh = std::max(e.daysHigh, e.days * *e.impliedUtilization);
    return e;
}

double trainingStateBytes(const Workload& w)
{
    return kTrainingStateBytesPerParameter * static_cast<double>(w.parameters);
}

std::optional<Parallelism> leastShardingThatHolds(
    const Workload& w, int gpuCount, double memoryBytes)
{
    const double parameters = static_cast<double>(w.parameters);
    const TrainingStates whole { parameters * kWeightBytesPerParameter,
        parameters * kGradientBytesPerParameter, parameters * kOptimizerBytesPerParameter };
    if (gpuCount <= 1)
        return whole.total() <= memoryBytes ? std::optional(Parallelism::None) : std::nullopt;
    for (const Parallelism p : kDataParallelStrategies)
        if (statesPerRank(whole, p, gpuCount).total() <= memoryBytes)
            return p;
    return std::nullopt;
}

std::optional<TrainingEstimate> analyticEstimate(const Workload& w, const GpuSpec& gpu,
    int gpuCount, double assumedUtilization, const Interconnect* between)
{
    const auto peak = gpu.peakTflopsFor(w.precision);
    if (!peak || *peak <= 0.0 || gpuCount <= 0 || assumedUtilization <= 0.0
        || w.trainingFlops <= 0.0)
        return std::nullopt;

    TrainingEstimate e = blankEstimate(w, gpu, gpuCount, EstimateSource::Analytic);
    // FLOPs over peak would time a model the GPUs cannot hold (a 6.9B model on one 32 GB card
    // at 1,796 days): only offloading trains it, at a speed this estimate cannot know.
    const double memoryGb = gpu.memoryGb * gpuCount;
    if (const double stateGb = trainingStateBytes(w) / 1e9;
        gpu.memoryGb > 0.0 && stateGb > memoryGb) {
        // Without the count's memory, so that a view groups every count one reason leaves out
        // ("RTX 4090 as 1, 2 or 4 GPUs (no analytic estimate: ...)").
        char buffer[240];
        std::snprintf(buffer, sizeof buffer,
            "the training state (%.0f bytes a parameter, %.1f GB) exceeds the GPUs' memory: only "
            "offloading to CPU memory trains it, at a speed FLOPs cannot tell",
            kTrainingStateBytesPerParameter, stateGb);
        e.feasible = false;
        e.note = buffer;
        return e;
    }
    auto computeDaysAt = [&](double utilization) {
        return w.trainingFlops / (gpuCount * *peak * kTera * utilization) / kSecondsPerDay;
    };
    // The utilisation's range (assumption_table.h): faster at its high end, slower at its low.
    const Interval utilization
        = assumptionRange(AssumptionId::AnalyticUtilization, assumedUtilization);
    // Several GPUs also exchange the gradients (data parallel, as the paper trains), by the
    // least sharding that holds the training state: over the GPU's interconnect where one is
    // known. Without one the GPUs are assumed to scale perfectly, and the estimate says so.
    // How many micro-steps a step takes depends on the micro-batch, which FLOPs cannot tell
    // (activations are not counted): from one (the range's low end) to one sample each (its
    // high end), the estimate between them. It sets how often sharding the gradients or
    // parameters exchanges, and for ddp and ZeRO-1 how much compute the last backward, the
    // only one their exchange hides behind, is: all of it at the low end, which therefore
    // hides the whole exchange where the compute outlasts it.
    const Parallelism strategy = gpu.memoryGb > 0.0
        ? leastShardingThatHolds(w, gpuCount, gpu.memoryGb * 1e9).value_or(Parallelism::Zero3)
        : (gpuCount > 1 ? Parallelism::Ddp : Parallelism::None);
    const int mostMicroSteps = std::max(1, (w.globalBatch + gpuCount - 1) / gpuCount);
    const Interconnect* link
        = gpuCount > 1 ? (between ? between : interconnectFor(gpu.id)) : nullptr;
    const double gradientBytes = fp32GradientBytes(w);
    const auto allReduceAt = [&](double busGBps) {
        return link ? allReduceDays(w.steps, gradientBytes, gpuCount, busGBps * 1e9) : 0.0;
    };
    const double allReduce = allReduceAt(link ? busGBpsAt(*link, gpuCount) : 0.0);
    // The range's slow end also at the slowest bus bandwidth published for such a machine
    // (PCIe boards differ; NVLink's is the same figure).
    const double slowestAllReduce = allReduceAt(link ? link->lowBusGBps : 0.0);
    const auto runAt = [&](double utilizationAt, int microSteps, double allReduceDaysAt) {
        return RunDays { computeDaysAt(utilizationAt), allReduceDaysAt,
            stepCommunication(
                strategy, microSteps, kWeightBytesPerParameter / kGradientBytesPerParameter) };
    };
    const RunDays fewest = runAt(assumedUtilization, 1, allReduce);
    const RunDays most = runAt(assumedUtilization, mostMicroSteps, allReduce);
    e.days = 0.5 * (fewest.best() + most.worst());
    e.daysLow = runAt(utilization.high, 1, allReduce).best();
    e.daysHigh = runAt(utilization.low, mostMicroSteps, slowestAllReduce).worst();
    e.configuration = formatUtilization(assumedUtilization);
    if (shardingLevel(strategy) > 0)
        e.configuration += ", " + std::string(toString(strategy));
    e.note = gpu.memoryGb > 0.0
        ? "training FLOPs / (GPUs x dense peak x assumed utilisation); the training state fits "
          "the GPUs' memory, activations not counted"
        : "training FLOPs / (GPUs x dense peak x assumed utilisation); the GPUs' memory is not "
          "known, so the training state was not checked against it";
    if (shardingLevel(strategy) > 0) {
        char buffer[160];
        std::snprintf(buffer, sizeof buffer,
            "; %s is the least sharding that holds it (%.1f GB a GPU unsharded)",
            std::string(toString(strategy)).c_str(), trainingStateBytes(w) / 1e9);
        e.note += buffer;
    }
    if (link) {
        char buffer[400];
        std::snprintf(buffer, sizeof buffer,
            "; plus %s (%.2f GB) at %.3g GB/s (%s), %.2f of %.2f days if none is hidden",
            std::string(exchangeDescription(strategy)).c_str(), gradientBytes / 1e9,
            busGBpsAt(*link, gpuCount), std::string(link->name).c_str(), most.communication(),
            most.worst());
        e.note += buffer;
        e.note += slowerBusNote(*link, gpuCount);
        if (shardingLevel(strategy) >= 2 && mostMicroSteps > 1)
            e.note += ", in " + std::to_string(mostMicroSteps) + " micro-steps of one sample";
        e.note += "; bus bandwidth: " + std::string(link->source);
        if (exchangeBound(fewest.compute, e.days))
            e.flags.push_back(EstimateFlag::ExchangeBound);
    } else if (gpuCount > 1) {
        e.flags.push_back(EstimateFlag::PerfectScaling);
        e.note += "; " + std::string(exchangeDescription(strategy))
            + " left out: no bus bandwidth known";
    }
    // Exactly the assumption where nothing is added: recomputed from the days it could land a
    // hair above 1.0 or below 0.75 and change a flag.
    e.impliedUtilization = most.communication() > 0.0 ? impliedUtilization(w, gpu, gpuCount, e.days)
                                                      : assumedUtilization;
    addUtilizationFlags(e);
    return e;
}

std::optional<TrainingEstimate> measuredEstimate(
    const Catalog& c, const Workload& w, const GpuSpec& gpu, int gpuCount)
{
    // Later files override earlier ones, so the last matching measurement wins. One machine's
    // only: a run spread over several timed their network, which no option here prices as
    // such (one machine's GPUs, or rented instances over the network their offer lists); the
    // extrapolated source re-prices its exchange for the link asked about (review: 2 machines
    // of 4 H100s at 6 GB/s had stood for one 8-GPU NVSwitch server).
    const auto it = std::find_if(c.measured.rbegin(), c.measured.rend(), [&](const auto& m) {
        return m.modelId == w.id && m.gpuId == gpu.id && m.gpuCount == gpuCount && m.nodeCount <= 1;
    });
    if (it == c.measured.rend() || it->trainingDays <= 0.0)
        return std::nullopt;

    TrainingEstimate e = blankEstimate(w, gpu, gpuCount, EstimateSource::Measured);
    e.days = it->trainingDays;
    const DaysRatios ratios = measuredDaysRatios(*it);
    e.daysLow = e.days * ratios.low;
    e.daysHigh = e.days * ratios.high;
    e.configuration = it->configuration;
    e.note = "measured by gpuplan-bench on " + it->deviceName;
    if (!it->source.date.empty())
        e.note += " (" + it->source.date + ")";
    e.validationError = it->validationError;
    if (it->validationError) {
        char buffer[96];
        std::snprintf(buffer, sizeof buffer,
            it->validationExtrapolated ? "; validated within %.1f%%"
                                       : "; whole steps timed, a repeat agreed within %.1f%%",
            100.0 * *it->validationError);
        e.note += buffer;
    }
    // One formula for every source: the planner's FLOPs for the recipe over the planner's peak.
    e.impliedUtilization = impliedUtilization(w, gpu, gpuCount, e.days);
    addUtilizationFlags(e);
    return e;
}

namespace {

// What the extrapolation assumed about the micro-batch on N GPUs, in words.
// `choices`: every strategy's (microBatchChoices), to say whether the sharding is what made room.
std::string microBatchNote(const MeasuredResult& base, const MicroBatchAtCount& choice, int gpus,
    const std::vector<MicroBatchAtCount>& choices)
{
    // The sharding made room only where ddp's fitted micro-batch is smaller: ConvNeXt-XL's 256
    // on 8 H200s "fits once ZeRO-1 shards the optimizer state" though it fitted unsharded too.
    const auto unsharded = std::find_if(choices.begin(), choices.end(),
        [](const MicroBatchAtCount& c) { return c.strategy == Parallelism::Ddp; });
    const bool shardingMadeRoom
        = unsharded == choices.end() || unsharded->microBatch < choice.microBatch;
    const std::string measured = std::to_string(base.microBatch);
    const std::string chosen = std::to_string(choice.microBatch);
    const std::string fitted
        = "peak memory fitted at " + std::to_string(base.memorySamples.size()) + " micro-batches";
    std::string note;
    if (choice.microBatch > base.microBatch
        && (choice.strategy == Parallelism::Ddp || !shardingMadeRoom))
        note = "; micro-batch " + chosen + " (measured " + measured + ") fits by the " + fitted;
    else if (choice.microBatch > base.microBatch)
        note = "; micro-batch " + chosen + " (measured " + measured + ") fits once "
            + (choice.strategy == Parallelism::Zero1 ? "ZeRO-1 shards the optimizer state"
                    : choice.strategy == Parallelism::Zero2
                    ? "ZeRO-2 shards the optimizer state and gradients"
                    : "ZeRO-3 shards the optimizer state, gradients and parameters")
            + " over " + std::to_string(gpus) + " GPUs (" + fitted + ")";
    else if (choice.microBatch < base.microBatch)
        note = "; micro-batch " + chosen + " (measured " + measured
            + "): each GPU's share of the batch";
    else if (!choice.memoryFitted)
        note = "; micro-batch " + chosen
            + " as measured (the file has no peaks at two micro-batches to fit a larger one)";
    else if (!choice.timed)
        note = "; micro-batch " + chosen
            + " as measured (the file has no micro-step times at two micro-batches to price a "
              "larger one)";
    else
        note = "; micro-batch " + chosen + " as measured (no larger one fits and is faster)";
    if (choice.timed) {
        char ratio[96];
        std::snprintf(ratio, sizeof ratio, "; micro-step time fitted at %zu micro-batches: x%.2f",
            base.microStepSamples.size(), choice.computeRatio);
        note += ratio;
    } else if (choice.microBatch != base.microBatch) {
        note += "; time per sample as at micro-batch " + measured
            + " (no micro-step times at other micro-batches in the file)";
    }
    return note;
}

// The bus bandwidth the measured ranks' exchange ran at: their own figure, else the table's
// for as many of this machine's GPUs; 0 where neither is known (PCIe cards without a table
// entry, a run over several machines that did not measure its network).
double measuredRunBusBytesPerSecond(const GpuSpec& gpu, const MeasuredResult& base)
{
    if (base.busBandwidth && *base.busBandwidth > 0.0)
        return *base.busBandwidth;
    const Interconnect* own = base.nodeCount == 1 ? interconnectFor(gpu.id) : nullptr;
    return own ? busGBpsAt(*own, base.gpuCount) * 1e9 : 0.0;
}

// The share of a measured optimizer step that computed (the update included), and the days of
// exchange taken out to find it where the file did not time them apart.
struct MeasuredCompute {
    double share = 1.0;
    double exchangeDaysTakenOut = 0.0;
    double busBytesPerSecond = 0.0; // the bandwidth they were priced at
};

// gpuplan-bench times a multi-process step again with its collectives replaced by local
// copies (compute_seconds). A multi-GPU file without that figure (written by hand, or by
// another tool) timed its exchange inside the step; scaled whole with the batch, that exchange
// had been priced twice, once inside the compute and again at the new count (review). Its
// exchange at the measured count, as this model prices it, is taken out instead.
MeasuredCompute measuredComputeShare(const MeasuredResult& base, const Workload& w,
    double gradientBytes, Parallelism measuredStrategy, double busBytesPerSecond)
{
    MeasuredCompute m;
    if (base.computeSeconds) {
        if (base.stepMedianSeconds > 0.0)
            m.share = std::min(1.0, *base.computeSeconds / base.stepMedianSeconds);
        return m;
    }
    if (base.gpuCount <= 1 || busBytesPerSecond <= 0.0 || base.trainingDays <= 0.0)
        return m; // nothing exchanged, or nothing priced for the exchange at any count
    const double allReduce
        = allReduceDays(w.steps, gradientBytes, base.gpuCount, busBytesPerSecond);
    const StepCommunication exchange
        = stepCommunication(measuredStrategy, base.accumulation, parameterToGradientBytes(base));
    const double updateShare = base.optimizerComputeSeconds && base.stepMedianSeconds > 0.0
        ? std::min(1.0, *base.optimizerComputeSeconds / base.stepMedianSeconds)
        : 0.0;
    const double update = base.trainingDays * updateShare;
    const double compute = computeDaysBeside(base.trainingDays, allReduce, exchange, update);
    m.share = (compute + update) / base.trainingDays;
    m.exchangeDaysTakenOut = base.trainingDays - compute - update;
    m.busBytesPerSecond = busBytesPerSecond;
    return m;
}

std::string exchangeTakenOutNote(const MeasuredResult& base, const MeasuredCompute& measured)
{
    if (measured.busBytesPerSecond <= 0.0)
        return {};
    char text[200];
    std::snprintf(text, sizeof text,
        "; the file does not time the compute apart (no compute_seconds): %.2f of its %.2f days "
        "on %d GPUs taken out as their exchange at %s GB/s",
        measured.exchangeDaysTakenOut, base.trainingDays, base.gpuCount,
        formatGBps(measured.busBytesPerSecond / 1e9).c_str());
    return text;
}

} // namespace

std::optional<TrainingEstimate> extrapolatedEstimate(const Catalog& c, const Workload& w,
    const GpuSpec& gpu, int gpuCount, const Interconnect* between)
{
    // The measurement with the most GPUs below gpuCount, or of gpuCount spread over several
    // machines (its compute kept, its exchange re-priced for the link asked about:
    // measuredEstimate leaves such a run out); later files win a tie.
    // A run over several machines whose file times neither its compute apart nor its bus
    // bandwidth cannot have its network's exchange taken out, so it is no base for another link.
    const auto separable = [](const MeasuredResult& m) {
        return m.nodeCount == 1 || m.computeSeconds || (m.busBandwidth && *m.busBandwidth > 0.0);
    };
    const MeasuredResult* base = nullptr;
    for (const auto& m : c.measured)
        if (m.modelId == w.id && m.gpuId == gpu.id
            && (m.gpuCount < gpuCount || (m.gpuCount == gpuCount && m.nodeCount > 1))
            && separable(m) && m.trainingDays > 0.0 && (!base || m.gpuCount >= base->gpuCount))
            base = &m;
    if (!base || w.steps <= 0)
        return std::nullopt;
    const bool acrossMachines = base->nodeCount > 1;

    // Bus bandwidth: what the measured ranks achieved, else the interconnect table; neither
    // for PCIe cards, whose measured compute is then scaled alone, flagged as the analytic
    // estimate is for the same cards (a measured card's speed rather than an assumed one: with
    // no estimate here, `best` had fallen through to the analytic guess, and 2 RTX 4090s came
    // out 2.28 times as fast as the one measured).
    // A run over several machines reached its network's figure, not one machine's bus.
    const Interconnect* link = between ? between : interconnectFor(gpu.id);
    const bool measuredBus
        = !between && !acrossMachines && base->busBandwidth && *base->busBandwidth > 0.0;
    // The ranks' own figure holds for as many GPUs as they were; where the table prices more of
    // that machine's GPUs slower (RTX 5090: 35 GB/s up to 4 cards, 28 on 8), it falls by as
    // much: carried over whole, a run measured on 4 had come out faster on 8 than one measured
    // on 1, which the table prices at 28.
    const double measuredFalls = measuredBus && link
        ? std::min(1.0, busGBpsAt(*link, gpuCount) / busGBpsAt(*link, base->gpuCount))
        : 1.0;
    const double busBytesPerSecond = measuredBus ? *base->busBandwidth * measuredFalls
                                                 : (link ? busGBpsAt(*link, gpuCount) * 1e9 : 0.0);

    // Communication, in all-reduces of the gradients per step (core/step_communication.h):
    // the bytes a rank measured where it held them whole, else the model's fp32 gradients.
    const bool fullGradients = base->gradientBytes && shardingLevel(base->parallelism) < 2;
    const double gradientBytes
        = fullGradients ? static_cast<double>(*base->gradientBytes) : fp32GradientBytes(w);
    const Parallelism measuredStrategy = onSeveralGpus(base->parallelism);

    // Compute: the measured step without its collectives, its global batch split over more
    // GPUs, at the micro-batch each strategy leaves room for (core/micro_batch_model.h).
    // Median over median (compute_seconds is a median), applied to the days priced.
    const MeasuredCompute measured = measuredComputeShare(
        *base, w, gradientBytes, measuredStrategy, measuredRunBusBytesPerSecond(gpu, *base));
    const double computeShare = measured.share;
    // The optimizer step apart: each rank updates every parameter under ddp, whatever N, and
    // its shard of them under ZeRO-1 to -3. Divided by N with the rest, a 1-GPU run's update
    // had come out N times too fast on N GPUs under ddp (review). Files without its time scale
    // the whole compute, as before.
    const double optimizerShare = base->optimizerComputeSeconds && base->stepMedianSeconds > 0.0
        ? std::min(computeShare, *base->optimizerComputeSeconds / base->stepMedianSeconds)
        : 0.0;
    const double measuredComputeDays = base->trainingDays * (computeShare - optimizerShare)
        * base->gpuCount / static_cast<double>(gpuCount);
    const double wholeOptimizerDays = base->trainingDays * optimizerShare
        * (shardingLevel(base->parallelism) >= 1 ? base->gpuCount : 1);
    const auto optimizerDays = [&](Parallelism strategy) {
        return wholeOptimizerDays / (shardingLevel(strategy) >= 1 ? gpuCount : 1);
    };
    const double gradientAllReduceDays = busBytesPerSecond > 0.0
        ? allReduceDays(w.steps, gradientBytes, gpuCount, busBytesPerSecond)
        : 0.0;
    // The range's slow end at the table's slowest figure for such a machine, for the choice
    // made at the central figure (a less sharded one might win on the slower box); a bandwidth
    // the ranks measured is the machine's own.
    const double slowestAllReduceDays = !measuredBus && link
        ? allReduceDays(w.steps, gradientBytes, gpuCount, link->lowBusGBps * 1e9)
        : gradientAllReduceDays;

    // The fastest choice; the least sharding wins a tie (choices come in that order). Without
    // a bus bandwidth the exchanges cannot be weighed, so the least sharding that fits: on
    // compute alone, ZeRO-3's larger micro-batch had won over PCIe, where its gathers cost
    // most (review). Files without a micro-batch get the measured strategy (ddp for one GPU)
    // at the measured micro-batch, in as many micro-steps as the N GPUs' share of the batch
    // then takes (the measured count's where the file has no accumulation: one).
    const auto choices = microBatchChoices(*base, w.globalBatch, gpuCount, gpu.memoryGb * 1e9);
    const MicroBatchAtCount* chosen = nullptr;
    const int microStepsThere
        = std::max(1, (base->accumulation * base->gpuCount + gpuCount - 1) / std::max(1, gpuCount));
    RunDays days { measuredComputeDays, gradientAllReduceDays,
        stepCommunication(measuredStrategy, microStepsThere, parameterToGradientBytes(*base)),
        optimizerDays(measuredStrategy) };
    for (const auto& choice : choices) {
        const RunDays these { measuredComputeDays * choice.computeRatio, gradientAllReduceDays,
            choice.communication, optimizerDays(choice.strategy) };
        if (!chosen || (busBytesPerSecond > 0.0 && these.middle() < days.middle())) {
            chosen = &choice;
            days = these;
        }
    }

    TrainingEstimate e = blankEstimate(w, gpu, gpuCount, EstimateSource::Extrapolated);
    const DaysRatios ratios = measuredDaysRatios(*base);
    RunDays slowest = days;
    slowest.allReduceDays = slowestAllReduceDays;
    if (chosen) // no gain from a micro-batch larger than any timed
        slowest.compute = measuredComputeDays * chosen->computeRatioHigh;
    e.daysLow = days.best() * ratios.low;
    e.daysHigh = slowest.worst() * ratios.high;
    e.days = days.middle();
    char buffer[400]; // the configuration, then the exchange's words (a capped link's name)
    if (chosen)
        std::snprintf(buffer, sizeof buffer, "%s over %d GPUs at micro-batch %d, from %d measured",
            std::string(toString(chosen->strategy)).c_str(), gpuCount, chosen->microBatch,
            base->gpuCount);
    else
        std::snprintf(buffer, sizeof buffer, "%s over %d GPUs from %d measured",
            std::string(toString(measuredStrategy)).c_str(), gpuCount, base->gpuCount);
    e.configuration = buffer;
    // ddp's all-reduce as before; a sharded strategy's exchanges in its own words, in
    // all-reduces' bytes and the part of them each step waits for.
    const Parallelism strategy = chosen ? chosen->strategy : measuredStrategy;
    char volume[96];
    if (shardingLevel(strategy) > 0)
        std::snprintf(volume, sizeof volume,
            ": %.1f all-reduces' worth of %.2f GB a step, %.1f of them waited for,",
            days.exchange.total(), gradientBytes / 1e9, days.exchange.exposed);
    else
        std::snprintf(volume, sizeof volume, "all-reduce of %.2f GB per step", gradientBytes / 1e9);
    const std::string exchange = "; "
        + std::string(shardingLevel(strategy) > 0 ? exchangeDescription(strategy) : "") + volume;
    if (busBytesPerSecond > 0.0)
        std::snprintf(buffer, sizeof buffer,
            " at %.3g GB/s (%s), %.2f of %.2f days if none is hidden", busBytesPerSecond / 1e9,
            !measuredBus              ? std::string(link->name).c_str()
                : measuredFalls < 1.0 ? "measured, scaled as the table's figure falls past the "
                                        "GPUs measured"
                                      : "measured",
            days.communication(), days.worst());
    else
        std::snprintf(buffer, sizeof buffer, "%s left out: no bus bandwidth known",
            shardingLevel(strategy) > 0 ? "" : ",");
    e.note = "extrapolated from gpuplan-bench on " + std::to_string(base->gpuCount) + "x "
        + base->deviceName
        + (acrossMachines ? " over " + std::to_string(base->nodeCount)
                    + " machines, whose network's bus bandwidth is not carried over"
                          : "")
        + (base->source.date.empty() ? "" : " (" + base->source.date + ")") + exchange + buffer
        + exchangeTakenOutNote(*base, measured)
        + (chosen ? microBatchNote(*base, *chosen, gpuCount, choices) : std::string())
        + (!measuredBus && link
                ? slowerBusNote(*link, gpuCount) + "; bus bandwidth: " + std::string(link->source)
                : "");
    if (busBytesPerSecond <= 0.0)
        e.flags.push_back(EstimateFlag::PerfectScaling);
    else if (exchangeBound(days.allCompute(), e.days))
        e.flags.push_back(EstimateFlag::ExchangeBound);
    e.impliedUtilization = impliedUtilization(w, gpu, gpuCount, e.days);
    addUtilizationFlags(e);
    return e;
}

bool pricesTheLinkBetween(const TrainingEstimate& e)
{
    return e.source == EstimateSource::Analytic || e.source == EstimateSource::Extrapolated;
}

std::optional<TrainingEstimate> estimateTraining(const Catalog& c, SourcePolicy policy,
    const Workload& w, const GpuSpec& gpu, int gpuCount, double analyticUtilization,
    const Interconnect* between)
{
    switch (policy) {
    case SourcePolicy::Paper:
        return paperEstimate(c, w, gpu, gpuCount, /*naive=*/false);
    case SourcePolicy::PaperNaive:
        return paperEstimate(c, w, gpu, gpuCount, /*naive=*/true);
    case SourcePolicy::Analytic:
        return analyticEstimate(w, gpu, gpuCount, analyticUtilization, between);
    case SourcePolicy::Measured:
        return measuredEstimate(c, w, gpu, gpuCount);
    case SourcePolicy::Extrapolated:
        return extrapolatedEstimate(c, w, gpu, gpuCount, between);
    case SourcePolicy::Best: {
        if (between) {
            if (auto extrapolated = extrapolatedEstimate(c, w, gpu, gpuCount, between))
                return extrapolated;
            auto analytic = analyticEstimate(w, gpu, gpuCount, analyticUtilization, between);
            // Beside one machine's time from those sources the difference is not all network:
            // say where the compute comes from (review: 8 p5.4xlarge at 7.8 analytic days read
            // as network cost against one p5.48xlarge's 4 published days).
            if (analytic && analytic->feasible
                && (measuredEstimate(c, w, gpu, gpuCount)
                    || paperEstimate(c, w, gpu, gpuCount, /*naive=*/false)))
                analytic->note += "; the compute is the analytic model's, not the measured or "
                                  "published time of one machine with these GPUs, which left "
                                  "out this network";
            return analytic;
        }
        // Sources that price the GPUs' exchange before those that leave it out: the paper's
        // tables, whose runs exchanged over the real bus, before an extrapolation that scales
        // the measured compute alone (review: it had replaced 2, 4 and 8 RTX 3090s' published
        // times with perfect scaling).
        if (auto measured = measuredEstimate(c, w, gpu, gpuCount))
            return measured;
        auto extrapolated = extrapolatedEstimate(c, w, gpu, gpuCount);
        if (extrapolated && !extrapolated->hasFlag(EstimateFlag::PerfectScaling))
            return extrapolated;
        if (auto paper = paperEstimate(c, w, gpu, gpuCount, /*naive=*/false))
            return paper;
        if (extrapolated)
            return extrapolated;
        return analyticEstimate(w, gpu, gpuCount, analyticUtilization);
    }
    }
    return std::nullopt;
}

} // namespace gpuplan

#include "benchmark/runner.h"

#include "benchmark/batch_search.h"
#include "benchmark/cpu_memory.h"
#include "benchmark/device_clock.h"
#include "benchmark/distributed/communicator.h"
#include "benchmark/distributed/sharded_step.h"
#include "benchmark/models/attention_choice.h"
#include "benchmark/models/model_factory.h"
#include "benchmark/out_of_memory.h"
#include "benchmark/search_pruning.h"
#include "benchmark/step_profile.h"
#include "benchmark/timed_choice.h"
#include "benchmark/training_step.h"
#include "core/micro_batch_model.h"

#include <torch/torch.h>

#include <cmath>

namespace gpuplan::bench {

namespace {

constexpr double kSecondsPerDay = 86400.0;

// Splits 0-100% of the run into equal shares per configuration, and each share into phases.
class PercentPlan {
public:
    PercentPlan(std::size_t configurations, bool validating)
        : share_(100.0 / static_cast<double>(std::max<std::size_t>(configurations, 1)))
        , validating_(validating)
    {
    }
    // Where phase `fraction` (0-1) of configuration `index` lies in the whole run.
    double at(std::size_t index, double fraction) const
    {
        return share_ * (static_cast<double>(index) + fraction);
    }
    double search() const { return 0.0; }
    double warmup() const { return validating_ ? 0.3 : 0.4; }
    double measure() const { return validating_ ? 0.4 : 0.6; }
    double validate() const { return 0.6; }

private:
    double share_;
    bool validating_;
};

// The warm block of a step whose first micro-step casts every weight (timeSample): at most the
// step's own warm micro-steps, accumulation - 2, and at least one to time (a step of 2 has none
// of its own: the one timed prices the first and last apart, and cancels out of the step).
int warmBlockFor(int blockLength, int accumulation)
{
    return std::max(1, std::min(blockLength, accumulation - 2));
}

// What the ranks agree on: one process agrees with itself.
struct Agreement {
    distributed::Communicator* communicator = nullptr;

    double slowest(double seconds) const
    {
        return communicator ? communicator->maxOverRanks(seconds) : seconds;
    }
    std::int64_t largest(std::int64_t bytes) const
    {
        return communicator
            ? static_cast<std::int64_t>(communicator->maxOverRanks(static_cast<double>(bytes)))
            : bytes;
    }
    bool everywhere(bool fits) const
    {
        return communicator ? communicator->minOverRanks(fits ? 1.0 : 0.0) > 0.5 : fits;
    }
    bool anywhere(bool happened) const { return !everywhere(!happened); }
};

struct ConfigurationRun {
    const RunOptions& options;
    const RunReport& report;
    TrainableModel& model;
    const DeviceClock& clock;
    const ProgressSink& progress;
    PercentPlan plan;
    std::size_t index;
    std::optional<std::int64_t> capacity; // the device's memory, or the CPU's limit; none: no limit
    Agreement agree { options.communicator };

    void emit(ProgressPhase phase, double fraction, const std::string& message,
        std::optional<int> microBatch, const Configuration& c) const
    {
        progress({ phase, c.label(), microBatch, plan.at(index, fraction), message });
    }

    int perDevice() const { return options.recipe.globalBatch / report.gpuCount; }
    std::unique_ptr<StepEngine> makeStep(
        const Configuration& configuration, std::vector<std::string>& notes) const;
    ConfigurationResult measure(const Configuration& configuration) const;
    void timeAt(
        const Configuration& configuration, StepEngine& step, ConfigurationResult& result) const;
    void timeCommunication(
        distributed::ShardedStep& step, const Batch& batch, ConfigurationResult& result) const;
    StepSample timeSample(StepEngine& step, const Batch& batch, int accumulation, int blockLength,
        bool closingSeparately) const;
    bool recordMemorySample(StepEngine& step, int microBatch, ConfigurationResult& result) const;
    void recordMicroStepTimes(StepEngine& step, ConfigurationResult& result) const;
    bool stepIsFinite(StepEngine& step, const Batch& batch, ConfigurationResult& result) const;
    // After a step at `microBatch` ran out of memory on some rank: whether every rank now takes
    // the fused attention kernel where it had chosen the spelled-out path there
    // (attention_choice.h), so that the step is worth another try.
    bool fusedAttentionInstead(int microBatch) const
    {
        return agree.anywhere(preferFusedAttentionAt(microBatch));
    }
    // Seconds of `work`, the slowest rank's.
    double timed(const std::function<void()>& work) const
    {
        return agree.slowest(clock.time(work));
    }
};

std::unique_ptr<StepEngine> ConfigurationRun::makeStep(
    const Configuration& configuration, std::vector<std::string>& notes) const
{
    if (configuration.parallelism == Parallelism::None)
        return std::make_unique<TrainingStep>(
            model, configuration, options.recipe, clock.device(), notes);
    TORCH_CHECK(options.communicator, "a parallel strategy needs the ranks' communicator");
    return std::make_unique<distributed::ShardedStep>(
        model, configuration, options.recipe, clock.device(), *options.communicator, notes);
}

// One step at `microBatch` with the peak memory reset before it: a point for the memory model.
// False (and nothing recorded) if it does not fit on every rank.
bool ConfigurationRun::recordMemorySample(
    StepEngine& step, int microBatch, ConfigurationResult& result) const
{
    bool fits = true;
    try {
        const Batch batch = model.makeBatch(microBatch, clock.device());
        if (clock.device().is_cuda() && at::globalContext().benchmarkCuDNN()) {
            // cuDNN's autotuner tries its algorithms, each with its workspace, the first time
            // it meets a shape: memory the step itself never holds, kept out of the peak. (So
            // are the attention choice's trials where the free lunch has the autotuner on; they
            // run in the first layer's forward, far from the step's peak, anyway.)
            step.microStep(batch);
            step.discardGradients();
        }
        clock.resetPeakMemory();
        step.microStep(batch);
        step.optimizerStep();
        clock.synchronize();
    } catch (const std::exception& e) {
        if (!isOutOfMemory(e))
            throw;
        fits = false;
    }
    const std::int64_t peak = agree.largest(clock.peakMemoryBytes());
    if (!agree.everywhere(fits)) {
        // Out of memory: drop what the failed step left and give the cache back.
        step.discardGradients();
        clock.releaseCachedMemory();
        return false;
    }
    auto& samples = result.memorySamples;
    std::erase_if(samples, [&](const MemorySample& s) { return s.microBatch == microBatch; });
    samples.push_back({ microBatch, peak });
    std::sort(samples.begin(), samples.end(),
        [](const auto& a, const auto& b) { return a.microBatch < b.microBatch; });
    return true;
}

// Micro-step time at the measured micro-batch and at half it, both eager and warm, so a planner
// can price the micro-batch another GPU count leaves room for (core/micro_batch_model.h). Eager
// at both: a CUDA graph replays one shape only, and the fit needs like against like. Plain
// micro-steps (the gradients are dropped after), the same on every rank, with every collective
// a local copy: the planner scales compute_seconds by the fit and prices the exchange apart, so
// ZeRO-2's reduce-scatter and ZeRO-3's gathers, which run every micro-step whatever its size,
// had raised the line's intercept and priced a larger micro-batch too cheap (review). The
// parameters a local gather leaves are the rank's own shard repeated: finite, and gathered
// afresh by the checked step after.
void ConfigurationRun::recordMicroStepTimes(StepEngine& step, ConfigurationResult& result) const
{
    if (result.microBatch < 2)
        return;
    step.dropGraph();
    const distributed::LocalOnlyScope computeAlone(options.communicator);
    // At least three samples and a quarter of --min-time at each micro-batch: three samples of
    // a micro-step of milliseconds (the small models on a GPU) fitted the line to noise.
    constexpr std::size_t kLeastSamples = 3;
    constexpr std::size_t kMostSamples = 200;
    const double minSeconds = options.minMeasureSeconds / 4.0;
    for (const int microBatch : { result.microBatch / 2, result.microBatch }) {
        const Batch batch = model.makeBatch(microBatch, clock.device());
        step.microStep(batch); // this shape's first run: allocations, kernel choices
        std::vector<double> times;
        double seconds = 0.0;
        while (
            times.size() < kLeastSamples || (seconds < minSeconds && times.size() < kMostSamples)) {
            const double pair = timed([&] {
                step.microStep(batch);
                step.microStep(batch);
            });
            times.push_back(pair / 2.0);
            seconds += pair;
        }
        result.microStepSamples.push_back({ microBatch, spreadOf(times).median });
    }
    step.discardGradients();
}

// An untimed checked step (StepEngine::checkedStep). False, with result.failure set, when the
// loss or a gradient was not finite on some rank: timing it would time garbage.
bool ConfigurationRun::stepIsFinite(
    StepEngine& step, const Batch& batch, ConfigurationResult& result) const
{
    const auto why = step.checkedStep(batch);
    if (agree.everywhere(!why))
        return true;
    result.failure
        = why ? *why : std::string("failed: another rank's loss or a gradient was not finite");
    result.notes.push_back(*result.failure);
    return false;
}

ConfigurationResult ConfigurationRun::measure(const Configuration& configuration) const
{
    ConfigurationResult result;
    result.configuration = configuration;
    model.dropGradients(); // the previous configuration's buffers go first
    clock.releaseCachedMemory();
    clock.resetPeakMemory();

    std::unique_ptr<StepEngine> step;
    bool stateFits = true;
    try {
        step = makeStep(configuration, result.notes);
    } catch (const std::exception& e) {
        if (!isOutOfMemory(e))
            throw;
        stateFits = false;
    }
    if (!agree.everywhere(stateFits)) {
        step.reset();
        result.notes.push_back("gradients and optimizer state alone do not fit");
        return result;
    }
    auto* sharded = dynamic_cast<distributed::ShardedStep*>(step.get());

    auto trial = [&](int microBatch) {
        emit(ProgressPhase::Search, plan.search(),
            "trying micro-batch " + std::to_string(microBatch), microBatch, configuration);
        return recordMemorySample(*step, microBatch, result)
            || (fusedAttentionInstead(microBatch) && recordMemorySample(*step, microBatch, result));
    };

    // A micro-batch the trials so far put far past the memory (search_pruning.h) is not tried;
    // the note says which and why. The state is every rank's largest, as the peaks are; each
    // rank judges against its own memory, and one that rules it out rules it out for all, so
    // that every rank runs the same trials (and collectives).
    auto ruledOut = [&](int microBatch) {
        if (!capacity || !options.pruneSearch)
            return false;
        const StateBytes state = step->stateBytes();
        const double stateBytes = static_cast<double>(
            agree.largest(state.parameters + state.gradients + state.optimizerState));
        auto why = ruledOutByMemory(result.memorySamples, stateBytes, *capacity,
            report.device.isCuda() ? CapacityIs::DeviceMemory : CapacityIs::MemoryLimit,
            microBatch);
        if (!agree.anywhere(why.has_value()))
            return false;
        result.notes.push_back(why ? std::move(*why)
                                   : "micro-batch " + std::to_string(microBatch)
                    + " not tried: another rank's peaks so far predict more than its memory");
        return true;
    };

    if (options.microBatch) {
        result.fittedMicroBatch = *options.microBatch;
    } else {
        const BatchSearchResult found
            = searchMicroBatch(largestPowerOfTwoAtMost(perDevice()), trial, ruledOut);
        result.fittedMicroBatch = found.microBatch;
        result.trialSteps = found.trials;
    }
    result.microBatch = result.fittedMicroBatch;
    if (!result.feasible()) {
        result.notes.push_back("a micro-batch of 1 does not fit");
        return result;
    }
    // A micro-batch that fitted once in the search can still run out of memory in the longer
    // timed run (allocator fragmentation near the limit): halve it and time again, saying so.
    while (result.fittedMicroBatch >= 1) {
        result.microBatch = result.fittedMicroBatch; // timeAt may split the batch more evenly
        bool fits = true;
        try {
            timeAt(configuration, *step, result);
        } catch (const std::exception& e) {
            if (!isOutOfMemory(e))
                throw;
            fits = false;
        }
        if (agree.everywhere(fits))
            break;
        step->dropGraph();
        step->discardGradients();
        clock.releaseCachedMemory();
        if (fusedAttentionInstead(result.microBatch))
            continue; // the same micro-batch again, with the attention that holds no scores
        // No search ran under --micro-batch: a halved one is still the user's, halved.
        const bool usersOwn = options.microBatch && result.microBatch == *options.microBatch;
        result.notes.push_back("micro-batch " + std::to_string(result.microBatch)
            + (usersOwn                  ? std::string(" (--micro-batch) ran out of memory")
                    : options.microBatch ? " (halved from --micro-batch "
                        + std::to_string(*options.microBatch) + ") ran out of memory"
                                         : std::string(" ran out of memory after the search "
                                                       "fitted it")));
        result.fittedMicroBatch /= 2;
        result.microBatch = result.fittedMicroBatch;
    }
    if (result.failure) {
        if (sharded)
            sharded->restoreModel();
        return result;
    }
    if (!result.feasible()) {
        result.notes.push_back("a micro-batch of 1 does not fit");
        return result;
    }
    // A memory model needs peaks at two micro-batches: the search usually left several; a
    // fixed micro-batch or a target of 1 leaves one, so one more step at half (or twice) it.
    if (result.memorySamples.size() < 2) {
        step->dropGraph();
        const int other = result.microBatch >= 2 ? result.microBatch / 2 : 2;
        if (!recordMemorySample(*step, other, result) || result.memorySamples.size() < 2)
            result.notes.push_back("peak memory measured at one micro-batch only (micro-batch "
                + std::to_string(other) + " does not fit)");
    }
    result.stateBytes = step->stateBytes();
    result.stateBytes.parameters = agree.largest(result.stateBytes.parameters);
    result.stateBytes.gradients = agree.largest(result.stateBytes.gradients);
    result.stateBytes.optimizerState = agree.largest(result.stateBytes.optimizerState);
    if (sharded)
        sharded->restoreModel();
    return result;
}

// Warm-up, timing and validation of one configuration at result.microBatch; fills result.
void ConfigurationRun::timeAt(
    const Configuration& configuration, StepEngine& step, ConfigurationResult& result) const
{
    const torch::Device device = clock.device();
    const bool multiProcess = configuration.parallelism != Parallelism::None;
    // A retry replaces the notes an earlier attempt at another micro-batch left.
    const auto fromEarlierAttempt = [](const std::string& note) {
        for (const char* prefix : { "global batch ", "micro-step replayed", "CUDA graph" })
            if (note.rfind(prefix, 0) == 0)
                return true;
        return false;
    };
    std::erase_if(result.notes, fromEarlierAttempt);
    result.accumulation = (perDevice() + result.microBatch - 1) / result.microBatch;
    // A per-device batch the fitted micro-batch does not divide (1000 with 256 fitting) is split
    // evenly (4 of 250, core's splitEvenly): padding the last one to the fitted size timed 1024
    // samples for 1000, and a batch of 96 at a fitted 64 half as many again. A micro-batch the
    // user fixed is kept, and its padding said; halved after running out of memory, it is no
    // longer the user's and is split too.
    const bool usersOwn = options.microBatch && result.microBatch == *options.microBatch;
    if (!usersOwn && result.accumulation * result.microBatch != perDevice()) {
        const int fitted = result.fittedMicroBatch;
        result.microBatch = splitEvenly(perDevice(), fitted).microBatch;
        const int padded = result.accumulation * result.microBatch - perDevice();
        result.notes.push_back("global batch " + std::to_string(perDevice())
            + (report.gpuCount > 1 ? " per GPU" : "") + " runs as "
            + std::to_string(result.accumulation) + " micro-batches of "
            + std::to_string(result.microBatch) + " (" + std::to_string(fitted)
            + " fitted; it does not divide the batch)"
            + (padded > 0 ? ", " + std::to_string(padded) + " sample(s) of the last padded" : ""));
    } else if (result.accumulation * result.microBatch != perDevice()) {
        result.notes.push_back("global batch " + std::to_string(perDevice())
            + " is not a multiple of the micro-batch: the last micro-step is padded to "
            + std::to_string(result.microBatch) + " and timed so ("
            + std::to_string(result.accumulation * result.microBatch - perDevice())
            + " samples more than training runs)");
    }

    emit(ProgressPhase::Warmup, plan.warmup(), "", result.microBatch, configuration);
    const Batch batch = model.makeBatch(result.microBatch, device);
    for (int i = 0; i < options.warmupSteps; ++i) {
        step.microStep(batch, /*closesStep=*/true);
        step.optimizerStep();
    }
    // The peak of steps as training runs them, after the warm-up's first-use work at this shape
    // (cuDNN's autotuning, the attention trial) where no search met the shape before.
    clock.resetPeakMemory();
    if (!stepIsFinite(step, batch, result))
        return;
    clock.synchronize();
    if (configuration.uses(FreeLunchPart::CudaGraph) && device.is_cuda()) {
        if (auto why = step.captureGraph(batch))
            result.notes.push_back("CUDA graph capture fell back to eager: " + *why);
        else {
            result.notes.push_back("micro-step replayed as a CUDA graph");
            // The graph is captured with autocast's cast cache off (a cached copy would be
            // replayed stale after the update), so each replay casts every weight again: the
            // kept casts are off in this configuration whatever its parts say (helper 61).
            // Only where casts are kept at all: a half-precision recipe (fp32 has no autocast).
            const Precision p = options.recipe.precision;
            if (configuration.uses(FreeLunchPart::KeptCasts)
                && (p == Precision::BF16 || p == Precision::FP16))
                result.notes.push_back("kept casts inactive: the CUDA graph casts each weight in "
                                       "every micro-step");
        }
    }

    // Each sample runs a block of micro-steps back to back, as training does, synchronised only
    // at its end, then closes the step; the step's spread is taken over these samples.
    const int blockLength = blockLengthFor(result.accumulation, options.maxBlockMicroSteps);
    result.blockMicroSteps = blockLength;
    // A sample that already runs the whole step extrapolates nothing: its validation compares
    // two timings of the same work, which tells the noise, not whether extrapolating holds.
    if (options.validateSteps > 0 && blockLength >= result.accumulation)
        result.notes.push_back(result.accumulation == 1
                ? std::string("validation times the same work as the samples (a step of one "
                              "micro-step): it measures noise; a --batch-size above the "
                              "micro-batch, with --block-micro-steps below the accumulation, "
                              "checks an extrapolation")
                : "validation times the same work as the samples (a block of "
                    + std::to_string(blockLength) + " is the whole step of "
                    + std::to_string(result.accumulation)
                    + " micro-steps): it measures noise; --block-micro-steps below "
                    + std::to_string(result.accumulation) + " checks the extrapolation");
    // The results file says how far each step was extrapolated.
    const bool castsApart = step.firstMicroStepCasts() && !multiProcess;
    const int warmBlock = warmBlockFor(blockLength, result.accumulation);
    const int warmInStep = result.accumulation - 2;
    if (blockLength < result.accumulation && castsApart)
        result.notes.push_back(warmBlock < warmInStep
                ? "each sample timed the step's first micro-step (which casts every weight for "
                  "the rest), a block of "
                    + std::to_string(warmBlock)
                    + (warmBlock == 1 ? " warm micro-step" : " warm micro-steps")
                    + " and the last with the update; the step's " + std::to_string(warmInStep)
                    + " warm micro-steps extrapolated from the block (--block-micro-steps "
                    + std::to_string(options.maxBlockMicroSteps) + ")"
                : "each sample timed the step's first micro-step (which casts every weight for "
                  "the rest) apart from its others; nothing extrapolated");
    else if (blockLength < result.accumulation)
        result.notes.push_back("each sample timed " + std::to_string(blockLength)
            + " of the step's " + std::to_string(result.accumulation)
            + " micro-steps and its close; the rest extrapolated (--block-micro-steps "
            + std::to_string(options.maxBlockMicroSteps) + ")");
    // Validation: a whole optimizer step of every micro-step, timed as one.
    const auto timeFullStep = [&] {
        return timed([&] {
            for (int a = 0; a < result.accumulation; ++a)
                step.run(batch, /*closesStep=*/a + 1 == result.accumulation);
            step.optimizerStep();
        });
    };

    // The validation steps alternate with the timed samples: run after them, they met another
    // phase of a shared machine (a neighbour's load, a clock change) and the comparison measured
    // that drift, not the extrapolation. Both go on until they add up to the minimum time, so a
    // step of milliseconds is not judged on three noisy samples. Every time is the slowest
    // rank's, so all ranks take the same number of steps.
    const std::string validating = options.validateSteps > 0 ? ", alternating with full steps of "
            + std::to_string(result.accumulation) + " micro-steps to validate"
                                                             : "";
    emit(ProgressPhase::Measure, plan.measure(), "timed samples" + validating, result.microBatch,
        configuration);
    constexpr std::size_t kMostSteps = 1000;
    const auto wanted = [&](std::size_t taken, int atLeast, double seconds) {
        return taken < static_cast<std::size_t>(atLeast)
            || (seconds < options.minMeasureSeconds && taken < kMostSteps);
    };
    std::vector<StepSample> samples;
    std::vector<double> fullSteps;
    double sampledSeconds = 0.0;
    double validatedSeconds = 0.0;
    bool validatePhaseShown = false;
    const auto moreSamples
        = [&] { return wanted(samples.size(), options.stepsMeasured, sampledSeconds); };
    const auto moreValidation = [&] {
        return options.validateSteps > 0
            && wanted(fullSteps.size(), options.validateSteps, validatedSeconds);
    };
    // Interleaved by time, not by count: a sample of a short block takes a fraction of a full
    // step, so one of each per turn left most samples to run after the validation had ended,
    // on their own, and a drift of the machine into the comparison. The one behind in time
    // goes next.
    while (moreSamples() || moreValidation()) {
        const bool sampleNext
            = moreSamples() && (!moreValidation() || sampledSeconds <= validatedSeconds);
        if (sampleNext) {
            samples.push_back(
                timeSample(step, batch, result.accumulation, blockLength, multiProcess));
            sampledSeconds += samples.back().timedSeconds;
            continue;
        }
        if (!moreSamples() && !validatePhaseShown) {
            validatePhaseShown = true;
            emit(ProgressPhase::Validate, plan.validate(), "the remaining full steps",
                result.microBatch, configuration);
        }
        fullSteps.push_back(timeFullStep());
        validatedSeconds += fullSteps.back();
    }
    result.timedSamples = static_cast<int>(samples.size());
    result.validationSteps = static_cast<int>(fullSteps.size());
    const StepTiming timing = stepTimingOf(samples, result.accumulation);
    result.forwardBackward = timing.microStep;
    result.optimizerStep = timing.optimizer;
    result.step = timing.step;
    result.stepRun = timing.stepRun;
    const double daysPerStepSecond = static_cast<double>(options.recipe.steps) / kSecondsPerDay;
    result.trainingDays = scaled(result.step, daysPerStepSecond);
    result.trainingDaysRun = scaled(result.stepRun, daysPerStepSecond);
    // The mean step, which the planner prices (a run of N steps takes N x it), not the median:
    // the file's utilisation is then the planner's.
    if (const auto peak = report.device.peakFor(options.recipe.precision))
        result.utilization
            = report.flopsPerStep / (result.stepRun.mean * report.gpuCount * *peak * 1e12);
    if (!fullSteps.empty()) {
        // Means on both sides: the extrapolated mean step is what the planner prices, and the
        // full steps' mean is what a run takes. Until 2026-11-28 the medians were compared; a
        // sample scaled from a block of micro-steps (x accumulation / block) keeps its
        // micro-steps' skew, which a real sum of them averages out, so the extrapolated median
        // sits below the full steps' median while the means agree (lognormal micro-step noise
        // of sigma 0.2, blocks of 1 of 4: -1.4 % on the medians, +0.03 % on the means; helper
        // 61). The interleaving by time keeps a disturbance of the machine on both sides.
        double sum = 0.0;
        for (const double seconds : fullSteps)
            sum += seconds;
        const double measured = sum / static_cast<double>(fullSteps.size());
        result.validatedStepSeconds = measured;
        result.validationError = std::abs(result.stepRun.mean - measured) / measured;
    }
    if (auto* sharded = dynamic_cast<distributed::ShardedStep*>(&step))
        timeCommunication(*sharded, batch, result);
    result.peakMemoryBytes = agree.largest(clock.peakMemoryBytes());
    const auto atThisBatch
        = [&](const MemorySample& s) { return s.microBatch == result.microBatch; };
    if (std::none_of(result.memorySamples.begin(), result.memorySamples.end(), atThisBatch)) {
        result.memorySamples.push_back({ result.microBatch, result.peakMemoryBytes });
        std::sort(result.memorySamples.begin(), result.memorySamples.end(),
            [](const auto& a, const auto& b) { return a.microBatch < b.microBatch; });
    }
    recordMicroStepTimes(step, result);
    // Once more after the timed steps: a loss that diverged while they ran fails too.
    stepIsFinite(step, batch, result);
}

// One timed sample: a block of micro-steps back to back, as training runs them, then the step's
// close, synchronised only at the end. Multi-process steps close separately: the block's
// micro-steps are plain, and closing is one more micro-step with the overlapped gradient
// synchronisation, the update and the parameter gather, less a plain micro-step of the block, so
// that block / length x accumulation + close is the real step.
StepSample ConfigurationRun::timeSample(StepEngine& step, const Batch& batch, int accumulation,
    int blockLength, bool closingSeparately) const
{
    StepSample sample;
    sample.blockLength = blockLength;
    if (!closingSeparately && step.firstMicroStepCasts() && blockLength < accumulation) {
        // At most the step's own warm micro-steps (accumulation - 2), at least one to time.
        blockLength = warmBlockFor(blockLength, accumulation);
        sample.blockLength = blockLength;
        // Casts kept for the step: its first micro-step casts every weight, the rest reuse the
        // copies. Timed from the step's start, the block held that cast once and the scaling
        // counted it accumulation / block times (+8-17 % on the CPU at --block-micro-steps 1;
        // review). So one timed region of three parts: the first micro-step, the block of warm
        // micro-steps, the last micro-step with the update. The step is first + (accumulation -
        // 2) warm + last with the update, which block / length x accumulation + optimizerSeconds
        // gives where optimizerSeconds is first + last with the update - 2 warm.
        const auto seconds = clock.timeParts({ [&] { step.run(batch); },
            [&] {
                for (int a = 0; a < blockLength; ++a)
                    step.run(batch);
            },
            [&] {
                step.run(batch, /*closesStep=*/true);
                step.optimizerStep();
            } });
        sample.blockSeconds = agree.slowest(seconds[1]);
        sample.optimizerSeconds
            = agree.slowest(seconds[0] + seconds[2]) - 2.0 * sample.blockSeconds / blockLength;
        sample.timedSeconds = seconds[0] + seconds[1] + seconds[2];
        return sample;
    }
    if (!closingSeparately) {
        // One timed region with an event between the block and the update, as a full step
        // runs them. Until 2026-11-26 they were timed apart, so the update started from an idle
        // device and paid its launches: for steps of milliseconds (the tiny models on the H100,
        // validation errors of 5-7.5%) likely a visible bias; not yet re-measured on a GPU.
        const auto block = [&] {
            for (int a = 0; a < blockLength; ++a)
                step.run(batch, /*closesStep=*/a + 1 == accumulation);
        };
        const auto seconds = clock.timeParts({ block, [&] { step.optimizerStep(); } });
        sample.blockSeconds = agree.slowest(seconds[0]);
        sample.optimizerSeconds = agree.slowest(seconds[1]);
        sample.timedSeconds = sample.blockSeconds + sample.optimizerSeconds;
        return sample;
    }
    // One timed region here too, the close queued behind the block: until 2026-11-28 they
    // were timed apart, with a host synchronisation and the ranks' agreement between, so the
    // close started from an idle device (the bias the single-process path lost on 2026-11-26).
    const auto seconds = clock.timeParts({ [&] {
                                              for (int a = 0; a < blockLength; ++a)
                                                  step.run(batch);
                                          },
        [&] {
            step.run(batch, /*closesStep=*/true);
            step.optimizerStep();
        } });
    sample.blockSeconds = agree.slowest(seconds[0]);
    // The close is the slowest rank's whole sample less the slowest block: a rank whose block
    // ended early waits in the close's collective for the slow one, so the slowest close alone
    // held that gap on top of the slowest block (ranks at 1.00 and 1.10 s a micro-step, 0.20 s
    // to close: 4.70 s for a step of 4.60; helper 62). Not clipped at 0: a close that timed
    // faster than a plain micro-step is noise that averages out over the samples, and clipping
    // only ever added time to the step (stepTimingOf clips the optimizer's own spread for
    // display).
    const double closing = agree.slowest(seconds[0] + seconds[1]) - sample.blockSeconds;
    sample.optimizerSeconds = closing - sample.blockSeconds / blockLength;
    sample.timedSeconds = sample.blockSeconds + closing;
    return sample;
}

// The compute a step would take alone (collectives replaced by local copies), the step's
// collectives alone, and what they move: what a planner needs to estimate other GPU counts.
void ConfigurationRun::timeCommunication(
    distributed::ShardedStep& step, const Batch& batch, ConfigurationResult& result) const
{
    auto& communicator = *options.communicator;
    CommunicationResult comm;
    // Sampled as the step itself was (timeSample), so that compute alone and the whole step
    // compare like with like: micro-steps timed one by one from an idle device run slower than
    // back to back. As many samples too: the step's median over the dozens --min-time takes,
    // against compute's over three, let compute come out longer than the whole step.
    const int blockLength = blockLengthFor(result.accumulation, options.maxBlockMicroSteps);
    const int samples = std::max(options.stepsMeasured, result.timedSamples);
    std::vector<StepSample> local;
    {
        const distributed::LocalOnlyScope computeAlone(&communicator);
        for (int i = 0; i < samples; ++i)
            local.push_back(timeSample(
                step, batch, result.accumulation, blockLength, /*closingSeparately=*/true));
    }
    const StepTiming computeAlone = stepTimingOf(local, result.accumulation);
    comm.computeSeconds = computeAlone.step;
    const Parallelism strategy = result.configuration.parallelism;
    if (strategy == Parallelism::Ddp || strategy == Parallelism::Zero3)
        comm.optimizerComputeSeconds = computeAlone.optimizer;

    std::vector<double> alone;
    communicator.resetCount();
    step.communicateOnly(result.accumulation);
    const distributed::CommunicationCount count = communicator.count();
    for (int i = 0; i < samples; ++i)
        alone.push_back(timed([&] { step.communicateOnly(result.accumulation); }));
    communicator.resetCount();
    comm.seconds = spreadOf(alone);
    comm.bytes = count.bytes;
    comm.busBytes = count.busBytes;
    if (comm.seconds.median > 0.0 && communicator.worldSize() > 1)
        comm.busBandwidth = static_cast<double>(comm.busBytes) / comm.seconds.median;
    result.communication = comm;
}

} // namespace

std::vector<Configuration> configurationsFor(const std::string& methods,
    const std::vector<bool>& checkpointing, const std::vector<bool>& offload, bool cuda,
    const std::vector<Parallelism>& strategies, const std::vector<FreeLunchPart>& withheld)
{
    std::vector<Configuration> configurations;
    for (const Parallelism p : strategies) {
        if (methods == "naive" || methods == "all")
            configurations.push_back({ Method::Naive, false, false, p });
        if (methods == "free-lunch" || methods == "all") {
            for (const bool ckpt : checkpointing)
                for (const bool off : offload)
                    if (!off || cuda)
                        configurations.push_back({ Method::FreeLunch, ckpt, off, p, withheld });
        }
    }
    return configurations;
}

RunReport runBenchmark(const RunOptions& options, RunReport report, const ProgressSink& progress,
    const ReportSink& onUpdate)
{
    const torch::Device device = options.device.isCuda()
        ? torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(options.device.index))
        : torch::Device(torch::kCPU);
    if (!device.is_cuda()) {
        cpu_memory::install();
        cpu_memory::setLimit(options.memoryLimitBytes);
    }
    torch::manual_seed(options.seed);
    progress({ ProgressPhase::Start, "", std::nullopt, 0.0,
        report.model.id + " on " + std::to_string(report.gpuCount) + " x " + report.device.name
            + ", " + std::to_string(options.configurations.size()) + " configuration(s)" });

    progress({ ProgressPhase::Build, "", std::nullopt, 0.0, "building " + report.model.name });
    std::shared_ptr<TrainableModel> model;
    bool built = true;
    try {
        model = makeModel(options.model, options.recipe);
        model->to(device);
    } catch (const std::exception& e) {
        if (!isOutOfMemory(e))
            throw;
        built = false;
    }
    if (!Agreement { options.communicator }.everywhere(built))
        throw std::runtime_error("the model's weights alone do not fit on " + report.device.name
            + (options.memoryLimitBytes ? " within its --memory-limit of "
                        + std::to_string(*options.memoryLimitBytes) + " bytes"
                                        : std::string()));
    if (options.prepareModel)
        options.prepareModel(*model);
    model->train();
    // Every rank built the same weights from the seed; the batches differ per rank, as the
    // shards of a real global batch do.
    if (options.communicator)
        torch::manual_seed(
            options.seed + 1 + static_cast<std::uint64_t>(options.communicator->rank()));

    const DeviceClock clock(device);
    const PercentPlan plan(options.configurations.size(), options.validateSteps > 0);
    const int perDevice = options.recipe.globalBatch / report.gpuCount;
    const int target = largestPowerOfTwoAtMost(perDevice);
    std::optional<std::int64_t> capacity = options.memoryLimitBytes;
    if (device.is_cuda())
        capacity = report.device.memoryBytes;
    for (std::size_t i = 0; i < options.configurations.size(); ++i) {
        const Configuration& configuration = options.configurations[i];
        ConfigurationResult result;
        const SkipDecision skip = options.pruneSearch && !options.microBatch
            ? decideSkip(configuration, report.configurations, target, capacity)
            : SkipDecision {};
        if (skip.skip) {
            result.configuration = configuration;
            result.skipped = true;
            result.notes.push_back(skip.reason);
            ++report.search.configurationsSkipped;
            report.search.exhaustiveTrialSteps += doublingTrials(target, skip.dominatingMicroBatch);
        } else {
            const ConfigurationRun run { options, report, *model, clock, progress, plan, i,
                capacity };
            forgetTimedChoiceUse(); // the choices earlier configurations used
            result = run.measure(configuration);
            if (result.feasible())
                for (auto& note : takeTimedChoiceNotes(result.microBatch))
                    result.notes.push_back(std::move(note));
            report.search.trialSteps += result.trialSteps;
            if (!options.microBatch)
                report.search.exhaustiveTrialSteps
                    += doublingTrials(target, result.fittedMicroBatch);
        }
        report.configurations.push_back(result);
        const std::string summary = result.skipped ? configuration.label() + ": " + skip.reason
            : result.failure                       ? configuration.label() + ": " + *result.failure
            : result.feasible()
            ? result.name() + ": " + std::to_string(result.stepRun.mean) + " s per step (mean)"
            : configuration.label() + ": does not fit";
        progress({ ProgressPhase::ConfigurationDone, configuration.label(),
            result.feasible() ? std::optional<int>(result.microBatch) : std::nullopt,
            plan.at(i + 1, 0.0), summary });
        onUpdate(report);
    }
    // Profiled last: no timing may follow a profiling session (step_profile.h).
    if (options.timeBreakdown)
        for (auto& result : report.configurations) {
            if (!result.feasible())
                continue;
            if (options.communicator)
                result.notes.push_back("time breakdown: taken in single-process runs only");
            else
                result.timeBreakdown
                    = profileStep(*model, result, options.recipe, clock, result.notes);
        }
    report.complete = true;
    onUpdate(report);
    const auto* best = report.best();
    progress({ ProgressPhase::Done, best ? best->name() : "", std::nullopt, 100.0,
        best ? "best: " + best->name() : "no configuration fits" });
    return report;
}

} // namespace gpuplan::bench

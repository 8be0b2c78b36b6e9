#include "benchmark/runner.h"

#include "benchmark/batch_search.h"
#include "benchmark/cpu_memory.h"
#include "benchmark/device_clock.h"
#include "benchmark/models/model_factory.h"
#include "benchmark/training_step.h"

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

bool isOutOfMemory(const std::exception& e)
{
    if (dynamic_cast<const c10::OutOfMemoryError*>(&e))
        return true;
    // The autograd engine may rethrow a device error from its own thread as c10::Error.
    const std::string what = e.what();
    return what.find("out of memory") != std::string::npos
        || what.find("CPU memory limit") != std::string::npos;
}

int largestPowerOfTwoAtMost(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

struct ConfigurationRun {
    const RunOptions& options;
    const RunReport& report;
    TrainableModel& model;
    const DeviceClock& clock;
    const ProgressSink& progress;
    PercentPlan plan;
    std::size_t index;

    void emit(const std::string& phase, double fraction, const std::string& message,
        std::optional<int> microBatch, const Configuration& c) const
    {
        progress({ phase, c.label(), microBatch, plan.at(index, fraction), message });
    }

    ConfigurationResult measure(const Configuration& configuration) const;
    void timeAt(
        const Configuration& configuration, TrainingStep& step, ConfigurationResult& result) const;
};

ConfigurationResult ConfigurationRun::measure(const Configuration& configuration) const
{
    ConfigurationResult result;
    result.configuration = configuration;
    const torch::Device device = clock.device();
    for (auto& p : model.parameters())
        p.mutable_grad() = torch::Tensor(); // the previous configuration's buffers go first
    clock.releaseCachedMemory();
    clock.resetPeakMemory();

    std::unique_ptr<TrainingStep> step;
    try {
        step = std::make_unique<TrainingStep>(
            model, configuration, options.recipe, device, result.notes);
    } catch (const std::exception& e) {
        if (!isOutOfMemory(e))
            throw;
        result.notes.push_back("gradients and optimizer state alone do not fit");
        return result;
    }

    const int perDevice = options.recipe.globalBatch / report.gpuCount;
    auto trial = [&](int microBatch) {
        emit("search", plan.search(), "trying micro-batch " + std::to_string(microBatch),
            microBatch, configuration);
        try {
            const Batch batch = model.makeBatch(microBatch, device);
            step->microStep(batch);
            step->optimizerStep();
            clock.synchronize();
            return true;
        } catch (const std::exception& e) {
            if (!isOutOfMemory(e))
                throw;
        }
        // Out of memory: drop what the failed step left and give the cache back.
        for (auto& p : model.parameters())
            p.mutable_grad().zero_();
        clock.releaseCachedMemory();
        return false;
    };

    if (options.microBatch) {
        result.microBatch = *options.microBatch;
    } else {
        const BatchSearchResult found = searchMicroBatch(largestPowerOfTwoAtMost(perDevice), trial);
        result.microBatch = found.microBatch;
        result.trialSteps = found.trials;
    }
    if (!result.feasible()) {
        result.notes.push_back("a micro-batch of 1 does not fit");
        return result;
    }
    // A micro-batch that fitted once in the search can still run out of memory in the longer
    // timed run (allocator fragmentation near the limit): halve it and time again, saying so.
    while (result.microBatch >= 1) {
        try {
            timeAt(configuration, *step, result);
            break;
        } catch (const std::exception& e) {
            if (!isOutOfMemory(e))
                throw;
        }
        step->dropGraph();
        for (auto& p : model.parameters())
            p.mutable_grad().zero_();
        clock.releaseCachedMemory();
        result.notes.push_back("micro-batch " + std::to_string(result.microBatch)
            + " ran out of memory after the search fitted it");
        result.microBatch /= 2;
    }
    if (!result.feasible())
        result.notes.push_back("a micro-batch of 1 does not fit");
    return result;
}

// Warm-up, timing and validation of one configuration at result.microBatch; fills result.
void ConfigurationRun::timeAt(
    const Configuration& configuration, TrainingStep& step, ConfigurationResult& result) const
{
    const torch::Device device = clock.device();
    const int perDevice = options.recipe.globalBatch / report.gpuCount;
    // A retry replaces the notes an earlier attempt at another micro-batch left.
    const auto fromEarlierAttempt = [](const std::string& note) {
        for (const char* prefix : { "global batch ", "micro-step replayed", "CUDA graph capture" })
            if (note.rfind(prefix, 0) == 0)
                return true;
        return false;
    };
    std::erase_if(result.notes, fromEarlierAttempt);
    result.accumulation = (perDevice + result.microBatch - 1) / result.microBatch;
    if (result.accumulation * result.microBatch != perDevice)
        result.notes.push_back("global batch " + std::to_string(perDevice)
            + " is not a multiple of the micro-batch: the last micro-step is padded");

    emit("warmup", plan.warmup(), "", result.microBatch, configuration);
    clock.resetPeakMemory();
    const Batch batch = model.makeBatch(result.microBatch, device);
    for (int i = 0; i < options.warmupSteps; ++i) {
        step.microStep(batch);
        step.optimizerStep();
    }
    clock.synchronize();
    if (configuration.method == Method::FreeLunch && device.is_cuda()) {
        if (auto why = step.captureGraph(batch))
            result.notes.push_back("CUDA graph capture fell back to eager: " + *why);
        else
            result.notes.push_back("micro-step replayed as a CUDA graph");
    }

    emit("measure", plan.measure(), "", result.microBatch, configuration);
    std::vector<double> forwardBackward, optimizer;
    for (int i = 0; i < options.stepsMeasured; ++i)
        forwardBackward.push_back(clock.time([&] { step.run(batch); }));
    for (int i = 0; i < options.stepsMeasured; ++i)
        optimizer.push_back(clock.time([&] { step.optimizerStep(); }));
    result.forwardBackward = spreadOf(forwardBackward);
    result.optimizerStep = spreadOf(optimizer);
    result.step = combine(result.forwardBackward, result.accumulation, result.optimizerStep);
    result.trainingDays
        = scaled(result.step, static_cast<double>(options.recipe.steps) / kSecondsPerDay);
    if (const auto peak = report.device.peakFor(options.recipe.precision))
        result.utilization
            = report.flopsPerStep / (result.step.median * report.gpuCount * *peak * 1e12);

    if (options.validateSteps > 0) {
        emit("validate", plan.validate(),
            std::to_string(options.validateSteps) + " full steps of "
                + std::to_string(result.accumulation) + " micro-steps",
            result.microBatch, configuration);
        std::vector<double> fullSteps;
        for (int i = 0; i < options.validateSteps; ++i) {
            fullSteps.push_back(clock.time([&] {
                for (int a = 0; a < result.accumulation; ++a)
                    step.run(batch);
                step.optimizerStep();
            }));
        }
        // The median, like the extrapolation, so one step disturbed by another process does
        // not count as an extrapolation error.
        const double measured = spreadOf(fullSteps).median;
        result.validatedStepSeconds = measured;
        result.validationError = std::abs(result.step.median - measured) / measured;
    }
    result.peakMemoryBytes = clock.peakMemoryBytes();
}

} // namespace

std::vector<Configuration> configurationsFor(const std::string& methods,
    const std::vector<bool>& checkpointing, const std::vector<bool>& offload, bool cuda)
{
    std::vector<Configuration> configurations;
    if (methods == "naive" || methods == "all")
        configurations.push_back({ Method::Naive, false, false });
    if (methods == "free-lunch" || methods == "all") {
        for (const bool ckpt : checkpointing)
            for (const bool off : offload)
                if (!off || cuda)
                    configurations.push_back({ Method::FreeLunch, ckpt, off });
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
    progress({ "start", "", std::nullopt, 0.0,
        report.model.id + " on " + report.device.name + ", "
            + std::to_string(options.configurations.size()) + " configuration(s)" });

    progress({ "build", "", std::nullopt, 0.0, "building " + report.model.name });
    std::shared_ptr<TrainableModel> model;
    try {
        model = makeModel(options.model, options.recipe);
        model->to(device);
    } catch (const std::exception& e) {
        if (!isOutOfMemory(e))
            throw;
        throw std::runtime_error("the model's weights alone do not fit on " + report.device.name);
    }
    model->train();

    const DeviceClock clock(device);
    const PercentPlan plan(options.configurations.size(), options.validateSteps > 0);
    for (std::size_t i = 0; i < options.configurations.size(); ++i) {
        const ConfigurationRun run { options, report, *model, clock, progress, plan, i };
        ConfigurationResult result = run.measure(options.configurations[i]);
        report.configurations.push_back(result);
        const std::string summary = result.feasible()
            ? result.name() + ": " + std::to_string(result.step.median) + " s per step"
            : options.configurations[i].label() + ": does not fit";
        progress({ "configuration_done", options.configurations[i].label(),
            result.feasible() ? std::optional<int>(result.microBatch) : std::nullopt,
            plan.at(i + 1, 0.0), summary });
        onUpdate(report);
    }
    report.complete = true;
    onUpdate(report);
    const auto* best = report.best();
    progress({ "done", best ? best->name() : "", std::nullopt, 100.0,
        best ? "best: " + best->name() : "no configuration fits" });
    return report;
}

} // namespace gpuplan::bench

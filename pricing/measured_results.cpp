#include "pricing/measured_results.h"

#include "core/limits.h"
#include "pricing/catalog_loader.h"
#include "pricing/yaml_reader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>

namespace gpuplan {

namespace {

using yaml::Range;

// Wide plausibility bounds: they catch unit mix-ups and corrupted files, not slow hardware.
constexpr Range kSeconds { 0.0, 1e7 };
// A step takes time: 0 skipped the check of training_days against steps x step.
constexpr Range kStepSeconds { 0.0, 1e7, true };
// A configuration takes some time: 0 days would drop it from every plan without a word. The
// planner's limit (core/limits.h): until 2026-11-28 this reader took 10x more days than every
// other file.
constexpr Range kDays = limits::kTrainingDays.bounds;
constexpr Range kBytes { 0.0, 1e15 };
constexpr Range kUtilization { 0.0, 100.0 }; // > 1 is flagged by core, not rejected here
// Past 1 the extrapolation can only have been too long (it is positive), so only the range's
// low end widens (core/estimators.cpp): such a file is read, not refused.
constexpr Range kRelativeError { 0.0, 1e3 };
// The recipe's limits are the planner's (gpuplan-bench refuses what they refuse).
constexpr Range kBatch = limits::kBatch.bounds;
constexpr Range kGpuCount = limits::kGpuCount.bounds;
constexpr Range kParameters = limits::kParameters.bounds;
constexpr Range kFlops = limits::kTrainingFlops.bounds;
constexpr Range kSteps = limits::kSteps.bounds;
constexpr Range kTokensOrPixels = limits::kTokensOrPixels.bounds;
constexpr Range kTrialSteps { 0.0, 1e6 };
constexpr Range kSampleCount { 1.0, 1e6 };
constexpr Range kTflops { 0.001, 1e5 };
constexpr Range kBandwidth { 0.0, 1e15 }; // bytes per second
constexpr Range kNodes { 1.0, 4096.0 };
constexpr Range kMessageBytes { 1.0, 1e13 };
constexpr std::string_view kKind = "gpuplan-bench-results";
constexpr double kSecondsPerDay = 86400.0;

// A day (YYYY-MM-DD), or a day and a time: THH:MM, seconds and their fraction optional, then
// Z or an offset (+HH:MM) or nothing. A year alone, or "2026-11-22garbage", had passed, as only
// the first ten characters were looked at. The day itself is checked as every date is.
bool isMeasurementTime(const std::string& text)
{
    static const std::regex time(
        R"(\d{4}-\d{2}-\d{2}(T([01]\d|2[0-3]):[0-5]\d(:([0-5]\d|60)(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)");
    return std::regex_match(text, time) && yaml::isIsoDate(std::string_view(text).substr(0, 10));
}

struct Spread {
    double median = 0.0;
    double min = 0.0;
    double max = 0.0;
    // A run's mean step and where it lies (step_seconds and training_days; absent before
    // 2026-11-28, when the median was the point and min..max the range priced).
    std::optional<double> mean, low, high;
};

struct Configuration {
    YAML::Node node; // for the positions of checks made once the whole file is read
    std::string name;
    int microBatch = 0;
    int accumulation = 0;
    std::optional<std::int64_t> blockMicroSteps;
    bool daysRead = false; // training_days parsed (else the error is said once, there)
    Spread days;
    std::optional<double> utilization;
    std::optional<double> validationError;
    // Issue 11's fields; absent in older files.
    Parallelism parallelism = Parallelism::None;
    std::optional<int> gpuCount;
    double stepSeconds = 0.0;
    double stepMedianSeconds = 0.0; // what training_days' median is steps x
    std::optional<double> stepMeanSeconds; // what training_days' mean, the point priced, is steps x
    std::vector<MeasuredMemorySample> memorySamples;
    std::vector<MeasuredMicroStepSample> microStepSamples;
    std::optional<std::int64_t> parameterBytes, gradientBytes, optimizerStateBytes;
    std::optional<double> computeSeconds, communicationSeconds, busBandwidth;
    std::optional<double> optimizerSeconds; // optimizer_step_seconds' median
    bool offload = false; // optimizer_offload: the update ran on the host
    std::optional<double> optimizerComputeSeconds; // optimizer_compute_seconds' median
    std::optional<std::int64_t> communicationBytes;
    std::string withheld; // free-lunch parts an ablation run went without, comma-separated
};

// Reads one results file into a MeasuredLoad; every problem lands in `out.issues`.
class ResultsFileReader {
public:
    ResultsFileReader(const std::string& fileName, const Catalog& catalog, MeasuredLoad& out)
        : m_reader(fileName, out.issues)
        , m_catalog(catalog)
        , m_out(out)
        , m_file(fileName)
    {
    }

    void read(std::string_view text)
    {
        const auto parsed = m_reader.parse(text);
        if (!parsed)
            return;
        // The result and its workload are added last, so a file that fails half-read adds
        // neither.
        m_reader.guarded([&] { readDocument(*parsed); });
    }

private:
    void readDocument(const YAML::Node& root)
    {
        const std::size_t errorsBefore = m_reader.errorCount();
        m_reader.warnUnknownKeys(root,
            { "schema_version", "kind", "tool", "measured_at", "host", "complete", "device",
                "model", "recipe", "interconnect", "search", "configurations", "best" },
            "results file");
        if (const auto kind = m_reader.string(root, "kind", "results file"); kind && *kind != kKind)
            m_reader.error(root["kind"],
                "kind must be '" + std::string(kKind) + "', not '" + *kind
                    + "': not a gpuplan-bench results file");

        MeasuredResult result;
        result.file = m_file;
        result.source = provenance(root);
        device(root, result);
        std::optional<Workload> workload = model(root);
        const std::vector<Configuration> configurations = readConfigurations(root);
        const bool complete = m_reader.boolean(root, "complete", "results file").value_or(false);
        const Configuration* chosen = choose(root, configurations, complete);
        if (workload)
            checkAgainstRecipe(configurations, *workload,
                m_deviceGpuCountRead ? std::optional<int>(result.gpuCount) : std::nullopt);

        if (m_reader.errorCount() != errorsBefore || !workload || !chosen)
            return;
        if (!chosen->withheld.empty())
            m_reader.warning(root["configurations"],
                "configuration '" + chosen->name + "' ran the free lunch without "
                    + chosen->withheld
                    + " (an ablation): its days overstate what the whole free lunch takes");
        result.modelId = workload->id;
        // A run of N steps takes N x its mean step: the point, where the file has it (the range
        // is the mean's); the median before, with min..max.
        result.trainingDays = chosen->days.mean.value_or(chosen->days.median);
        // Files before the run range priced the fastest and slowest single step x steps.
        result.trainingDaysLow = chosen->days.low.value_or(chosen->days.min);
        result.trainingDaysHigh = chosen->days.high.value_or(chosen->days.max);
        result.configuration = chosen->name + " (micro-batch " + std::to_string(chosen->microBatch)
            + ", accumulation " + std::to_string(chosen->accumulation) + ")";
        result.impliedUtilization = chosen->utilization;
        result.validationError = chosen->validationError;
        // A timed block of the whole step: --validate timed the same work again (noise), not an
        // extrapolation from a block to a step.
        result.validationExtrapolated
            = !chosen->blockMicroSteps || *chosen->blockMicroSteps < chosen->accumulation;
        result.parallelism = chosen->parallelism;
        result.microBatch = chosen->microBatch;
        result.accumulation = chosen->accumulation;
        result.stepSeconds = chosen->stepSeconds;
        result.stepMedianSeconds = chosen->stepMedianSeconds;
        result.memorySamples = chosen->memorySamples;
        result.microStepSamples = chosen->microStepSamples;
        result.parameterBytes = chosen->parameterBytes;
        result.gradientBytes = chosen->gradientBytes;
        result.optimizerStateBytes = chosen->optimizerStateBytes;
        result.computeSeconds = chosen->computeSeconds;
        // One process's update is compute alone; several ranks' closes hold their collectives
        // too, so theirs comes from the local-only samples, where the file has them. An
        // offloaded update ran on the host, which a machine's GPUs share: how it scales with
        // them is not modelled, so such a run's compute is scaled whole, as before.
        // A ZeRO-1 or -2 close also gathers the parameters (a copy of most of them when local):
        // its figure, written by builds of 2026-12-03 before the benchmark stopped writing it
        // there, is not the update's.
        // A multi-process run is one with a strategy (its communication fields with it), on
        // one rank too: there optimizer_step_seconds is what closing a step adds to a plain
        // micro-step, not the update (a 1-rank ddp file's 0 had stood for its update unsaid).
        const bool updateAlone
            = chosen->parallelism == Parallelism::Ddp || chosen->parallelism == Parallelism::Zero3;
        const bool severalProcesses
            = chosen->parallelism != Parallelism::None || chosen->computeSeconds.has_value();
        if (!chosen->offload)
            result.optimizerComputeSeconds = !severalProcesses ? chosen->optimizerSeconds
                : updateAlone                                  ? chosen->optimizerComputeSeconds
                                                               : std::nullopt;
        result.communicationSeconds = chosen->communicationSeconds;
        result.communicationBytes = chosen->communicationBytes;
        result.busBandwidth = chosen->busBandwidth;
        interconnect(root, result);
        if (m_reader.errorCount() != errorsBefore)
            return; // a bad interconnect sample had still let the result in
        m_out.results.push_back(std::move(result));
        m_out.workloads.push_back(std::move(*workload));
    }

private:
    Provenance provenance(const YAML::Node& root)
    {
        Provenance p;
        if (auto at = m_reader.string(root, "measured_at", "results file")) {
            p.date = at->substr(0, std::min<std::size_t>(at->size(), 10));
            if (!isMeasurementTime(*at))
                m_reader.error(root["measured_at"],
                    "measured_at must be an ISO 8601 time such as "
                    "2026-11-22T18:30:00Z, not '"
                        + *at + "'");
        }
        std::string tool = "gpuplan-bench";
        if (const YAML::Node t = root["tool"]; t && m_reader.expectMap(t, "tool")) {
            if (auto version = m_reader.string(t, "version", "tool", /*required=*/false))
                tool += " " + *version;
            if (auto torch = m_reader.string(t, "libtorch", "tool", /*required=*/false))
                tool += ", LibTorch " + *torch;
        }
        const std::string host = m_reader.string(root, "host", "results file", false).value_or("");
        p.source = tool + (host.empty() ? "" : " on " + host) + " (" + m_file + ")";
        return p;
    }

    void device(const YAML::Node& root, MeasuredResult& result)
    {
        const YAML::Node d = root["device"];
        if (!d) {
            m_reader.error(root, "results file is missing 'device'");
            return;
        }
        if (!m_reader.expectMap(d, "device"))
            return;
        m_reader.warnUnknownKeys(d,
            { "kind", "name", "gpu_id", "memory_bytes", "compute_capability", "peak_tflops",
                "gpu_count", "node_count" },
            "device");
        result.deviceName = m_reader.string(d, "name", "device").value_or("");
        result.gpuId = m_reader.string(d, "gpu_id", "device").value_or("");
        if (!result.gpuId.empty() && !m_catalog.findGpu(result.gpuId))
            m_reader.warning(d["gpu_id"],
                "device gpu_id '" + result.gpuId
                    + "' is not in the GPU table; the measurement "
                      "is shown but cannot be priced");
        else if (const YAML::Node kind = d["kind"]; result.gpuId.empty() && d["gpu_id"]
                 && !(kind && kind.IsScalar() && kind.Scalar() == "cpu"))
            // gpuplan-bench leaves it empty for a GPU the table does not know (and for a CPU,
            // which has no price to look up); a plan said only that nothing was measured.
            m_reader.warning(d["gpu_id"],
                "device '" + result.deviceName
                    + "' has an empty gpu_id: the measurement is shown but cannot be priced "
                      "(set gpu_id to the GPU table's id of this device to price it)");
        const auto gpuCount = m_reader.integer(d, "gpu_count", "device", kGpuCount);
        result.gpuCount = static_cast<int>(gpuCount.value_or(1));
        m_deviceGpuCountRead = gpuCount.has_value();
        const auto nodeCount
            = m_reader.integer(d, "node_count", "device", kNodes, /*required=*/false);
        result.nodeCount = static_cast<int>(nodeCount.value_or(1));
        // Each machine holds a rank: more machines than GPUs had dropped the measurement from
        // the GPU count it timed (a run over machines is never that count's `measured` time).
        if (nodeCount && gpuCount && *nodeCount > *gpuCount)
            m_reader.error(d["node_count"],
                "device node_count (" + std::to_string(*nodeCount) + ") exceeds its gpu_count ("
                    + std::to_string(*gpuCount) + "): every machine runs at least one GPU");
        if (const YAML::Node peak = d["peak_tflops"]; peak && !peak.IsNull())
            m_reader.number(peak, "peak_tflops of device", kTflops);
    }

    // The optional `interconnect` section: comm-probe's samples between the run's ranks.
    void interconnect(const YAML::Node& root, MeasuredResult& result)
    {
        const YAML::Node ic = root["interconnect"];
        if (!ic || !m_reader.expectMap(ic, "interconnect"))
            return;
        m_reader.warnUnknownKeys(
            ic, { "backend", "world_size", "node_count", "notes", "samples" }, "interconnect");
        result.interconnectBackend = m_reader.string(ic, "backend", "interconnect").value_or("");
        // comm-probe runs between the step's own ranks: other ranks, or another machine count,
        // say the file was put together from two runs.
        const auto ranks = m_reader.integer(ic, "world_size", "interconnect", kGpuCount, false);
        if (ranks && m_deviceGpuCountRead && *ranks != result.gpuCount)
            m_reader.error(ic["world_size"],
                "interconnect world_size (" + std::to_string(*ranks)
                    + ") is not the device's gpu_count (" + std::to_string(result.gpuCount)
                    + "): the probe ran between other ranks than the measured steps");
        const auto machines = m_reader.integer(ic, "node_count", "interconnect", kNodes, false);
        if (machines && *machines != result.nodeCount)
            m_reader.error(ic["node_count"],
                "interconnect node_count (" + std::to_string(*machines)
                    + ") is not the device's node_count (" + std::to_string(result.nodeCount)
                    + "): the probe ran between other machines than the measured steps");
        const YAML::Node samples = ic["samples"];
        if (!samples || !m_reader.expectSequence(samples, "samples of interconnect"))
            return;
        for (const YAML::Node& s : samples) {
            if (!m_reader.expectMap(s, "interconnect sample"))
                continue;
            const std::string what = "interconnect sample";
            m_reader.warnUnknownKeys(s,
                { "collective", "bytes", "seconds", "algbw_bytes_per_second",
                    "busbw_bytes_per_second" },
                what);
            MeasuredCollective c;
            const auto collective = m_reader.string(s, "collective", what);
            c.collective = collective.value_or("");
            if (collective && c.collective != "all_reduce" && c.collective != "reduce_scatter"
                && c.collective != "all_gather")
                m_reader.error(s["collective"],
                    "collective must be all_reduce, reduce_scatter or all_gather, not '"
                        + c.collective + "'");
            c.bytes = m_reader.integer(s, "bytes", what, kMessageBytes).value_or(0);
            c.seconds = m_reader.number(s, "seconds", what, kSeconds).value_or(0.0);
            m_reader.number(s, "algbw_bytes_per_second", what, kBandwidth);
            c.busBandwidth
                = m_reader.number(s, "busbw_bytes_per_second", what, kBandwidth).value_or(0.0);
            result.interconnect.push_back(std::move(c));
        }
    }

    // Issue 11's per-configuration fields: parallelism, peaks at several micro-batches, state
    // and communication per rank. All optional, so older files load as before.
    void readScaling(const YAML::Node& c, const std::string& what, Configuration& conf)
    {
        if (const auto p = m_reader.string(c, "parallelism", what, /*required=*/false)) {
            if (const auto parsed = parallelismFromString(*p))
                conf.parallelism = *parsed;
            else
                m_reader.error(c["parallelism"],
                    "parallelism must be none, ddp, zero1, zero2 or zero3, not '" + *p + "'");
        }
        if (const auto n = m_reader.integer(c, "gpu_count", what, kGpuCount, false))
            conf.gpuCount = static_cast<int>(*n);
        if (const YAML::Node samples = c["memory_samples"];
            samples && m_reader.expectSequence(samples, "memory_samples of " + what)) {
            for (const YAML::Node& s : samples) {
                if (!m_reader.expectMap(s, "memory sample of " + what))
                    continue;
                const auto mbs = m_reader.integer(s, "micro_batch_size", what, kBatch);
                const auto peak = m_reader.integer(s, "peak_memory_bytes", what, kBytes);
                if (mbs && peak)
                    conf.memorySamples.push_back({ static_cast<int>(*mbs), *peak });
            }
            std::sort(conf.memorySamples.begin(), conf.memorySamples.end(),
                [](const auto& a, const auto& b) { return a.microBatch < b.microBatch; });
        }
        if (const YAML::Node samples = c["micro_step_samples"];
            samples && m_reader.expectSequence(samples, "micro_step_samples of " + what)) {
            for (const YAML::Node& s : samples) {
                if (!m_reader.expectMap(s, "micro-step sample of " + what))
                    continue;
                const std::string sample = "micro_step_samples of " + what;
                const auto mbs = m_reader.integer(s, "micro_batch_size", sample, kBatch);
                const auto seconds = m_reader.number(s, "seconds", sample, kSeconds);
                if (mbs && seconds)
                    conf.microStepSamples.push_back({ static_cast<int>(*mbs), *seconds });
            }
            std::sort(conf.microStepSamples.begin(), conf.microStepSamples.end(),
                [](const auto& a, const auto& b) { return a.microBatch < b.microBatch; });
        }
        if (const YAML::Node state = c["state_bytes"];
            state && m_reader.expectMap(state, "state_bytes of " + what)) {
            const std::string inner = "state_bytes of " + what;
            m_reader.warnUnknownKeys(
                state, { "parameters", "gradients", "optimizer_state" }, inner);
            conf.parameterBytes = m_reader.integer(state, "parameters", inner, kBytes, false);
            conf.gradientBytes = m_reader.integer(state, "gradients", inner, kBytes, false);
            conf.optimizerStateBytes
                = m_reader.integer(state, "optimizer_state", inner, kBytes, false);
        }
        if (c["compute_seconds"])
            if (const auto s = spread(c, "compute_seconds", what, kSeconds))
                conf.computeSeconds = s->median;
        if (c["optimizer_compute_seconds"])
            if (const auto s = spread(c, "optimizer_compute_seconds", what, kSeconds))
                conf.optimizerComputeSeconds = s->median;
        if (c["communication_seconds"])
            if (const auto s = spread(c, "communication_seconds", what, kSeconds))
                conf.communicationSeconds = s->median;
        conf.communicationBytes = m_reader.integer(c, "communication_bytes", what, kBytes, false);
        const auto busBytes = m_reader.integer(c, "bus_bytes", what, kBytes, false);
        conf.busBandwidth = optionalNumber(c, "bus_bandwidth_bytes_per_second", what, kBandwidth);
        // It is their quotient (gpuplan-bench writes all three); the bounds alone let a figure
        // in GB/s through, priced as bytes/s (8 GPUs at 3.7e-07 GB/s: 31 million days).
        if (conf.busBandwidth && busBytes && *busBytes > 0 && conf.communicationSeconds
            && *conf.communicationSeconds > 0.0) {
            const double expected = static_cast<double>(*busBytes) / *conf.communicationSeconds;
            if (std::abs(*conf.busBandwidth - expected) > 0.01 * expected) {
                std::ostringstream text;
                text << "bus_bandwidth_bytes_per_second of " << what << " (" << *conf.busBandwidth
                     << ") is not, within 1%, its bus_bytes / communication_seconds median ("
                     << *busBytes << " / " << *conf.communicationSeconds << " s = " << expected
                     << " bytes/s): in other units?";
                m_reader.error(c["bus_bandwidth_bytes_per_second"], text.str());
            }
        }
    }

    // The workload the measurement belongs to: the shipped one if the recipe matches it,
    // otherwise a workload of its own.
    std::optional<Workload> model(const YAML::Node& root)
    {
        const YAML::Node m = root["model"];
        const YAML::Node r = root["recipe"];
        if (!m || !r) {
            m_reader.error(
                root, std::string("results file is missing '") + (m ? "recipe" : "model") + "'");
            return std::nullopt;
        }
        if (!m_reader.expectMap(m, "model") || !m_reader.expectMap(r, "recipe"))
            return std::nullopt;
        m_reader.warnUnknownKeys(
            m, { "id", "name", "family", "parameters", "flops_per_step", "config_file" }, "model");
        m_reader.warnUnknownKeys(r,
            { "global_batch", "steps", "sequence_length", "image_size", "precision", "optimizer" },
            "recipe");
        Workload w;
        const auto id = m_reader.string(m, "id", "model");
        w.id = id.value_or("");
        if (id && id->empty()) // the file was dropped without a word, its measurement lost
            m_reader.error(m["id"], "model id is empty: name the model measured");
        w.name = m_reader.string(m, "name", "model", /*required=*/false).value_or(w.id);
        w.family = m_reader.string(m, "family", "model", /*required=*/false).value_or("");
        w.parameters = m_reader.integer(m, "parameters", "model", kParameters).value_or(0);
        const double flopsPerStep
            = m_reader.number(m, "flops_per_step", "model", kFlops).value_or(0);
        w.globalBatch
            = static_cast<int>(m_reader.integer(r, "global_batch", "recipe", kBatch).value_or(0));
        w.steps = m_reader.integer(r, "steps", "recipe", kSteps).value_or(0);
        w.trainingFlops = flopsPerStep * static_cast<double>(w.steps);
        auto optionalInt = [&](const char* key) -> std::optional<int> {
            if (auto v = m_reader.integer(r, key, "recipe", kTokensOrPixels, /*required=*/false))
                return static_cast<int>(*v);
            return std::nullopt;
        };
        w.sequenceLength = optionalInt("sequence_length");
        w.imageSize = optionalInt("image_size");
        if (auto p = m_reader.string(r, "precision", "recipe")) {
            if (auto precision = precisionFromString(*p))
                w.precision = *precision;
            else
                m_reader.error(r["precision"],
                    "unknown precision '" + *p + "' in recipe (fp32, tf32, fp16, bf16)");
        }
        w.optimizer = m_reader.string(r, "optimizer", "recipe", /*required=*/false).value_or("");
        w.source = { "", "recipe measured by gpuplan-bench (" + m_file + ")", "" };
        if (w.id.empty())
            return std::nullopt;

        const Workload* shipped = m_catalog.findWorkload(w.id);
        if (shipped && sameRecipe(*shipped, w))
            return *shipped;
        // Another optimizer is another recipe (an --optimizer override was priced as the
        // shipped model); named only where it differs, so other ids stay as they were.
        const bool otherOptimizer = shipped && otherOptimizerThan(*shipped, w);
        if (shipped)
            m_reader.warning(r,
                "recipe differs from the shipped " + shipped->name + " recipe ("
                    + describeRecipe(w, otherOptimizer) + " instead of "
                    + describeRecipe(*shipped, otherOptimizer)
                    + "): listed as a model of its own, not as " + shipped->name);
        w.id += "@" + recipeSlug(w) + (otherOptimizer ? "-" + w.optimizer : "");
        w.name += " (" + describeRecipe(w, otherOptimizer) + ")";
        return w;
    }

    // A file that names no optimizer (written before the field) ran the recipe's own.
    static bool otherOptimizerThan(const Workload& shipped, const Workload& measured)
    {
        return !measured.optimizer.empty() && measured.optimizer != shipped.optimizer;
    }

    static bool sameRecipe(const Workload& a, const Workload& b)
    {
        return a.globalBatch == b.globalBatch && a.steps == b.steps
            && a.sequenceLength == b.sequenceLength && a.imageSize == b.imageSize
            && a.precision == b.precision && !otherOptimizerThan(a, b);
    }

    // A command-line friendly id suffix: "batch8-seq128-steps143000-bf16".
    static std::string recipeSlug(const Workload& w)
    {
        std::string text = "batch" + std::to_string(w.globalBatch);
        if (w.sequenceLength)
            text += "-seq" + std::to_string(*w.sequenceLength);
        if (w.imageSize)
            text += "-px" + std::to_string(*w.imageSize);
        text += "-steps" + std::to_string(w.steps) + "-";
        text += toString(w.precision);
        return text;
    }

    static std::string describeRecipe(const Workload& w, bool withOptimizer)
    {
        std::string text = "batch " + std::to_string(w.globalBatch);
        if (w.sequenceLength)
            text += ", seq " + std::to_string(*w.sequenceLength);
        if (w.imageSize)
            text += ", " + std::to_string(*w.imageSize) + " px";
        text += ", " + std::to_string(w.steps) + " steps, ";
        text += toString(w.precision);
        if (withOptimizer)
            text += ", " + (w.optimizer.empty() ? std::string("no optimizer named") : w.optimizer);
        return text;
    }

    std::optional<Spread> spread(
        const YAML::Node& c, const char* key, const std::string& what, Range range)
    {
        const YAML::Node s = c[key];
        if (!s) {
            m_reader.error(c, what + " is missing '" + key + "'");
            return std::nullopt;
        }
        const std::string inner = std::string(key) + " of " + what;
        if (!m_reader.expectMap(s, inner))
            return std::nullopt;
        const auto median = m_reader.number(s, "median", inner, range);
        const auto min = m_reader.number(s, "min", inner, range);
        const auto max = m_reader.number(s, "max", inner, range);
        if (!median || !min || !max)
            return std::nullopt;
        if (!(*min <= *median && *median <= *max)) {
            m_reader.error(s, inner + " must satisfy min <= median <= max");
            return std::nullopt;
        }
        Spread spread { *median, *min, *max, std::nullopt, std::nullopt, std::nullopt };
        if (!runRange(s, inner, range, spread))
            return std::nullopt;
        return spread;
    }

    // The optional range of a run's mean step (docs/results-format.md): mean, low and high
    // together; low no lower than the fastest step; low..high holding the median and the mean;
    // high may pass the slowest step (few samples).
    bool runRange(const YAML::Node& s, const std::string& inner, Range range, Spread& spread)
    {
        const bool any = s["mean"] || s["low"] || s["high"];
        if (!any)
            return true;
        if (!s["mean"] || !s["low"] || !s["high"]) {
            m_reader.error(s, inner + " must give mean, low and high together, or none of them");
            return false;
        }
        const auto mean = m_reader.number(s, "mean", inner, range);
        const auto low = m_reader.number(s, "low", inner, range);
        const auto high = m_reader.number(s, "high", inner, range);
        if (!mean || !low || !high)
            return false;
        const bool ordered = spread.min <= *low && *low <= std::min(spread.median, *mean)
            && std::max(spread.median, *mean) <= *high && *mean <= spread.max;
        if (!ordered) {
            m_reader.error(s,
                inner
                    + " must satisfy min <= low <= median <= high, low <= mean <= high and "
                      "mean <= max");
            return false;
        }
        spread.mean = mean;
        spread.low = low;
        spread.high = high;
        return true;
    }

    std::optional<double> optionalNumber(
        const YAML::Node& c, const char* key, const std::string& what, Range range)
    {
        const YAML::Node value = c[key];
        if (!value || value.IsNull())
            return std::nullopt;
        return m_reader.number(value, std::string(key) + " of " + what, range);
    }

    std::vector<Configuration> readConfigurations(const YAML::Node& root)
    {
        std::vector<Configuration> out;
        const YAML::Node list = root["configurations"];
        if (!list) {
            m_reader.error(root, "results file is missing 'configurations'");
            return out;
        }
        if (!m_reader.expectSequence(list, "configurations"))
            return out;
        for (const YAML::Node& c : list) {
            if (!m_reader.expectMap(c, "configuration"))
                continue;
            Configuration conf;
            conf.name = m_reader.string(c, "name", "configuration").value_or("");
            const std::string what = "configuration '" + conf.name + "'";
            // Two of one name: 'best' names one of them, and the first was taken unsaid.
            if (std::any_of(out.begin(), out.end(),
                    [&](const Configuration& other) { return other.name == conf.name; }))
                m_reader.error(c["name"], what + " is listed twice");
            m_reader.warnUnknownKeys(c,
                { "name", "methods", "activation_checkpointing", "optimizer_offload",
                    "micro_batch_size", "grad_accumulation_steps", "forward_backward_seconds",
                    "optimizer_step_seconds", "step_seconds", "training_days",
                    "implied_utilization", "peak_memory_bytes", "trial_steps", "validation_error",
                    "notes", "parallelism", "gpu_count", "memory_samples", "micro_step_samples",
                    "state_bytes", "compute_seconds", "optimizer_compute_seconds",
                    "communication_seconds", "communication_bytes", "bus_bytes",
                    "bus_bandwidth_bytes_per_second", "withheld", "time_breakdown", "timed_samples",
                    "block_micro_steps", "validation_steps" },
                what);
            if (const YAML::Node w = c["withheld"];
                w && m_reader.expectSequence(w, "withheld of " + what))
                for (const YAML::Node& part : w)
                    conf.withheld.append(conf.withheld.empty() ? "" : ", ")
                        .append(part.IsScalar() ? part.Scalar() : "?");
            conf.microBatch = static_cast<int>(
                m_reader.integer(c, "micro_batch_size", what, kBatch).value_or(0));
            if (c["optimizer_offload"])
                conf.offload = m_reader.boolean(c, "optimizer_offload", what).value_or(false);
            conf.accumulation = static_cast<int>(
                m_reader.integer(c, "grad_accumulation_steps", what, kBatch).value_or(0));
            spread(c, "forward_backward_seconds", what, kStepSeconds);
            if (const auto optimizer = spread(c, "optimizer_step_seconds", what, kSeconds))
                conf.optimizerSeconds = optimizer->median;
            if (const auto step = spread(c, "step_seconds", what, kStepSeconds)) {
                conf.stepSeconds = step->mean.value_or(step->median); // as the days' point
                conf.stepMedianSeconds = step->median;
                conf.stepMeanSeconds = step->mean;
            }
            readScaling(c, what, conf);
            const auto days = spread(c, "training_days", what, kDays);
            conf.utilization = optionalNumber(c, "implied_utilization", what, kUtilization);
            conf.validationError = optionalNumber(c, "validation_error", what, kRelativeError);
            m_reader.integer(c, "peak_memory_bytes", what, kBytes, /*required=*/false);
            m_reader.integer(c, "trial_steps", what, kTrialSteps, /*required=*/false);
            // Added 2026-11-28 (what the spreads rest on); checked, not priced.
            m_reader.integer(c, "timed_samples", what, kSampleCount, /*required=*/false);
            conf.node = c;
            const auto block
                = m_reader.integer(c, "block_micro_steps", what, kBatch, /*required=*/false);
            conf.blockMicroSteps = block;
            if (block && conf.accumulation > 0 && *block > conf.accumulation)
                m_reader.error(c["block_micro_steps"],
                    "block_micro_steps of " + what + " (" + std::to_string(*block)
                        + ") must not exceed its grad_accumulation_steps ("
                        + std::to_string(conf.accumulation) + ")");
            m_reader.integer(c, "validation_steps", what, kSampleCount, /*required=*/false);
            if (days)
                conf.days = *days;
            conf.daysRead = days.has_value();
            out.push_back(std::move(conf));
        }
        return out;
    }

    // What every configuration must agree on with the recipe and the device, each checked
    // where it is written: its days are the recipe's steps x its step (a file edited to 1,000
    // steps was priced at 143,000 steps' days, utilisation 143x off), and it ran on the
    // device's GPU count (checked on the chosen one only, so a wrong count elsewhere loaded).
    // Each only where both sides were read: a value already reported as bad is not reported
    // again as a mismatch.
    void checkAgainstRecipe(
        const std::vector<Configuration>& all, const Workload& w, std::optional<int> deviceGpuCount)
    {
        for (const Configuration& c : all) {
            const std::string what = "configuration '" + c.name + "'";
            if (c.gpuCount && deviceGpuCount && *c.gpuCount != *deviceGpuCount)
                m_reader.error(c.node["gpu_count"],
                    what + " ran on " + std::to_string(*c.gpuCount)
                        + " GPUs, the device section says " + std::to_string(*deviceGpuCount));
            // gpuplan-bench writes both to 6 significant digits; 1% leaves room for a file
            // written by hand with rounder figures and still catches an edited recipe. The mean
            // too, where both have one: it is the point the planner prices (a mean of 80 days
            // beside a median of 43.7 had been priced unsaid).
            const auto checkDays = [&](const char* which, double days, double step) {
                const double expected = static_cast<double>(w.steps) * step / kSecondsPerDay;
                if (!c.daysRead || step <= 0.0 || w.steps <= 0
                    || std::abs(days - expected) <= 0.01 * expected)
                    return;
                std::ostringstream text;
                text << "training_days of " << what << " (" << which << " " << days
                     << ") is not, within 1%, the recipe's steps x its step_seconds " << which
                     << " (" << w.steps << " x " << step << " s = " << expected << " days)";
                m_reader.error(c.node["training_days"], text.str());
            };
            checkDays("median", c.days.median, c.stepMedianSeconds);
            if (c.days.mean && c.stepMeanSeconds)
                checkDays("mean", *c.days.mean, *c.stepMeanSeconds);
            // The step it timed is the recipe's: each GPU's share of the global batch (rounded
            // down, as gpuplan-bench shares it) in micro-batches, the last padded where the
            // micro-batch does not divide it. Accumulation edited from 32 to 8 had been priced
            // as the recipe's whole step, a quarter of the batch in the file's days (review).
            // A file without the field (by hand, or another tool) says nothing of processes.
            const int gpus = c.gpuCount.value_or(deviceGpuCount.value_or(1));
            if (c.node["parallelism"] && c.parallelism == Parallelism::None && gpus > 1)
                m_reader.error(c.node["parallelism"],
                    what
                        + " ran in one process (parallelism none), which trains on one GPU, "
                          "but the file says "
                        + std::to_string(gpus) + " GPUs");
            // Warned, not refused: the days priced are the file's steps x step, whatever the
            // batch; the micro-batches scaled to other counts are what it misleads.
            const int perGpu = w.globalBatch / std::max(1, gpus);
            if (c.microBatch > 0 && c.accumulation > 0 && perGpu > 0
                && c.accumulation != (perGpu + c.microBatch - 1) / c.microBatch)
                m_reader.warning(c.node["grad_accumulation_steps"],
                    "grad_accumulation_steps of " + what + " (" + std::to_string(c.accumulation)
                        + ") is not the recipe's: a global batch of "
                        + std::to_string(w.globalBatch) + " on " + std::to_string(gpus)
                        + (gpus == 1 ? " GPU" : " GPUs") + " is "
                        + std::to_string((perGpu + c.microBatch - 1) / c.microBatch)
                        + " micro-batches of " + std::to_string(c.microBatch)
                        + "; its step may not be the recipe's");
        }
    }

    const Configuration* choose(
        const YAML::Node& root, const std::vector<Configuration>& all, bool complete)
    {
        if (all.empty()) {
            m_reader.warning(root, "results file holds no finished configuration; nothing to use");
            return nullptr;
        }
        if (!complete) {
            m_reader.warning(root,
                "results file is partial (the run did not finish); using the "
                "fastest of the "
                    + std::to_string(all.size()) + " configurations measured");
            // By the days the planner prices: the mean where the file has it.
            return &*std::min_element(all.begin(), all.end(), [](const auto& a, const auto& b) {
                return a.days.mean.value_or(a.days.median) < b.days.mean.value_or(b.days.median);
            });
        }
        const auto best = m_reader.string(root, "best", "results file");
        if (!best)
            return nullptr;
        const auto it
            = std::find_if(all.begin(), all.end(), [&](const auto& c) { return c.name == *best; });
        if (it == all.end()) {
            m_reader.error(root["best"],
                "best names configuration '" + *best + "', which is not in 'configurations'");
            return nullptr;
        }
        return &*it;
    }

    yaml::Reader m_reader;
    const Catalog& m_catalog;
    MeasuredLoad& m_out;
    std::string m_file;
    bool m_deviceGpuCountRead = false; // device.gpu_count parsed (checkAgainstRecipe)
};

} // namespace

MeasuredLoad readMeasuredResults(
    std::string_view text, const std::string& fileName, const Catalog& catalog)
{
    MeasuredLoad out;
    ResultsFileReader(fileName, catalog, out).read(text);
    return out;
}

MeasuredLoad loadMeasuredResultsFiles(const std::vector<std::string>& paths, const Catalog& catalog)
{
    MeasuredLoad all;
    for (const std::string& path : paths) {
        const auto file = readDataFile(path, all.issues);
        if (!file)
            continue;
        MeasuredLoad one = readMeasuredResults(file->text, file->name, catalog);
        // The planner uses the last file for a model on a GPU and count: said, not silent.
        for (const MeasuredResult& later : one.results) {
            const auto earlier = std::find_if(
                all.results.rbegin(), all.results.rend(), [&later](const MeasuredResult& e) {
                    // A run over several machines is not one machine's time of as many GPUs
                    // (core/estimators.cpp): both are used, neither in place of the other.
                    return e.modelId == later.modelId && e.gpuId == later.gpuId
                        && e.gpuCount == later.gpuCount && e.nodeCount == later.nodeCount;
                });
            if (earlier != all.results.rend() && !later.gpuId.empty()) {
                LoadIssue issue;
                issue.severity = LoadIssue::Severity::Warning;
                issue.file = later.file;
                issue.message = "measures " + later.modelId + " on "
                    + std::to_string(later.gpuCount) + "x " + later.gpuId
                    + (later.nodeCount > 1
                            ? " over " + std::to_string(later.nodeCount) + " machines"
                            : "")
                    + " as " + earlier->file + " does; the planner uses this file, the later one";
                all.issues.push_back(std::move(issue));
            }
        }
        std::move(one.results.begin(), one.results.end(), std::back_inserter(all.results));
        std::move(one.workloads.begin(), one.workloads.end(), std::back_inserter(all.workloads));
        std::move(one.issues.begin(), one.issues.end(), std::back_inserter(all.issues));
    }
    return all;
}

void addMeasurements(Catalog& catalog, const MeasuredLoad& load)
{
    for (const Workload& w : load.workloads)
        if (!catalog.findWorkload(w.id))
            catalog.workloads.push_back(w);
    catalog.measured.insert(catalog.measured.end(), load.results.begin(), load.results.end());
}

CatalogLoad loadPlannerCatalog(const std::vector<std::string>& pricePaths,
    const std::vector<std::string>& resultPaths, std::string_view priceSet)
{
    CatalogLoad load = loadCatalogWithUserFiles(pricePaths, priceSet);
    if (resultPaths.empty())
        return load;
    const MeasuredLoad measured = loadMeasuredResultsFiles(resultPaths, *load.catalog);
    auto catalog = std::make_shared<Catalog>(*load.catalog);
    addMeasurements(*catalog, measured);
    load.catalog = std::move(catalog);
    load.issues.insert(load.issues.end(), measured.issues.begin(), measured.issues.end());
    return load;
}

} // namespace gpuplan

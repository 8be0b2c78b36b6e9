#include "benchmark/results_writer.h"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace gpuplan::bench {

namespace {

// What a results file says it is (and what --out may replace).
constexpr std::string_view kResultsKind = "gpuplan-bench-results";

// Significant digits for measured numbers: timings are good to far fewer.
constexpr int kDigits = 6;

// `run`, where given, adds the range of a run's mean step (statistics.h, RunRange) to the spread
// of single steps: mean, low, high.
void emitSpread(YAML::Emitter& out, const char* key, const Spread& s, const RunRange* run = nullptr)
{
    out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "median" << YAML::Value << s.median;
    out << YAML::Key << "min" << YAML::Value << s.min;
    out << YAML::Key << "max" << YAML::Value << s.max;
    if (run) {
        out << YAML::Key << "mean" << YAML::Value << run->mean;
        out << YAML::Key << "low" << YAML::Value << run->low;
        out << YAML::Key << "high" << YAML::Value << run->high;
    }
    out << YAML::EndMap;
}

void emitOptional(YAML::Emitter& out, const char* key, const std::optional<double>& value)
{
    out << YAML::Key << key << YAML::Value;
    if (value)
        out << *value;
    else
        out << YAML::Null;
}

void emitDevice(YAML::Emitter& out, const RunReport& r)
{
    out << YAML::Key << "device" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "kind" << YAML::Value << r.device.kind;
    out << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << r.device.name;
    out << YAML::Key << "gpu_id" << YAML::Value << YAML::DoubleQuoted << r.device.gpuId;
    out << YAML::Key << "memory_bytes" << YAML::Value << r.device.memoryBytes;
    out << YAML::Key << "compute_capability" << YAML::Value << YAML::DoubleQuoted
        << r.device.computeCapability;
    emitOptional(out, "peak_tflops", r.device.peakFor(r.recipe.precision));
    out << YAML::Key << "gpu_count" << YAML::Value << r.gpuCount;
    out << YAML::Key << "node_count" << YAML::Value << r.nodeCount;
    out << YAML::EndMap;
}

void emitInterconnect(YAML::Emitter& out, const Interconnect& ic)
{
    out << YAML::Key << "interconnect" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "backend" << YAML::Value << ic.backend;
    out << YAML::Key << "world_size" << YAML::Value << ic.worldSize;
    out << YAML::Key << "node_count" << YAML::Value << ic.nodeCount;
    out << YAML::Key << "notes" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const auto& note : ic.notes)
        out << YAML::DoubleQuoted << note;
    out << YAML::EndSeq;
    out << YAML::Key << "samples" << YAML::Value << YAML::BeginSeq;
    for (const auto& sample : ic.samples) {
        out << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "collective" << YAML::Value << sample.collective;
        out << YAML::Key << "bytes" << YAML::Value << sample.bytes;
        out << YAML::Key << "seconds" << YAML::Value << sample.seconds;
        out << YAML::Key << "algbw_bytes_per_second" << YAML::Value << sample.algorithmBandwidth;
        out << YAML::Key << "busbw_bytes_per_second" << YAML::Value << sample.busBandwidth;
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    out << YAML::EndMap;
}

void emitScaling(YAML::Emitter& out, const ConfigurationResult& c)
{
    out << YAML::Key << "memory_samples" << YAML::Value << YAML::BeginSeq;
    for (const auto& sample : c.memorySamples) {
        out << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "micro_batch_size" << YAML::Value << sample.microBatch;
        out << YAML::Key << "peak_memory_bytes" << YAML::Value << sample.peakMemoryBytes;
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    if (!c.microStepSamples.empty()) {
        out << YAML::Key << "micro_step_samples" << YAML::Value << YAML::BeginSeq;
        for (const auto& sample : c.microStepSamples) {
            out << YAML::Flow << YAML::BeginMap;
            out << YAML::Key << "micro_batch_size" << YAML::Value << sample.microBatch;
            out << YAML::Key << "seconds" << YAML::Value << sample.seconds;
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    out << YAML::Key << "state_bytes" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "parameters" << YAML::Value << c.stateBytes.parameters;
    out << YAML::Key << "gradients" << YAML::Value << c.stateBytes.gradients;
    out << YAML::Key << "optimizer_state" << YAML::Value << c.stateBytes.optimizerState;
    out << YAML::EndMap;
    if (!c.communication)
        return;
    const CommunicationResult& comm = *c.communication;
    emitSpread(out, "compute_seconds", comm.computeSeconds);
    if (comm.optimizerComputeSeconds)
        emitSpread(out, "optimizer_compute_seconds", *comm.optimizerComputeSeconds);
    emitSpread(out, "communication_seconds", comm.seconds);
    out << YAML::Key << "communication_bytes" << YAML::Value << comm.bytes;
    out << YAML::Key << "bus_bytes" << YAML::Value << comm.busBytes;
    emitOptional(out, "bus_bandwidth_bytes_per_second", comm.busBandwidth);
}

void emitModelAndRecipe(YAML::Emitter& out, const RunReport& r)
{
    out << YAML::Key << "model" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "id" << YAML::Value << YAML::DoubleQuoted << r.model.id;
    out << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << r.model.name;
    out << YAML::Key << "family" << YAML::Value << std::string(toString(r.model.architecture));
    out << YAML::Key << "parameters" << YAML::Value << r.parameters;
    out << YAML::Key << "flops_per_step" << YAML::Value << r.flopsPerStep;
    out << YAML::Key << "config_file" << YAML::Value << YAML::DoubleQuoted << r.model.configFile;
    out << YAML::EndMap;

    out << YAML::Key << "recipe" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "global_batch" << YAML::Value << r.recipe.globalBatch;
    out << YAML::Key << "steps" << YAML::Value << r.recipe.steps;
    if (r.model.isLanguageModel())
        out << YAML::Key << "sequence_length" << YAML::Value << r.recipe.sequenceLength;
    else
        out << YAML::Key << "image_size" << YAML::Value << r.recipe.imageSize;
    out << YAML::Key << "precision" << YAML::Value << std::string(toString(r.recipe.precision));
    out << YAML::Key << "optimizer" << YAML::Value << r.recipe.optimizer;
    out << YAML::EndMap;
}

// Where the step's time goes (time_breakdown.h): informational, the planner does not use it.
void emitTimeBreakdown(YAML::Emitter& out, const ConfigurationResult& c)
{
    const TimeBreakdown& b = *c.timeBreakdown;
    out << YAML::Key << "time_breakdown" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "source" << YAML::Value << b.source;
    out << YAML::Key << "profiled_micro_steps" << YAML::Value << b.profiledMicroSteps;
    out << YAML::Key << "profiled_seconds" << YAML::Value << b.profiledSeconds;
    emitOptional(
        out, "compute_only_utilization", computeOnlyUtilization(b, c.stepRun.mean, c.utilization));
    out << YAML::Key << "kinds" << YAML::Value << YAML::BeginSeq;
    for (const KindTime& k : b.kinds) {
        out << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "kind" << YAML::Value << std::string(toString(k.kind));
        out << YAML::Key << "seconds" << YAML::Value << k.seconds;
        out << YAML::Key << "share" << YAML::Value << k.share;
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    out << YAML::Key << "top" << YAML::Value << YAML::BeginSeq;
    for (const EventTime& e : b.top) {
        out << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << e.name;
        out << YAML::Key << "kind" << YAML::Value << std::string(toString(e.kind));
        out << YAML::Key << "seconds" << YAML::Value << e.seconds;
        out << YAML::Key << "calls" << YAML::Value << e.calls;
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    out << YAML::EndMap;
}

void emitConfiguration(YAML::Emitter& out, const ConfigurationResult& c, int gpuCount)
{
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << c.name();
    out << YAML::Key << "methods" << YAML::Value << std::string(toString(c.configuration.method));
    if (!c.configuration.withheld.empty()) { // an ablation: the planner warns
        out << YAML::Key << "withheld" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (const auto part : c.configuration.withheld)
            out << std::string(toString(part));
        out << YAML::EndSeq;
    }
    out << YAML::Key << "activation_checkpointing" << YAML::Value << c.configuration.checkpointing;
    out << YAML::Key << "optimizer_offload" << YAML::Value << c.configuration.offload;
    out << YAML::Key << "parallelism" << YAML::Value
        << std::string(toString(c.configuration.parallelism));
    out << YAML::Key << "gpu_count" << YAML::Value << gpuCount;
    out << YAML::Key << "micro_batch_size" << YAML::Value << c.microBatch;
    out << YAML::Key << "grad_accumulation_steps" << YAML::Value << c.accumulation;
    emitSpread(out, "forward_backward_seconds", c.forwardBackward);
    emitSpread(out, "optimizer_step_seconds", c.optimizerStep);
    emitSpread(out, "step_seconds", c.step, &c.stepRun);
    emitSpread(out, "training_days", c.trainingDays, &c.trainingDaysRun);
    emitOptional(out, "implied_utilization", c.utilization);
    out << YAML::Key << "peak_memory_bytes" << YAML::Value << c.peakMemoryBytes;
    out << YAML::Key << "trial_steps" << YAML::Value << c.trialSteps;
    // What the step's spread and the run range rest on: their n, and how far each sample was
    // extrapolated (block_micro_steps of grad_accumulation_steps).
    if (c.timedSamples > 0) {
        out << YAML::Key << "timed_samples" << YAML::Value << c.timedSamples;
        out << YAML::Key << "block_micro_steps" << YAML::Value << c.blockMicroSteps;
    }
    if (c.validationError) {
        out << YAML::Key << "validation_error" << YAML::Value << *c.validationError;
        if (c.validationSteps > 0)
            out << YAML::Key << "validation_steps" << YAML::Value << c.validationSteps;
    }
    emitScaling(out, c);
    if (c.timeBreakdown)
        emitTimeBreakdown(out, c);
    out << YAML::Key << "notes" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const auto& note : c.notes)
        out << YAML::DoubleQuoted << note;
    out << YAML::EndSeq;
    out << YAML::EndMap;
}

} // namespace

std::string resultsYaml(const RunReport& r)
{
    YAML::Emitter out;
    out.SetDoublePrecision(kDigits);
    out.SetFloatPrecision(kDigits);
    out << YAML::BeginMap;
    out << YAML::Key << "schema_version" << YAML::Value << 1;
    out << YAML::Key << "kind" << YAML::Value << std::string(kResultsKind);
    out << YAML::Key << "tool" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << "gpuplan-bench";
    out << YAML::Key << "version" << YAML::Value << YAML::DoubleQuoted << r.tool.version;
    out << YAML::Key << "libtorch" << YAML::Value << YAML::DoubleQuoted << r.tool.libtorch;
    out << YAML::Key << "cuda" << YAML::Value << YAML::DoubleQuoted << r.tool.cuda;
    out << YAML::Key << "cuda_allocator" << YAML::Value << YAML::DoubleQuoted
        << r.tool.cudaAllocator;
    out << YAML::Key << "cpu_allocator" << YAML::Value << YAML::DoubleQuoted << r.tool.cpuAllocator;
    out << YAML::EndMap;
    out << YAML::Key << "measured_at" << YAML::Value << r.measuredAt;
    out << YAML::Key << "host" << YAML::Value << YAML::DoubleQuoted << r.host;
    out << YAML::Key << "complete" << YAML::Value << r.complete;
    emitDevice(out, r);
    emitModelAndRecipe(out, r);
    if (r.interconnect)
        emitInterconnect(out, *r.interconnect);
    out << YAML::Key << "search" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "trial_steps" << YAML::Value << r.search.trialSteps;
    out << YAML::Key << "exhaustive_trial_steps" << YAML::Value << r.search.exhaustiveTrialSteps;
    out << YAML::Key << "configurations_skipped" << YAML::Value << r.search.configurationsSkipped;
    out << YAML::EndMap;
    out << YAML::Key << "configurations" << YAML::Value << YAML::BeginSeq;
    for (const auto& c : r.configurations)
        if (c.feasible()) // no place for "does not fit" or "skipped": they are in the log
            emitConfiguration(out, c, r.gpuCount);
    out << YAML::EndSeq;
    const auto* best = r.best();
    out << YAML::Key << "best" << YAML::Value << YAML::DoubleQuoted << (best ? best->name() : "");
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

namespace {
std::string temporaryBeside(const std::string& path)
{
    return path + ".tmp-" + std::to_string(::getpid());
}

// The file a symbolic link names (relative links resolved beside the link, links to links
// followed); `path` itself when it is not a link. A broken link gives the missing file it names,
// which the write then creates.
std::string linkTarget(const std::string& path)
{
    std::filesystem::path at(path);
    // Links to links too, up to the kernel's own limit (a loop is then left to fail on open).
    for (int hops = 0; hops < 40; ++hops) {
        std::error_code error;
        if (!std::filesystem::is_symlink(at, error))
            break;
        std::filesystem::path target = std::filesystem::read_symlink(at, error);
        if (error)
            break;
        // Not normalised: ".." after a linked folder is the kernel's to resolve, physically.
        at = target.is_absolute() ? target : at.parent_path() / target;
    }
    return at.string();
}

// Whether the regular file at `path` is empty or an earlier results file: its `kind` line,
// which resultsYaml writes second, within the file's first kilobytes.
bool emptyOrResults(const std::string& path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return true; // unreadable: the write fails on its own, with the system's reason
    constexpr std::size_t kLooked = 4096;
    std::string head(kLooked, '\0');
    file.read(head.data(), static_cast<std::streamsize>(kLooked));
    head.resize(static_cast<std::size_t>(file.gcount()));
    return head.empty()
        || head.find("\nkind: " + std::string(kResultsKind) + "\n") != std::string::npos;
}

// Why `path` cannot be replaced by a results file: a folder, or anything else that is not a
// regular file. The rename that replaces the file would unlink a device node, a pipe or a
// socket (as root, `--out /dev/null` would remove /dev/null for the whole machine). Nor a
// file that is not an earlier results file: `--out` naming the run's own --config, or a price
// table, had replaced it without a word (review).
std::string notAResultsFile(const std::string& path)
{
    struct stat info { };
    if (::stat(path.c_str(), &info) != 0)
        return "";
    if (S_ISDIR(info.st_mode))
        return path + ": is a folder; --out names the results file to write";
    if (!S_ISREG(info.st_mode))
        return path
            + ": is not a regular file (a device, a pipe or a socket); --out names the "
              "results file to write";
    if (!emptyOrResults(path))
        return path
            + ": is not a gpuplan-bench results file (no 'kind: " + std::string(kResultsKind)
            + "' line), and --out replaces only an earlier results file: name a new file, or "
              "move this one away";
    return "";
}
} // namespace

std::string checkResultsFileWritable(const std::string& requested)
{
    const std::string path = linkTarget(requested);
    if (std::string why = notAResultsFile(path); !why.empty())
        return why;
    const std::string temporary = temporaryBeside(path);
    {
        std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
        if (!file)
            return path + ": cannot write " + temporary + ": " + std::strerror(errno);
    }
    std::remove(temporary.c_str());
    return "";
}

std::string writeResultsFile(const RunReport& report, const std::string& requested)
{
    // Through a link to the file it names: replacing the link itself would leave its target
    // with the old results.
    const std::string path = linkTarget(requested);
    // Checked again: the run took long enough for the path to change since the first check.
    if (std::string why = notAResultsFile(path); !why.empty())
        return why;
    const std::string temporary = temporaryBeside(path);
    const std::string text = resultsYaml(report);
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return path + ": cannot write " + temporary + ": " + std::strerror(errno);
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        written += static_cast<std::size_t>(n);
    }
    // On the disk before the rename: after a power cut the file is the old one or the new one,
    // never an empty one.
    const bool ok = written == text.size() && ::fsync(fd) == 0;
    const std::string why = std::strerror(errno);
    ::close(fd);
    if (!ok) {
        std::remove(temporary.c_str()); // no half-written temporary left behind
        return path + ": writing " + temporary + " failed: " + why;
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        const std::string renameWhy = std::strerror(errno);
        std::remove(temporary.c_str());
        return path + ": cannot replace the file: " + renameWhy;
    }
    return "";
}

std::string temporaryResultsPath(const std::string& path)
{
    return temporaryBeside(linkTarget(path));
}

std::string resultsTarget(const std::string& path)
{
    return linkTarget(path);
}

std::string earlierResultsPath(const std::string& path)
{
    return linkTarget(path) + ".previous";
}

std::string setAsideEarlierResults(const std::string& requested, std::string* movedTo)
{
    const std::string path = linkTarget(requested);
    const std::string previous = earlierResultsPath(path);
    struct stat info { };
    if (::stat(previous.c_str(), &info) == 0) {
        *movedTo = previous;
        return "";
    }
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
        return "";
    if (std::rename(path.c_str(), previous.c_str()) != 0)
        return path + ": cannot set the earlier results aside as " + previous + ": "
            + std::strerror(errno);
    *movedTo = previous;
    return "";
}

void dropEarlierResults(const std::string& path)
{
    std::remove(earlierResultsPath(path).c_str());
}

bool restoreEarlierResults(const std::string& requested)
{
    const std::string path = linkTarget(requested);
    struct stat info { };
    if (::stat(path.c_str(), &info) == 0)
        return false; // this run wrote results: the earlier file stays aside
    return std::rename(earlierResultsPath(path).c_str(), path.c_str()) == 0;
}

} // namespace gpuplan::bench

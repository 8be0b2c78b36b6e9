#include "benchmark/commands.h"

#include "benchmark/blas_check.h"
#include "benchmark/cpu_allocator.h"
#include "benchmark/cuda_allocator.h"
#include "benchmark/cuda_backend.h"
#include "benchmark/device_clock.h"
#include "benchmark/device_info.h"
#include "benchmark/distributed/comm_probe.h"
#include "benchmark/distributed/distributed_run.h"
#include "benchmark/distributed/process_group.h"
#include "benchmark/json_text.h"
#include "benchmark/model_selection.h"
#include "benchmark/report_output.h"
#include "benchmark/results_writer.h"
#include "benchmark/runner.h"
#include "benchmark/stop_signals.h"
#include "benchmark/torch_compat.h"

#include <algorithm>
#include <ctime>
#include <iostream>
#include <thread>
#include <unistd.h>

namespace gpuplan::bench {

namespace {

std::string peaksJson(const DeviceInfo& d)
{
    if (d.peakTflops.empty())
        return "null";
    std::string s = "{";
    for (const auto& [precision, tflops] : d.peakTflops)
        s += (s.size() > 1 ? ", " : "") + json::quote(toString(precision)) + ": "
            + json::number(tflops);
    return s + "}";
}

std::string utcNow()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc {};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

std::string hostName()
{
    char name[256] = {};
    return gethostname(name, sizeof name - 1) == 0 ? name : "";
}

} // namespace

int runDevicesCommand(const CliOptions& options, std::ostream& out, std::ostream& err)
{
    const auto catalog = shippedCatalog();
    const auto devices = discoverDevices(*catalog);
    const BlasInfo blas = detectBlas();
    if (!blas.warning.empty())
        err << "warning: " << blas.warning << "\n";
    if (options.format == "json") {
        out << "{\"devices\": [";
        for (std::size_t i = 0; i < devices.size(); ++i) {
            const auto& d = devices[i];
            out << (i ? ",\n  " : "\n  ") << "{\"index\": " << d.index
                << ", \"kind\": " << json::quote(d.kind) << ", \"name\": " << json::quote(d.name)
                << ", \"gpu_id\": " << json::quote(d.gpuId)
                << ", \"memory_bytes\": " << d.memoryBytes
                << ", \"compute_capability\": " << json::quote(d.computeCapability)
                << ", \"peak_tflops\": " << peaksJson(d) << "}";
        }
        out << "],\n \"cuda_available\": " << (cuda::deviceCount() > 0 ? "true" : "false")
            << ", \"libtorch\": " << json::quote(compat::libtorchVersion())
            << ", \"blas\": " << json::quote(blas.name) << ", \"warnings\": [";
        if (!blas.warning.empty())
            out << json::quote(blas.warning);
        out << "]}\n";
        return 0;
    }
    for (const auto& d : devices) {
        out << (d.isCuda() ? "cuda:" + std::to_string(d.index) : std::string("cpu")) << "  "
            << d.name;
        if (d.isCuda())
            out << "  " << d.memoryBytes / (1024 * 1024) << " MiB  sm_" << d.computeCapability;
        out << "  table: " << (d.gpuId.empty() ? "-" : d.gpuId);
        if (const auto peak = d.peakFor(Precision::BF16))
            out << "  bf16 peak " << *peak << " TFLOP/s";
        else if (d.isCuda())
            out << "  no peak known";
        out << "\n";
    }
    out << "libtorch " << compat::libtorchVersion() << ", CUDA runtime "
        << (cuda::compiledIn() ? cuda::runtimeVersion() : std::string("none")) << ", BLAS "
        << blas.name << "\n";
    return 0;
}

int runDescribeCommand(const CliOptions& options, std::ostream& out, std::ostream& err)
{
    const auto catalog = shippedCatalog();
    const ModelSelection selection = selectModel(options, *catalog);
    if (!selection.spec) {
        err << "gpuplan-bench: " << selection.error << "\n";
        return 2;
    }
    if (!selection.warning.empty())
        err << "warning: " << selection.warning << "\n";
    printDescription(*selection.spec, selection.recipe, options.format, out);
    return 0;
}

namespace {

// The device this process measures on: --device, or for a rank of a multi-GPU run the GPU of
// its local rank (or the only GPU it sees). nullptr (with `error`) when there is no such device.
const DeviceInfo* chooseDevice(const CliOptions& options, const std::vector<DeviceInfo>& devices,
    const distributed::ProcessRole& role, std::string& error)
{
    std::string wanted = options.device.value_or(cuda::deviceCount() > 0 ? "cuda" : "cpu");
    const distributed::Rendezvous& z = role.rendezvous;
    if (role.role == distributed::Role::Rank && z.worldSize > 1 && wanted != "cpu") {
        // One GPU per rank: GPU <local rank>, or the only GPU a scheduler that binds one GPU
        // per task (srun --gpus-per-task=1) lets this rank see.
        const int visible = cuda::deviceCount();
        if (wanted != "cuda") {
            error = "--device " + wanted
                + " in a multi-process run: use --device cuda (rank r "
                  "takes GPU r of its node)";
            return nullptr;
        }
        if (visible > 0 && visible >= z.localWorldSize)
            wanted = "cuda:" + std::to_string(z.localRank);
        else if (visible == 1)
            wanted = "cuda:0";
        else if (visible > 1) { // with none at all, the message below says why
            error = "local rank " + std::to_string(z.localRank) + " of "
                + std::to_string(z.localWorldSize) + " sees " + std::to_string(visible)
                + " GPUs: one process per GPU needs as many GPUs as tasks per node, or one "
                  "GPU per task";
            return nullptr;
        }
    }
    for (const auto& d : devices) {
        if ((wanted == "cpu" && !d.isCuda()) || (wanted == "cuda" && d.isCuda() && d.index == 0)
            || (d.isCuda() && wanted == "cuda:" + std::to_string(d.index)))
            return &d;
    }
    error = "no device '" + wanted + "' here ("
        + (cuda::compiledIn() ? "no such CUDA device visible" : "this LibTorch has no CUDA")
        + "); see gpuplan-bench devices";
    return nullptr;
}

std::vector<Parallelism> strategiesFor(
    const CliOptions& options, const distributed::ProcessRole& role)
{
    if (role.role == distributed::Role::Single)
        return { Parallelism::None };
    const std::string chosen = options.parallelism.value_or("ddp");
    if (chosen == "all")
        return { Parallelism::Ddp, Parallelism::Zero1, Parallelism::Zero2, Parallelism::Zero3 };
    return { *parallelismFromString(chosen) };
}

// The message of an exception, without LibTorch's C++ stack trace.
std::string messageOf(const std::exception& e)
{
    const auto* torchError = dynamic_cast<const c10::Error*>(&e);
    return torchError ? torchError->what_without_backtrace() : e.what();
}

std::unique_ptr<distributed::Communicator> connectRank(const CliOptions& options,
    const distributed::ProcessRole& role, const DeviceInfo& device,
    const distributed::Environment& env)
{
    distributed::ConnectRequest request;
    request.rendezvous = role.rendezvous;
    request.cuda = device.isCuda();
    request.cudaDevice = std::max(device.index, 0);
    request.fingerprint = distributed::commandFingerprint(options);
    request.rendezvousTimeout = distributed::rendezvousTimeout(env);
    request.collectiveTimeout = distributed::collectiveTimeout(env);
    return distributed::connect(request);
}

// Launcher role: checks what can be checked before any process starts, then starts them.
int launch(const CliOptions& options, const distributed::Environment& env, std::ostream& out,
    std::ostream& err)
{
    const bool wantsCuda
        = options.device.value_or(cuda::deviceCount() > 0 ? "cuda" : "cpu") != "cpu";
    std::string why;
    if (!distributed::backendAvailable(wantsCuda, why)) {
        err << "gpuplan-bench: " << why << "\n";
        return 2;
    }
    if (wantsCuda && *options.nprocPerNode > cuda::deviceCount()) {
        err << "gpuplan-bench: --nproc-per-node " << *options.nprocPerNode
            << " needs that many GPUs, " << cuda::deviceCount()
            << " visible (two ranks on one GPU are refused by NCCL)\n";
        return 2;
    }
    // Every rank is a process with LibTorch and its own copy of the model: a typo (100 for 10)
    // started them all, and the machine ran out of memory. Twice the logical CPUs, and at least
    // 4, leaves room for a method check on a small machine (CI runs 2 ranks on 1-2 CPUs).
    if (const unsigned cpus = std::thread::hardware_concurrency(); !wantsCuda && cpus > 0) {
        const unsigned most = std::max(4U, 2 * cpus);
        if (static_cast<unsigned>(*options.nprocPerNode) > most) {
            err << "gpuplan-bench: --nproc-per-node " << *options.nprocPerNode
                << " CPU processes is more than " << most << " (twice this machine's " << cpus
                << " logical CPUs, at least 4): each rank holds its own copy of the model\n";
            return 2;
        }
    }
    return distributed::launchRanks(options, env, out, err);
}

} // namespace

int runRunCommand(const CliOptions& options, std::ostream& out, std::ostream& err)
{
    const auto env = distributed::processEnvironment();
    const distributed::ProcessRole role = distributed::processRole(options, env);
    if (!role.error.empty()) {
        err << "gpuplan-bench: " << role.error << "\n";
        return 2;
    }
    const distributed::Rendezvous& z = role.rendezvous;
    const std::string prefix = distributed::rankPrefix(z);
    const auto catalog = shippedCatalog();
    const ModelSelection selection = selectModel(options, *catalog);
    if (!selection.spec) {
        err << "gpuplan-bench: " << prefix << selection.error << "\n";
        return 2;
    }
    if (!selection.warning.empty() && z.rank == 0)
        err << "warning: " << selection.warning << "\n";
    if (selection.recipe.globalBatch < 1) {
        err << "gpuplan-bench: the recipe has no global batch (--batch-size)\n";
        return 2;
    }
    const int ranks
        = role.role == distributed::Role::Launcher ? *options.nprocPerNode : z.worldSize;
    if (selection.recipe.globalBatch % ranks != 0) {
        err << "gpuplan-bench: " << prefix << "the global batch " << selection.recipe.globalBatch
            << " does not split evenly over " << ranks << " ranks (--batch-size)\n";
        return 2;
    }
    if (options.microBatch && *options.microBatch > selection.recipe.globalBatch / ranks) {
        err << "gpuplan-bench: --micro-batch is larger than the per-rank batch "
            << selection.recipe.globalBatch / ranks << "\n";
        return 2;
    }
    // Whoever writes the results file (rank 0, or the launcher for the ranks it starts) finds
    // out now, not after hours of measuring, that it cannot.
    const bool writesResults
        = options.out && (role.role == distributed::Role::Launcher || z.rank == 0);
    if (writesResults) {
        if (const std::string why = checkResultsFileWritable(*options.out); !why.empty()) {
            err << "gpuplan-bench: " << prefix << why << "\n";
            return 2;
        }
    }
    // An earlier results file is set aside, not overwritten by this run's partial results, once
    // the run is about to measure (a rank under the launcher finds it already moved); it is
    // dropped when the run completes, and put back when the run wrote nothing.
    std::string earlier;
    const bool ourLauncherAbove = env("GPUPLAN_BENCH_LAUNCHED").value_or("") == "1";
    const auto setAside = [&]() -> bool {
        if (!writesResults || ourLauncherAbove)
            return true;
        if (const std::string why = setAsideEarlierResults(*options.out, &earlier); !why.empty()) {
            err << "gpuplan-bench: " << prefix << why << "\n";
            return false;
        }
        if (!earlier.empty())
            err << "gpuplan-bench: " << prefix << "the earlier results are kept in " << earlier
                << " until this run completes\n";
        return true;
    };
    const auto finish = [&](int code) {
        if (earlier.empty())
            return code;
        if (code == 0)
            dropEarlierResults(*options.out);
        else if (restoreEarlierResults(*options.out))
            err << "gpuplan-bench: " << prefix << "nothing was measured: the earlier results are "
                << "back in " << *options.out << "\n";
        else
            err << "gpuplan-bench: " << prefix << "the earlier results are kept in " << earlier
                << "\n";
        return code;
    };
    if (role.role == distributed::Role::Launcher)
        return setAside() ? finish(launch(options, env, out, err)) : 2;

    const auto devices = discoverDevices(*catalog);
    std::string deviceError;
    const DeviceInfo* device = chooseDevice(options, devices, role, deviceError);
    if (!device) {
        err << "gpuplan-bench: " << prefix << deviceError << "\n";
        return 2;
    }
    if (options.memoryLimit && device->isCuda()) {
        err << "gpuplan-bench: --memory-limit applies to CPU runs (a GPU's memory is its own "
               "limit)\n";
        return 2;
    }

    // Offloading moves the optimizer from a GPU's memory to the host: asked for on a CPU, it
    // had been dropped from the configurations without a word (review).
    if (!device->isCuda() && options.offload == "on") {
        err << "gpuplan-bench: --offload on needs a GPU (it moves the optimizer state from the "
               "GPU's memory to the host); on a CPU give --offload off or leave it out\n";
        return 2;
    }
    if (!device->isCuda() && options.offload == "both")
        err << "gpuplan-bench: --offload both: the offloaded configurations need a GPU and are "
               "left out on a CPU\n";

    RunOptions run;
    run.model = *selection.spec;
    run.recipe = selection.recipe;
    run.device = *device;
    const bool all = options.methods == "all";
    run.configurations = configurationsFor(options.methods,
        choices(options.checkpointing.value_or(all ? "both" : "off")),
        choices(options.offload.value_or(all ? "both" : "off")), device->isCuda(),
        strategiesFor(options, role), options.freeLunchWithout);
    if (run.configurations.empty()) {
        err << "gpuplan-bench: no configuration to run with these --methods, "
               "--activation-checkpointing and --offload\n";
        return 2;
    }
    run.microBatch = options.microBatch;
    run.stepsMeasured = options.stepsMeasured;
    run.minMeasureSeconds = options.minTimeSeconds;
    run.warmupSteps = options.warmup;
    run.memoryLimitBytes = options.memoryLimit;
    run.validateSteps = options.validate;
    run.maxBlockMicroSteps = options.blockMicroSteps;
    run.seed = options.seed;
    run.timeBreakdown = options.timeBreakdown;

    RunReport report;
    report.tool = { GPUPLAN_BENCH_VERSION, compat::libtorchVersion(),
        device->isCuda() ? cuda::runtimeVersion() : "",
        device->isCuda() ? cudaAllocatorSettings() : "",
        device->isCuda() ? "" : cpuAllocatorSettings() };
    report.measuredAt = utcNow();
    report.host = hostName();
    report.device = *device;
    report.gpuCount = z.worldSize;
    report.nodeCount = z.nodeCount;
    report.model = *selection.spec;
    report.parameters = parameterCount(*selection.spec);
    report.recipe = selection.recipe;
    report.flopsPerStep = trainingFlopsPerSample(*selection.spec, selection.recipe.sequenceLength)
        * selection.recipe.globalBatch;

    // Rank 0 speaks for the run: progress, summary and results file. The others report only
    // their own errors, prefixed with their rank.
    const bool leader = z.rank == 0;
    const BlasInfo blas = detectBlas();
    if (leader && !device->isCuda() && !blas.warning.empty())
        err << "warning: " << blas.warning << "\n";
    // With --progress jsonl, stdout carries progress lines only; the summary goes to stderr.
    std::ostream& summary = options.progressJsonl ? err : out;
    const ProgressSink progress = !leader ? ProgressSink([](const ProgressEvent&) {})
        : options.progressJsonl           ? jsonLinesSink(out)
                                          : humanSink(err);
    if (!setAside())
        return 2;
    // No launcher of ours to speak for the run (one process, or ranks started by srun or
    // torchrun): a stop signal says what it keeps, in the rank that writes the file, and puts
    // the earlier file back if nothing was written. Review: a SLURM time limit's SIGTERM had
    // left it as results.yaml.previous, unsaid, under srun. The other ranks die as signalled.
    if (leader && (z.worldSize == 1 || !ourLauncherAbove)) {
        StopReport stop;
        if (options.out) {
            stop.resultsFile = resultsTarget(*options.out);
            stop.temporaryFile = temporaryResultsPath(*options.out);
            stop.earlierFile = earlier;
        }
        reportStopSignals(stop);
    }
    std::string writeError;
    bool writeWarned = false;
    const ReportSink onUpdate = [&](const RunReport& r) {
        if (!leader || !options.out)
            return;
        // Tried again after every configuration: space freed meanwhile still saves them all.
        writeError = writeResultsFile(r, *options.out);
        if (!writeError.empty() && !writeWarned) {
            writeWarned = true;
            err << "gpuplan-bench: warning: " << writeError
                << "; the results are written again after the next configuration\n";
        }
    };
    std::unique_ptr<distributed::Communicator> communicator;
    try {
        if (role.role == distributed::Role::Rank) {
            progress({ ProgressPhase::Start, "", std::nullopt, 0.0,
                "rank " + std::to_string(z.rank) + " of " + std::to_string(z.worldSize)
                    + " meeting at "
                    + (z.worldSize > 1 ? z.masterAddress + ":" + std::to_string(z.masterPort)
                                       : std::string("this process"))
                    // How long it waits, and what sets it: a rank that never comes is not a hang.
                    + (z.worldSize > 1 ? " (waiting up to "
                                + std::to_string(distributed::rendezvousTimeout(env).count() / 1000)
                                + " s for the others, GPUPLAN_BENCH_RENDEZVOUS_TIMEOUT)"
                                       : std::string()) });
            communicator = connectRank(options, role, *device, env);
            run.communicator = communicator.get();
            if (z.worldSize > 1) {
                progress({ ProgressPhase::CommProbe, "", std::nullopt, 0.0,
                    "measuring all-reduce, reduce-scatter and all-gather bandwidth" });
                const DeviceClock clock(device->isCuda()
                        ? torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(device->index))
                        : torch::Device(torch::kCPU));
                distributed::ProbePlan plan;
                plan.minBytes = 1 << 20;
                plan.maxBytes = device->isCuda() ? (256ll << 20) : (16ll << 20);
                report.interconnect = distributed::probeInterconnect(
                    *communicator, plan, device->isCuda(), device->index,
                    [&](const std::function<void()>& work) { return clock.time(work); },
                    z.nodeCount);
            }
        }
        const RunReport done = runBenchmark(run, report, progress, onUpdate);
        if (leader)
            printRunSummary(done, options.format, summary);
        if (communicator)
            communicator->barrier(); // rank 0 serves the store: it leaves last
    } catch (const std::exception& e) {
        std::string message = messageOf(e);
        // Gloo's and NCCL's own words name no rank and no setting: say what waited and why.
        if (communicator && z.worldSize > 1
            && (message.find("imed out") != std::string::npos
                || message.find("pair closure") != std::string::npos))
            message += " (this rank waited for the others in a collective, at most "
                + std::to_string(distributed::collectiveTimeout(env).count() / 1000)
                + " s, GPUPLAN_BENCH_COLLECTIVE_TIMEOUT: another rank hung, died or is far "
                  "slower)";
        progress({ ProgressPhase::Error, "", std::nullopt, 100.0, message });
        err << "gpuplan-bench: " << prefix << message << "\n";
        return finish(1);
    }
    if (!writeError.empty()) {
        err << "gpuplan-bench: the results could not be saved: " << writeError << "\n";
        return finish(1);
    }
    return finish(0);
}

int runCommProbeCommand(const CliOptions& options, std::ostream& out, std::ostream& err)
{
    const auto env = distributed::processEnvironment();
    distributed::ProcessRole role = distributed::processRole(options, env);
    if (!role.error.empty()) {
        err << "gpuplan-bench: " << role.error << "\n";
        return 2;
    }
    if (role.role == distributed::Role::Launcher)
        return launch(options, env, out, err);
    role.role = distributed::Role::Rank; // a world of one probes too (bus bandwidth 0)
    const distributed::Rendezvous& z = role.rendezvous;
    const std::string prefix = distributed::rankPrefix(z);
    const auto catalog = shippedCatalog();
    const auto devices = discoverDevices(*catalog);
    std::string deviceError;
    const DeviceInfo* device = chooseDevice(options, devices, role, deviceError);
    if (!device) {
        err << "gpuplan-bench: " << prefix << deviceError << "\n";
        return 2;
    }
    try {
        auto communicator = connectRank(options, role, *device, env);
        const DeviceClock clock(device->isCuda()
                ? torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(device->index))
                : torch::Device(torch::kCPU));
        distributed::ProbePlan plan;
        plan.maxBytes = options.maxBytes.value_or(device->isCuda() ? (1ll << 30) : (64ll << 20));
        const Interconnect result = distributed::probeInterconnect(
            *communicator, plan, device->isCuda(), device->index,
            [&](const std::function<void()>& work) { return clock.time(work); }, z.nodeCount);
        if (z.rank == 0)
            out << (options.format == "json" ? distributed::interconnectJson(result) + "\n"
                                             : distributed::interconnectTable(result));
        communicator->barrier();
    } catch (const std::exception& e) {
        err << "gpuplan-bench: " << prefix << messageOf(e) << "\n";
        return 1;
    }
    return 0;
}

} // namespace gpuplan::bench

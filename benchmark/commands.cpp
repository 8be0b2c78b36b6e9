#include "benchmark/commands.h"

#include "benchmark/blas_check.h"
#include "benchmark/cuda_backend.h"
#include "benchmark/device_info.h"
#include "benchmark/json_text.h"
#include "benchmark/model_selection.h"
#include "benchmark/report_output.h"
#include "benchmark/results_writer.h"
#include "benchmark/runner.h"
#include "benchmark/torch_compat.h"

#include <ctime>
#include <iostream>
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
    printDescription(*selection.spec, selection.recipe, options.format, out);
    return 0;
}

int runRunCommand(const CliOptions& options, std::ostream& out, std::ostream& err)
{
    const auto catalog = shippedCatalog();
    const ModelSelection selection = selectModel(options, *catalog);
    if (!selection.spec) {
        err << "gpuplan-bench: " << selection.error << "\n";
        return 2;
    }

    const auto devices = discoverDevices(*catalog);
    const std::string wanted = options.device.value_or(cuda::deviceCount() > 0 ? "cuda" : "cpu");
    const DeviceInfo* device = nullptr;
    for (const auto& d : devices) {
        if ((wanted == "cpu" && !d.isCuda()) || (wanted == "cuda" && d.isCuda() && d.index == 0)
            || (d.isCuda() && wanted == "cuda:" + std::to_string(d.index)))
            device = &d;
    }
    if (!device) {
        err << "gpuplan-bench: no device '" << wanted << "' here ("
            << (cuda::compiledIn() ? "no CUDA device visible" : "this LibTorch has no CUDA")
            << "); see gpuplan-bench devices\n";
        return 2;
    }
    if (options.memoryLimit && device->isCuda()) {
        err << "gpuplan-bench: --memory-limit applies to CPU runs (a GPU's memory is its own "
               "limit)\n";
        return 2;
    }
    if (selection.recipe.globalBatch < 1) {
        err << "gpuplan-bench: the recipe has no global batch (--batch-size)\n";
        return 2;
    }

    RunOptions run;
    run.model = *selection.spec;
    run.recipe = selection.recipe;
    run.device = *device;
    const bool all = options.methods == "all";
    run.configurations = configurationsFor(options.methods,
        choices(options.checkpointing.value_or(all ? "both" : "off")),
        choices(options.offload.value_or(all ? "both" : "off")), device->isCuda());
    if (run.configurations.empty()) {
        err << "gpuplan-bench: no configuration to run (--offload on needs a GPU)\n";
        return 2;
    }
    run.microBatch = options.microBatch;
    run.stepsMeasured = options.stepsMeasured;
    run.warmupSteps = options.warmup;
    run.memoryLimitBytes = options.memoryLimit;
    run.validateSteps = options.validate;
    run.seed = options.seed;

    RunReport report;
    report.tool = { GPUPLAN_BENCH_VERSION, compat::libtorchVersion(),
        device->isCuda() ? cuda::runtimeVersion() : "" };
    report.measuredAt = utcNow();
    report.host = hostName();
    report.device = *device;
    report.model = *selection.spec;
    report.parameters = parameterCount(*selection.spec);
    report.recipe = selection.recipe;
    report.flopsPerStep = trainingFlopsPerSample(*selection.spec, selection.recipe.sequenceLength)
        * selection.recipe.globalBatch;

    const BlasInfo blas = detectBlas();
    if (!device->isCuda() && !blas.warning.empty())
        err << "warning: " << blas.warning << "\n";

    // With --progress jsonl, stdout carries progress lines only; the summary goes to stderr.
    std::ostream& summary = options.progressJsonl ? err : out;
    const ProgressSink progress = options.progressJsonl ? jsonLinesSink(out) : humanSink(err);
    std::string writeError;
    const ReportSink onUpdate = [&](const RunReport& r) {
        if (options.out && writeError.empty())
            writeError = writeResultsFile(r, *options.out);
    };
    try {
        const RunReport done = runBenchmark(run, report, progress, onUpdate);
        printRunSummary(done, options.format, summary);
    } catch (const std::exception& e) {
        // LibTorch's errors carry a C++ stack trace in what(): users get the message alone.
        const auto* torchError = dynamic_cast<const c10::Error*>(&e);
        const std::string message = torchError ? torchError->what_without_backtrace() : e.what();
        progress({ "error", "", std::nullopt, 100.0, message });
        err << "gpuplan-bench: " << message << "\n";
        return 1;
    }
    if (!writeError.empty()) {
        err << "gpuplan-bench: " << writeError << "\n";
        return 1;
    }
    return 0;
}

} // namespace gpuplan::bench

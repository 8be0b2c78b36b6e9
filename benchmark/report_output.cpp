#include "benchmark/report_output.h"

#include "benchmark/distributed/comm_probe.h"
#include "benchmark/json_text.h"
#include "benchmark/time_breakdown_output.h"

#include <algorithm>
#include <cstdio>

namespace gpuplan::bench {

namespace {

// The free-lunch parts an ablation withheld, as JSON strings (none for a whole configuration).
std::string withheldJson(const Configuration& c)
{
    std::string parts;
    for (const auto part : c.withheld)
        parts += (parts.empty() ? "" : ", ") + json::quote(toString(part));
    return parts;
}

// As the results file: `run` adds the range of a run's mean step (mean, low, high).
std::string spreadJson(const Spread& s, const RunRange* run = nullptr)
{
    std::string j = "{\"median\": " + json::number(s.median) + ", \"min\": " + json::number(s.min)
        + ", \"max\": " + json::number(s.max);
    if (run)
        j += ", \"mean\": " + json::number(run->mean) + ", \"low\": " + json::number(run->low)
            + ", \"high\": " + json::number(run->high);
    return j + "}";
}

std::string formatted(const char* pattern, double value)
{
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

} // namespace

std::string describeJson(const ModelSpec& s, const Recipe& r)
{
    const int length = s.isLanguageModel() ? r.sequenceLength : r.imageSize;
    const double perSample = trainingFlopsPerSample(s, r.sequenceLength);
    std::string j = "{\"model\": " + json::quote(s.id) + ", \"name\": " + json::quote(s.name)
        + ", \"family\": " + json::quote(toString(s.architecture))
        + ", \"parameters\": " + std::to_string(parameterCount(s))
        + ", \"flops_per_step\": " + json::number(perSample * r.globalBatch)
        + ", \"flops_per_sample\": " + json::number(perSample) + ", \"training_flops\": "
        + json::number(perSample * r.globalBatch * static_cast<double>(r.steps))
        + ", \"config_file\": " + json::quote(s.configFile) + ", \"recipe\": {\"global_batch\": "
        + std::to_string(r.globalBatch) + ", \"steps\": " + std::to_string(r.steps)
        + (s.isLanguageModel() ? ", \"sequence_length\": " : ", \"image_size\": ")
        + std::to_string(length) + ", \"precision\": " + json::quote(toString(r.precision))
        + ", \"optimizer\": " + json::quote(r.optimizer) + "}, \"architecture\": {";
    if (s.architecture == Architecture::ConvNext) {
        std::string dims, depths;
        for (std::size_t i = 0; i < s.stageDims.size(); ++i) {
            // Appended in two steps: GCC 12 at -O3 flags "literal" + std::string as -Wrestrict.
            dims.append(i ? ", " : "").append(std::to_string(s.stageDims[i]));
            depths.append(i ? ", " : "").append(std::to_string(s.stageDepths[i]));
        }
        j += "\"dims\": [" + dims + "], \"depths\": [" + depths
            + "], \"classes\": " + std::to_string(s.classes);
    } else if (s.architecture == Architecture::Mamba) {
        j += "\"hidden_size\": " + std::to_string(s.hiddenSize)
            + ", \"num_hidden_layers\": " + std::to_string(s.layers) + ", \"intermediate_size\": "
            + std::to_string(s.intermediateSize) + ", \"state_size\": "
            + std::to_string(s.stateSize) + ", \"conv_kernel\": " + std::to_string(s.convKernel)
            + ", \"time_step_rank\": " + std::to_string(s.timeStepRank)
            + ", \"vocab_size\": " + std::to_string(s.vocabSize) + ", \"scan_flops_per_sample\": "
            + json::number(mambaScanFlopsPerSample(s, r.sequenceLength));
    } else {
        j += "\"hidden_size\": " + std::to_string(s.hiddenSize) + ", \"num_hidden_layers\": "
            + std::to_string(s.layers) + ", \"num_attention_heads\": " + std::to_string(s.heads)
            + ", \"intermediate_size\": " + std::to_string(s.intermediateSize);
        if (s.isLanguageModel())
            j += ", \"vocab_size\": " + std::to_string(s.vocabSize);
        else
            j += ", \"patch_size\": " + std::to_string(s.patchSize)
                + ", \"classes\": " + std::to_string(s.classes);
    }
    return j + "}}";
}

void printDescription(
    const ModelSpec& s, const Recipe& r, const std::string& format, std::ostream& out)
{
    if (format == "json") {
        out << describeJson(s, r) << "\n";
        return;
    }
    const double perSample = trainingFlopsPerSample(s, r.sequenceLength);
    std::string scanLine; // Mamba's scan is elementwise: shown, not counted in the FLOPs
    if (s.architecture == Architecture::Mamba)
        scanLine = "  selective scan   "
            + formatted("%.3e", mambaScanFlopsPerSample(s, r.sequenceLength) * r.globalBatch)
            + " elementwise FLOPs per step, not in the figures above\n";
    out << s.name << " (" << s.id << ", " << toString(s.architecture) << ")\n"
        << "  parameters       " << parameterCount(s) << "\n"
        << "  FLOPs per step   " << formatted("%.3e", perSample * r.globalBatch) << "\n"
        << "  training FLOPs   "
        << formatted("%.3e", perSample * r.globalBatch * static_cast<double>(r.steps)) << "\n"
        << scanLine << "  recipe           global batch " << r.globalBatch << ", " << r.steps
        << " steps, "
        << (s.isLanguageModel() ? std::to_string(r.sequenceLength) + " tokens per sample"
                                : std::to_string(r.imageSize) + " px")
        << ", " << toString(r.precision) << ", " << r.optimizer << "\n";
}

std::string scalingJson(const ConfigurationResult& c)
{
    std::string j = ", \"memory_samples\": [";
    for (std::size_t i = 0; i < c.memorySamples.size(); ++i)
        j += std::string(i ? ", " : "") + "{\"micro_batch_size\": "
            + std::to_string(c.memorySamples[i].microBatch) + ", \"peak_memory_bytes\": "
            + std::to_string(c.memorySamples[i].peakMemoryBytes) + "}";
    j += "], \"micro_step_samples\": [";
    for (std::size_t i = 0; i < c.microStepSamples.size(); ++i)
        j += std::string(i ? ", " : "")
            + "{\"micro_batch_size\": " + std::to_string(c.microStepSamples[i].microBatch)
            + ", \"seconds\": " + json::number(c.microStepSamples[i].seconds) + "}";
    j += "], \"state_bytes\": {\"parameters\": " + std::to_string(c.stateBytes.parameters)
        + ", \"gradients\": " + std::to_string(c.stateBytes.gradients)
        + ", \"optimizer_state\": " + std::to_string(c.stateBytes.optimizerState) + "}";
    if (!c.communication)
        return j;
    const CommunicationResult& comm = *c.communication;
    return j + ", \"compute_seconds\": " + spreadJson(comm.computeSeconds)
        + (comm.optimizerComputeSeconds
                ? ", \"optimizer_compute_seconds\": " + spreadJson(*comm.optimizerComputeSeconds)
                : std::string())
        + ", \"communication_seconds\": " + spreadJson(comm.seconds) + ", \"communication_bytes\": "
        + std::to_string(comm.bytes) + ", \"bus_bytes\": " + std::to_string(comm.busBytes)
        + ", \"bus_bandwidth_bytes_per_second\": " + json::number(comm.busBandwidth);
}

std::string runSummaryJson(const RunReport& r)
{
    std::string j = "{\"model\": " + json::quote(r.model.id) + ", \"device\": "
        + json::quote(r.device.name) + ", \"gpu_id\": " + json::quote(r.device.gpuId)
        + ", \"gpu_count\": " + std::to_string(r.gpuCount) + ", \"node_count\": "
        + std::to_string(r.nodeCount) + ", \"parameters\": " + std::to_string(r.parameters)
        + ", \"flops_per_step\": " + json::number(r.flopsPerStep)
        + ", \"search\": {\"trial_steps\": " + std::to_string(r.search.trialSteps)
        + ", \"exhaustive_trial_steps\": " + std::to_string(r.search.exhaustiveTrialSteps)
        + ", \"configurations_skipped\": " + std::to_string(r.search.configurationsSkipped)
        + "}, \"interconnect\": "
        + (r.interconnect ? distributed::interconnectJson(*r.interconnect) : std::string("null"))
        + ", \"configurations\": [";
    for (std::size_t i = 0; i < r.configurations.size(); ++i) {
        const auto& c = r.configurations[i];
        j += std::string(i ? ", " : "") + "{\"name\": "
            + json::quote(c.feasible() ? c.name() : c.configuration.label()) + ", \"methods\": "
            + json::quote(toString(c.configuration.method)) + ", \"withheld\": ["
            + withheldJson(c.configuration) + "], \"activation_checkpointing\": "
            + (c.configuration.checkpointing ? "true" : "false")
            + ", \"optimizer_offload\": " + (c.configuration.offload ? "true" : "false")
            + ", \"parallelism\": " + json::quote(toString(c.configuration.parallelism))
            + ", \"gpu_count\": " + std::to_string(r.gpuCount) + ", \"feasible\": "
            + (c.feasible() ? "true" : "false") + ", \"skipped\": " + (c.skipped ? "true" : "false")
            + ", \"failed\": " + (c.failure ? json::quote(*c.failure) : std::string("null"))
            + ", \"micro_batch_size\": " + std::to_string(c.microBatch)
            + ", \"grad_accumulation_steps\": " + std::to_string(c.accumulation)
            + ", \"forward_backward_seconds\": " + spreadJson(c.forwardBackward)
            + ", \"optimizer_step_seconds\": " + spreadJson(c.optimizerStep)
            + ", \"step_seconds\": " + spreadJson(c.step, &c.stepRun)
            + ", \"training_days\": " + spreadJson(c.trainingDays, &c.trainingDaysRun)
            + ", \"implied_utilization\": " + json::number(c.utilization)
            + ", \"peak_memory_bytes\": " + std::to_string(c.peakMemoryBytes)
            + ", \"trial_steps\": " + std::to_string(c.trialSteps)
            + ", \"timed_samples\": " + std::to_string(c.timedSamples)
            + ", \"block_micro_steps\": " + std::to_string(c.blockMicroSteps)
            + ", \"validation_steps\": " + std::to_string(c.validationSteps)
            + ", \"validation_error\": " + json::number(c.validationError)
            + ", \"validated_step_seconds\": " + json::number(c.validatedStepSeconds)
            + scalingJson(c) + ", \"time_breakdown\": "
            + (c.timeBreakdown ? timeBreakdownJson(*c.timeBreakdown, c.stepRun.mean, c.utilization)
                               : std::string("null"))
            + ", \"notes\": [";
        for (std::size_t n = 0; n < c.notes.size(); ++n)
            j += (n ? ", " : "") + json::quote(c.notes[n]);
        j += "]}";
    }
    const auto* best = r.best();
    return j + "], \"best\": " + json::quote(best ? best->name() : "") + "}";
}

void printRunSummary(const RunReport& r, const std::string& format, std::ostream& out)
{
    if (format == "json") {
        out << runSummaryJson(r) << "\n";
        return;
    }
    // The first column as wide as the longest name (an ablation's names carry its parts).
    int nameWidth = 46;
    for (const auto& c : r.configurations)
        if (c.feasible())
            nameWidth = std::max(nameWidth, static_cast<int>(c.name().size()));
    char line[512];
    std::snprintf(line, sizeof line, "%-*s %5s %5s %10s %9s %10s %9s %6s %8s %6s %7s\n", nameWidth,
        "configuration", "mbs", "accum", "micro s", "optim s", "step s", "days", "util", "peak GiB",
        "trials", "val err");
    out << r.model.name << " on " << (r.gpuCount > 1 ? std::to_string(r.gpuCount) + " x " : "")
        << r.device.name << " (" << r.recipe.steps << " steps of " << r.recipe.globalBatch << ")\n"
        << line;
    for (const auto& c : r.configurations) {
        if (!c.feasible()) {
            out << c.configuration.label() << ": "
                << (c.skipped          ? c.notes.front()
                           : c.failure ? *c.failure
                                       : std::string("does not fit"))
                << "\n";
            continue;
        }
        std::snprintf(line, sizeof line,
            "%-*s %5d %5d %10.4f %9.4f %10.3f %9.2f %6s %8.2f %6d %7s\n", nameWidth,
            c.name().c_str(), c.microBatch, c.accumulation, c.forwardBackward.median,
            c.optimizerStep.median, c.stepRun.mean, c.trainingDaysRun.mean,
            c.utilization ? formatted("%.3f", *c.utilization).c_str() : "-",
            static_cast<double>(c.peakMemoryBytes) / (1024.0 * 1024.0 * 1024.0), c.trialSteps,
            c.validationError ? formatted("%.4f", *c.validationError).c_str() : "-");
        out << line;
        if (const auto& comm = c.communication) {
            std::snprintf(line, sizeof line,
                "    per rank: compute %.4f s, communication alone %.4f s (%.1f MB), bus %s GB/s\n",
                comm->computeSeconds.median, comm->seconds.median,
                static_cast<double>(comm->bytes) / 1e6,
                comm->busBandwidth ? formatted("%.3f", *comm->busBandwidth / 1e9).c_str() : "-");
            out << line;
        }
        if (c.timeBreakdown)
            out << timeBreakdownText(*c.timeBreakdown, c.stepRun.mean, c.utilization);
        for (const auto& note : c.notes)
            out << "    note: " << note << "\n";
    }
    if (r.search.exhaustiveTrialSteps > 0 || r.search.configurationsSkipped > 0)
        out << "search: " << r.search.trialSteps << " trial steps against "
            << r.search.exhaustiveTrialSteps << " for doubling every configuration, "
            << r.search.configurationsSkipped << " configuration(s) skipped\n";
    if (r.interconnect)
        out << distributed::interconnectTable(*r.interconnect);
    const auto* best = r.best();
    // The columns beside util and val err, which come from the mean step too.
    out << "(step s and days: the mean step, which the planner prices; micro s and optim s: "
           "medians)\n";
    out << "best: " << (best ? best->name() : "none fits") << "\n";
}

} // namespace gpuplan::bench

#include "benchmark/cli_options.h"

#include "benchmark/distributed/comm_probe.h"
#include "core/limits.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <sstream>
#include <vector>

namespace gpuplan::bench {

namespace {

constexpr double kMostMinTimeSeconds = 600.0;

template <typename T> std::optional<T> parseWhole(const std::string& text, T minimum)
{
    T value {};
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || value < minimum)
        return std::nullopt;
    return value;
}

bool oneOf(const std::string& value, std::initializer_list<const char*> allowed)
{
    for (const char* a : allowed)
        if (value == a)
            return true;
    return false;
}

} // namespace

std::vector<bool> choices(const std::string& offOnBoth)
{
    if (offOnBoth == "on")
        return { true };
    if (offOnBoth == "both")
        return { false, true };
    return { false };
}

std::string usageText()
{
    return "usage:\n"
           "  gpuplan-bench devices [--format table|json]\n"
           "  gpuplan-bench describe --model ID|--config FILE.json [--batch-size N]\n"
           "      [--seq-len N] [--steps N] [--precision fp32|tf32|fp16|bf16]\n"
           "      [--optimizer adam|adamw] [--format table|json]\n"
           "  gpuplan-bench run --model ID|--config FILE.json [--device cpu|cuda|cuda:N]\n"
           "      [--methods naive|free-lunch|all] [--activation-checkpointing off|on|both]\n"
           "      [--offload off|on|both] [--micro-batch N] [--batch-size N] [--seq-len N]\n"
           "      [--steps N] [--precision fp32|tf32|fp16|bf16] [--optimizer adam|adamw]\n"
           "      [--steps-measured K] [--min-time SECONDS] [--warmup N]\n"
           "      [--memory-limit BYTES] [--validate N] [--block-micro-steps N]\n"
           "      [--seed N] [--out results.yaml]\n"
           "      [--progress jsonl] [--format table|json]\n"
           "      [--nproc-per-node N] [--parallelism ddp|zero1|zero2|zero3|all]\n"
           "      [--free-lunch-without PART[,PART...]] [--time-breakdown off|on]\n"
           "  gpuplan-bench comm-probe [--nproc-per-node N] [--device cpu|cuda]\n"
           "      [--max-bytes N] [--format table|json]\n"
           "models: pythia-160m pythia-410m pythia-1b pythia-2.8b pythia-6.9b roberta-large\n"
           "        vit-large-22k convnext-xlarge-22k mamba-2.8b, or a Hugging Face\n"
           "        config.json (GPT-NeoX, Llama or Mamba) with --config\n";
}

CliParse parseCommandLine(const std::vector<std::string>& args)
{
    CliParse parse;
    CliOptions& o = parse.options;
    if (args.empty()) {
        parse.error = "no command given";
        return parse;
    }
    o.command = args[0];
    // --help / -h and --version answer on every subcommand too ("run --help"), before any
    // other argument is checked.
    for (const auto& arg : args) {
        if (arg == "--help" || arg == "-h" || o.command == "help") {
            o.command = "help";
            return parse;
        }
        if (arg == "--version") {
            o.command = "version";
            return parse;
        }
    }
    o.arguments = args;
    if (!oneOf(o.command, { "devices", "describe", "run", "comm-probe" })) {
        parse.error = "unknown command '" + o.command + "'";
        return parse;
    }

    std::string error;
    auto positive = [&](const std::string& flag, const std::string& v, auto& target, auto minimum) {
        using T = std::decay_t<decltype(minimum)>;
        if (auto n = parseWhole<T>(v, minimum))
            target = *n;
        else
            error = flag + " needs a whole number of at least " + std::to_string(minimum)
                + ", not '" + v + "'";
    };
    // A recipe the planner's reader would refuse (its limits, core/limits.h) is refused here,
    // before a run: --batch-size 2147483647 overflowed the accumulation into a negative step
    // time, written to a results file with exit code 0.
    auto plausible = [&](const std::string& flag, const auto& value, const FieldSpec& spec) {
        if (!error.empty() || spec.bounds.contains(static_cast<double>(value)))
            return;
        std::ostringstream text;
        text << flag << " " << value << " is outside the plausible range " << spec.bounds.min
             << " to " << spec.bounds.max;
        error = text.str();
    };
    auto choice = [&](const std::string& flag, const std::string& v,
                      std::initializer_list<const char*> allowed, auto& target) {
        if (oneOf(v, allowed))
            target = v;
        else
            error = "invalid value '" + v + "' for " + flag;
    };

    const std::map<std::string, std::function<void(const std::string&, const std::string&)>> flags
        = {
              { "--format",
                  [&](auto& f, auto& v) {
                      choice(f, v, { "table", "json" }, o.format);
                  } },
              { "--model", [&](auto&, auto& v) { o.model = v; } },
              { "--config", [&](auto&, auto& v) { o.config = v; } },
              { "--device",
                  [&](auto& f, auto& v) {
                      if (v == "cpu" || v == "cuda"
                          || (v.rfind("cuda:", 0) == 0 && parseWhole<int>(v.substr(5), 0)))
                          o.device = v;
                      else
                          error = "invalid value '" + v + "' for " + f + " (cpu, cuda or cuda:N)";
                  } },
              { "--methods",
                  [&](auto& f, auto& v) {
                      choice(f, v, { "naive", "free-lunch", "all" }, o.methods);
                  } },
              { "--activation-checkpointing",
                  [&](auto& f, auto& v) {
                      std::string s;
                      choice(f, v, { "off", "on", "both" }, s);
                      o.checkpointing = s;
                  } },
              { "--offload",
                  [&](auto& f, auto& v) {
                      std::string s;
                      choice(f, v, { "off", "on", "both" }, s);
                      o.offload = s;
                  } },
              { "--micro-batch",
                  [&](auto& f, auto& v) {
                      int n = 0;
                      positive(f, v, n, 1);
                      plausible(f, n, limits::kBatch);
                      o.microBatch = n;
                  } },
              { "--batch-size",
                  [&](auto& f, auto& v) {
                      int n = 0;
                      positive(f, v, n, 1);
                      plausible(f, n, limits::kBatch);
                      o.recipe.globalBatch = n;
                  } },
              { "--seq-len",
                  [&](auto& f, auto& v) {
                      int n = 0;
                      positive(f, v, n, 2);
                      plausible(f, n, limits::kTokensOrPixels);
                      o.recipe.sequenceLength = n;
                  } },
              { "--steps",
                  [&](auto& f, auto& v) {
                      std::int64_t n = 0;
                      positive(f, v, n, std::int64_t { 1 });
                      plausible(f, n, limits::kSteps);
                      o.recipe.steps = n;
                  } },
              { "--precision",
                  [&](auto& f, auto& v) {
                      if (auto p = precisionFromString(v))
                          o.recipe.precision = *p;
                      else
                          error = "invalid value '" + v + "' for " + f
                              + " (fp32, tf32, fp16 or bf16)";
                  } },
              { "--optimizer",
                  [&](auto& f, auto& v) {
                      std::string s;
                      choice(f, v, { "adam", "adamw" }, s);
                      o.recipe.optimizer = s;
                  } },
              { "--steps-measured", [&](auto& f, auto& v) { positive(f, v, o.stepsMeasured, 1); } },
              { "--min-time",
                  [&](auto& f, auto& v) {
                      const auto seconds = parseWhole<double>(v, 0.0);
                      if (seconds && std::isfinite(*seconds) && *seconds <= kMostMinTimeSeconds)
                          o.minTimeSeconds = *seconds;
                      else
                          error = "invalid value '" + v + "' for " + f + " (seconds, 0 to "
                              + std::to_string(static_cast<int>(kMostMinTimeSeconds)) + ")";
                  } },
              { "--warmup", [&](auto& f, auto& v) { positive(f, v, o.warmup, 0); } },
              { "--memory-limit",
                  [&](auto& f, auto& v) {
                      std::int64_t n = 0;
                      positive(f, v, n, std::int64_t { 1 });
                      o.memoryLimit = n;
                  } },
              { "--validate", [&](auto& f, auto& v) { positive(f, v, o.validate, 0); } },
              { "--block-micro-steps",
                  [&](auto& f, auto& v) { positive(f, v, o.blockMicroSteps, 1); } },
              { "--seed", [&](auto& f, auto& v) { positive(f, v, o.seed, std::uint64_t { 0 }); } },
              { "--out",
                  [&](auto& f, auto& v) {
                      // Refused now, not after the measuring: "" is no file to write.
                      if (v.empty())
                          error = f + " needs a file name (the results file to write)";
                      else
                          o.out = v;
                  } },
              { "--nproc-per-node",
                  [&](auto& f, auto& v) {
                      int n = 0;
                      positive(f, v, n, 1);
                      o.nprocPerNode = n;
                  } },
              { "--parallelism",
                  [&](auto& f, auto& v) {
                      std::string s;
                      choice(f, v, { "ddp", "zero1", "zero2", "zero3", "all" }, s);
                      o.parallelism = s;
                  } },
              { "--max-bytes",
                  [&](auto& f, auto& v) {
                      std::int64_t n = 0;
                      positive(f, v, n, distributed::kSmallestProbeBytes);
                      o.maxBytes = n;
                  } },
              { "--free-lunch-without",
                  [&](auto& f, auto& v) {
                      auto parts = parseFreeLunchParts(v);
                      if (parts.error.empty())
                          o.freeLunchWithout = std::move(parts.parts);
                      else
                          error = parts.error + " in " + f;
                  } },
              { "--time-breakdown",
                  [&](auto& f, auto& v) {
                      std::string s;
                      choice(f, v, { "off", "on" }, s);
                      o.timeBreakdown = s == "on";
                  } },
              { "--progress",
                  [&](auto& f, auto& v) {
                      if (v == "jsonl")
                          o.progressJsonl = true;
                      else
                          error = "invalid value '" + v + "' for " + f + " (jsonl)";
                  } },
          };

    // The commands each option means something to; given to another it is refused, not
    // ignored: `describe --micro-batch 8` and `devices --device cuda:3` had answered as if it
    // were not there (review). Options not listed apply to run alone.
    const std::map<std::string, std::vector<std::string>> notOnlyRun = {
        { "--format", { "devices", "describe", "run", "comm-probe" } },
        { "--model", { "describe", "run" } },
        { "--config", { "describe", "run" } },
        // The recipe describe prices its FLOPs and steps for.
        { "--batch-size", { "describe", "run" } },
        { "--seq-len", { "describe", "run" } },
        { "--steps", { "describe", "run" } },
        { "--precision", { "describe", "run" } },
        { "--optimizer", { "describe", "run" } },
        { "--device", { "run", "comm-probe" } },
        { "--nproc-per-node", { "run", "comm-probe" } },
        { "--max-bytes", { "comm-probe" } },
    };
    const auto appliesHere = [&](const std::string& flag) {
        const auto listed = notOnlyRun.find(flag);
        const std::vector<std::string> commands
            = listed == notOnlyRun.end() ? std::vector<std::string> { "run" } : listed->second;
        if (std::find(commands.begin(), commands.end(), o.command) != commands.end())
            return true;
        std::string names;
        for (std::size_t k = 0; k < commands.size(); ++k)
            names += (k == 0 ? "" : k + 1 == commands.size() ? " and " : ", ") + commands[k];
        error = flag + " applies to " + names + ", not to " + o.command;
        return false;
    };

    // An option given twice is refused, as gpuplan-cli refuses it: the last one silently won.
    std::map<std::string, std::string> given;
    for (std::size_t i = 1; i < args.size() && error.empty(); ++i) {
        const auto it = flags.find(args[i]);
        if (it == flags.end()) {
            error = "unknown option '" + args[i] + "'";
            break;
        }
        if (i + 1 >= args.size()) {
            error = args[i] + " needs a value";
            break;
        }
        if (const auto earlier = given.find(args[i]); earlier != given.end()) {
            error = args[i] + " is given twice ('" + earlier->second + "', then '" + args[i + 1]
                + "'): give it once";
            break;
        }
        given.emplace(args[i], args[i + 1]);
        if (!appliesHere(args[i]))
            break;
        it->second(args[i], args[i + 1]);
        ++i;
    }
    const bool needsModel = o.command == "describe" || o.command == "run";
    if (error.empty() && needsModel && o.model.has_value() == o.config.has_value())
        error = o.command + " needs exactly one of --model ID and --config FILE.json";
    if (error.empty() && !o.freeLunchWithout.empty() && o.methods == "naive")
        error = "--free-lunch-without applies to run's free-lunch method (--methods free-lunch "
                "or all)";
    // The naive method is the paper's: no checkpointing, no offload. Asked for with it alone,
    // they would be dropped without a word.
    if (error.empty() && o.methods == "naive"
        && ((o.checkpointing && *o.checkpointing != "off") || (o.offload && *o.offload != "off")))
        error = "--activation-checkpointing and --offload apply to the free-lunch method "
                "(--methods free-lunch or all); the naive method runs without them";
    if (error.empty() && o.nprocPerNode && *o.nprocPerNode > 1 && o.device
        && o.device->rfind("cuda:", 0) == 0)
        error = "--nproc-per-node gives every rank its own GPU (rank r takes cuda:r): use "
                "--device cuda, and CUDA_VISIBLE_DEVICES to choose the GPUs";
    if (error.empty() && o.recipe.globalBatch && o.microBatch
        && *o.microBatch > *o.recipe.globalBatch)
        error = "--micro-batch is larger than --batch-size";
    parse.error = error;
    return parse;
}

std::vector<std::string> withoutProcessCount(const std::vector<std::string>& arguments)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        if (arguments[i] == "--nproc-per-node" && i + 1 < arguments.size()) {
            ++i;
            continue;
        }
        out.push_back(arguments[i]);
    }
    return out;
}

} // namespace gpuplan::bench

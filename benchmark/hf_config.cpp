#include "benchmark/hf_config.h"

#include "pricing/text_checks.h"
#include "pricing/text_file.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace gpuplan::bench {

namespace {

// Sizes beyond these are typos, not models (the largest public dense models are ~20k wide).
constexpr double kMaxWidth = 1 << 17;
constexpr double kMaxLayers = 1024;
constexpr double kMaxVocabulary = 1 << 22;
// Mamba: published models use state 16, expansion 2 and convolution width 4; these bounds only
// catch typos.
constexpr double kMaxStates = 1024;
constexpr double kMaxConvKernel = 64;
constexpr double kMaxExpand = 16;

struct ConfigError {
    std::string message;
};

class Reader {
public:
    Reader(const YAML::Node& root, std::string file)
        : root_(root)
        , file_(std::move(file))
    {
    }

    [[noreturn]] void fail(const YAML::Node& at, const std::string& what) const
    {
        const YAML::Mark m = at.Mark();
        std::ostringstream out;
        out << file_ << ':' << (m.line + 1) << ':' << (m.column + 1) << ": " << what;
        throw ConfigError { out.str() };
    }

    bool has(const char* key) const { return static_cast<bool>(root_[key]); }

    std::string text(const char* key) const
    {
        const YAML::Node n = root_[key];
        if (!n.IsScalar())
            fail(n, std::string("\"") + key + "\" must be a string");
        return n.Scalar();
    }

    double number(const char* key) const
    {
        const YAML::Node n = root_[key];
        double value = 0.0;
        if (!n.IsScalar() || !YAML::convert<double>::decode(n, value) || !std::isfinite(value))
            fail(n, std::string("\"") + key + "\" must be a number");
        return value;
    }

    // A positive whole number no larger than `limit`.
    int count(const char* key, double limit) const
    {
        if (!has(key))
            fail(root_, std::string("missing \"") + key + "\"");
        const double value = number(key);
        if (value < 1 || value > limit || value != std::floor(value))
            fail(root_[key],
                std::string("\"") + key + "\" must be a whole number from 1 to "
                    + std::to_string(static_cast<long long>(limit)));
        return static_cast<int>(value);
    }

    int countOr(const char* key, double limit, int fallback) const
    {
        return has(key) ? count(key, limit) : fallback;
    }

    double fraction(const char* key, double fallback) const
    {
        if (!has(key))
            return fallback;
        const double value = number(key);
        if (value < 0.0 || value > 1.0)
            fail(root_[key], std::string("\"") + key + "\" must be between 0 and 1");
        return value;
    }

    double positive(const char* key, double fallback) const
    {
        if (!has(key))
            return fallback;
        const double value = number(key);
        if (value <= 0.0)
            fail(root_[key], std::string("\"") + key + "\" must be positive");
        return value;
    }

    bool flag(const char* key, bool fallback) const
    {
        if (!has(key))
            return fallback;
        const YAML::Node n = root_[key];
        bool value = false;
        if (!n.IsScalar() || !YAML::convert<bool>::decode(n, value))
            fail(n, std::string("\"") + key + "\" must be true or false");
        return value;
    }

    const YAML::Node& root() const { return root_; }

private:
    YAML::Node root_;
    std::string file_;
};

void rejectDuplicateKeys(const Reader& reader)
{
    std::set<std::string> seen;
    for (const auto& entry : reader.root()) {
        const std::string key = entry.first.Scalar();
        if (!seen.insert(key).second)
            reader.fail(entry.first, "duplicate key \"" + key + "\"");
    }
}

std::string modelName(const std::string& path)
{
    // A config.json usually sits in a folder named after the model: "my-model/config.json".
    const std::filesystem::path p(path);
    std::string stem = p.stem().string();
    if (stem == "config" && p.has_parent_path() && !p.parent_path().filename().empty())
        stem = p.parent_path().filename().string();
    return stem.empty() ? "model" : stem;
}

// Hugging Face's MambaConfig (model_type "mamba"), with its defaults for absent fields.
void readMamba(const Reader& r, ModelSpec& s)
{
    s.hiddenSize = r.count("hidden_size", kMaxWidth);
    s.layers = r.count("num_hidden_layers", kMaxLayers);
    s.vocabSize = r.count("vocab_size", kMaxVocabulary);
    s.stateSize = r.countOr("state_size", kMaxStates, 16);
    s.convKernel = r.countOr("conv_kernel", kMaxConvKernel, 4);
    // transformers derives intermediate_size = expand x hidden_size, but a config.json that
    // spells intermediate_size out overrides it (PretrainedConfig keeps extra keys).
    const int expand = r.countOr("expand", kMaxExpand, 2);
    s.intermediateSize = r.has("intermediate_size")
        ? r.count("intermediate_size", 8 * kMaxWidth)
        : static_cast<std::int64_t>(expand) * s.hiddenSize;
    // time_step_rank: a number, or "auto" = ceil(hidden_size / 16) (transformers' rule).
    constexpr int kAutoRankDivisor = 16;
    const bool autoRank = !r.has("time_step_rank")
        || (r.root()["time_step_rank"].IsScalar() && r.root()["time_step_rank"].Scalar() == "auto");
    s.timeStepRank = autoRank ? (s.hiddenSize + kAutoRankDivisor - 1) / kAutoRankDivisor
                              : r.count("time_step_rank", kMaxWidth);
    s.projectionBias = r.flag("use_bias", true);
    s.convBias = r.flag("use_conv_bias", true);
    s.normEps = r.positive("layer_norm_epsilon", 1e-5);
    s.tieEmbeddings = r.flag("tie_word_embeddings", true);
    s.maxPositions = kMaxPositions; // no position embeddings
    if (r.has("hidden_act") && r.text("hidden_act") != "silu")
        r.fail(r.root()["hidden_act"],
            "hidden_act \"" + r.text("hidden_act") + "\" is not supported (Mamba blocks use silu)");
}

ModelSpec readSpec(const Reader& r, const std::string& fileName)
{
    if (!r.has("model_type"))
        r.fail(r.root(), "missing \"model_type\" (gpt_neox, llama or mamba)");
    const std::string type = r.text("model_type");
    ModelSpec s;
    if (type == "gpt_neox")
        s.architecture = Architecture::GptNeoX;
    else if (type == "llama" || type == "mistral")
        s.architecture = Architecture::Llama;
    else if (type == "mamba")
        s.architecture = Architecture::Mamba;
    else
        r.fail(r.root()["model_type"],
            "model_type \"" + type + "\" is not supported (gpt_neox, llama or mamba)");

    s.name = modelName(fileName);
    s.id = "custom:" + s.name;
    s.configFile = fileName;
    if (s.architecture == Architecture::Mamba) {
        readMamba(r, s);
        return s;
    }
    s.hiddenSize = r.count("hidden_size", kMaxWidth);
    s.layers = r.count("num_hidden_layers", kMaxLayers);
    s.heads = r.count("num_attention_heads", kMaxWidth);
    s.intermediateSize = r.count("intermediate_size", 8 * kMaxWidth);
    s.vocabSize = r.count("vocab_size", kMaxVocabulary);
    s.maxPositions = r.countOr("max_position_embeddings", kMaxPositions, 2048);
    if (s.hiddenSize % s.heads != 0)
        r.fail(r.root()["num_attention_heads"],
            "hidden_size " + std::to_string(s.hiddenSize)
                + " is not divisible by num_attention_heads " + std::to_string(s.heads));

    if (s.architecture == Architecture::GptNeoX) {
        s.kvHeads = s.heads;
        s.rotaryPct = r.fraction("rotary_pct", 0.25);
        s.rotaryBase = r.positive("rotary_emb_base", 10000.0);
        s.normEps = r.positive("layer_norm_eps", 1e-5);
        s.parallelResidual = r.flag("use_parallel_residual", true);
        s.tieEmbeddings = r.flag("tie_word_embeddings", false);
    } else {
        s.kvHeads = r.countOr("num_key_value_heads", kMaxWidth, s.heads);
        if (s.heads % s.kvHeads != 0)
            r.fail(r.root()["num_key_value_heads"],
                "num_attention_heads " + std::to_string(s.heads)
                    + " is not divisible by num_key_value_heads " + std::to_string(s.kvHeads));
        // Mistral-Nemo style attention narrower than the hidden size, and the biases some
        // Llama-style configs switch on, are not built: refused rather than measured wrongly.
        if (r.has("head_dim") && !r.root()["head_dim"].IsNull()
            && r.count("head_dim", kMaxWidth) != s.hiddenSize / s.heads)
            r.fail(r.root()["head_dim"],
                "head_dim " + std::to_string(r.count("head_dim", kMaxWidth))
                    + " is not hidden_size / num_attention_heads ("
                    + std::to_string(s.hiddenSize / s.heads) + "): not supported");
        for (const char* bias : { "attention_bias", "mlp_bias" })
            if (r.has(bias) && r.flag(bias, false))
                r.fail(r.root()[bias], std::string(bias) + " true is not supported");
        s.rotaryPct = 1.0;
        s.rotaryBase = r.positive("rope_theta", 10000.0);
        s.normEps = r.positive("rms_norm_eps", 1e-6);
        s.tieEmbeddings = r.flag("tie_word_embeddings", false);
    }
    const int rotaryDims = s.rotaryDims();
    if (rotaryDims % 2 != 0)
        r.fail(r.root(),
            "rotary dimensions (head size x rotary_pct = " + std::to_string(rotaryDims)
                + ") must be even");
    return s;
}

} // namespace

HfConfigLoad parseHfConfig(std::string_view text, const std::string& fileName)
{
    HfConfigLoad load;
    try {
        // Load, never LoadAll: yaml-cpp 0.7's LoadAll loops forever on some inputs.
        const YAML::Node root = YAML::Load(std::string(text));
        if (!root.IsMap()) {
            load.error = fileName + ":1:1: expected a JSON object";
            return load;
        }
        const Reader reader(root, fileName);
        rejectDuplicateKeys(reader);
        load.spec = readSpec(reader, fileName);
        // The weights' type, where half precision: the precision the model trains in.
        if (reader.has("torch_dtype") && !root["torch_dtype"].IsNull()) {
            const std::string dtype = reader.text("torch_dtype");
            if (dtype == "float16")
                load.precision = Precision::FP16;
            else if (dtype == "bfloat16")
                load.precision = Precision::BF16;
        }
    } catch (const ConfigError& e) {
        load.error = e.message;
    } catch (const YAML::DeepRecursion& e) {
        load.error = fileName + ":" + std::to_string(e.mark.line + 1) + ":"
            + std::to_string(e.mark.column + 1) + ": nested too deeply";
    } catch (const YAML::Exception& e) {
        load.error = fileName + ":" + std::to_string(e.mark.line + 1) + ":"
            + std::to_string(e.mark.column + 1) + ": not valid JSON: " + e.msg;
    }
    return load;
}

HfConfigLoad loadHfConfig(const std::string& path)
{
    HfConfigLoad load;
    if (std::filesystem::is_directory(path)) {
        load.error = path + ": is a folder; --config names a model's config.json";
        return load;
    }
    // Checked before it is read, as the planner's data files are: the weights given for the
    // config (model.safetensors) were read whole, 8.5 GB, and /dev/zero until memory ran out.
    std::vector<LoadIssue> issues;
    const auto text = readTextFile(path, issues, kMaxConfigBytes,
        "a model's config.json may have (the weights rather than the config?)");
    if (!text) {
        load.error = path + ": " + issues.front().message;
        return load;
    }
    if (const auto junk = findBinaryJunk(*text, path, "a model's config.json")) {
        load.error = path + ":" + std::to_string(junk->line) + ":" + std::to_string(junk->column)
            + ": " + junk->message;
        return load;
    }
    return parseHfConfig(*text, path);
}

} // namespace gpuplan::bench

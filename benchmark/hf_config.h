#pragma once

// Reads a Hugging Face config.json (GPT-NeoX, Llama or Mamba architecture) into a ModelSpec: how
// users bring their own model, and how the tests build tiny ones.

#include "benchmark/model_spec.h"
#include "core/precision.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::bench {

struct HfConfigLoad {
    std::optional<ModelSpec> spec;
    // torch_dtype float16 or bfloat16: the precision the model trains in (mixed, with fp32
    // master weights); nullopt where the config states fp32 or nothing.
    std::optional<Precision> precision;
    std::string error; // "file:line:column: what is wrong" when spec is empty
};

// `text` is the file's contents, `fileName` is used in messages and as the spec's configFile.
HfConfigLoad parseHfConfig(std::string_view text, const std::string& fileName);
// A model's config.json is a few KiB (Llama 3 405B's: 1 KiB); 1 MiB leaves room and refuses the
// weights or a device before a byte is read.
inline constexpr std::uintmax_t kMaxConfigBytes = 1024 * 1024;
HfConfigLoad loadHfConfig(const std::string& path);

} // namespace gpuplan::bench

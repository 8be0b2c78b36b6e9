#include "benchmark/model_selection.h"

#include "benchmark/hf_config.h"
#include "pricing/catalog_loader.h"

namespace gpuplan::bench {

std::shared_ptr<const Catalog> shippedCatalog()
{
    static const std::shared_ptr<const Catalog> catalog = loadCatalog(shippedDataFiles()).catalog;
    return catalog;
}

ModelSelection selectModel(const CliOptions& options, const Catalog& catalog)
{
    ModelSelection s;
    std::optional<Precision> configPrecision;
    if (options.model) {
        s.spec = shippedModelSpec(*options.model);
        if (!s.spec) {
            std::string known;
            for (const auto& id : shippedModelIds())
                known += (known.empty() ? "" : ", ") + id;
            s.error = "unknown model '" + *options.model + "' (known: " + known + ")";
            return s;
        }
    } else {
        HfConfigLoad load = loadHfConfig(*options.config);
        if (!load.spec) {
            s.error = load.error;
            return s;
        }
        s.spec = std::move(load.spec);
        configPrecision = load.precision;
    }
    // A custom model trains in its config's half precision where it names one (--precision
    // still decides).
    RecipeOverrides overrides = options.recipe;
    if (!overrides.precision)
        overrides.precision = configPrecision;
    s.recipe = recipeFor(*s.spec, catalog, overrides);
    // Said, not silently dropped (the GUI's reduced recipe passes it for every model).
    if (!s.spec->isLanguageModel() && options.recipe.sequenceLength)
        s.warning = "--seq-len applies to language models; " + s.spec->name + " trains on "
            + std::to_string(s.recipe.imageSize) + "x" + std::to_string(s.recipe.imageSize)
            + " images, and --seq-len is left out";
    if (s.spec->isLanguageModel() && s.recipe.sequenceLength < 2)
        s.error = "the recipe needs a sequence length of at least 2 tokens (--seq-len)";
    else if (s.spec->architecture == Architecture::Roberta
        && s.recipe.sequenceLength > s.spec->maxPositions - 2)
        s.error = "--seq-len " + std::to_string(s.recipe.sequenceLength)
            + " exceeds the model's learned positions (" + std::to_string(s.spec->maxPositions - 2)
            + ")";
    else if (!s.spec->isLanguageModel() && s.recipe.imageSize % s.spec->patchSize != 0)
        s.error = "image size " + std::to_string(s.recipe.imageSize)
            + " is not a multiple of the patch size";
    if (!s.error.empty())
        s.spec.reset();
    return s;
}

} // namespace gpuplan::bench

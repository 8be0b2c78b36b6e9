#include "benchmark/models/model_factory.h"

#include "benchmark/models/convnext.h"
#include "benchmark/models/gpt_neox.h"
#include "benchmark/models/llama.h"
#include "benchmark/models/mamba.h"
#include "benchmark/models/roberta.h"
#include "benchmark/models/vit.h"

namespace gpuplan::bench {

std::shared_ptr<TrainableModel> makeModel(const ModelSpec& spec, const Recipe& recipe)
{
    switch (spec.architecture) {
    case Architecture::GptNeoX:
        return makeGptNeox(spec, recipe.sequenceLength);
    case Architecture::Llama:
        return makeLlama(spec, recipe.sequenceLength);
    case Architecture::Roberta:
        return makeRoberta(spec, recipe.sequenceLength);
    case Architecture::Vit:
        return makeVit(spec, recipe.imageSize);
    case Architecture::ConvNext:
        return makeConvNext(spec, recipe.imageSize);
    case Architecture::Mamba:
        return makeMamba(spec, recipe.sequenceLength);
    }
    return nullptr;
}

} // namespace gpuplan::bench

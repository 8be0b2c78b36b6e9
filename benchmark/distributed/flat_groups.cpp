#include "benchmark/distributed/flat_groups.h"

#include <unordered_set>

namespace gpuplan::bench::distributed {

namespace {

std::int64_t roundUp(std::int64_t n, std::int64_t multiple)
{
    return (n + multiple - 1) / multiple * multiple;
}

void addParameters(ParameterGroup& group, const std::vector<torch::Tensor>& parameters,
    std::unordered_set<const void*>& seen)
{
    for (const auto& p : parameters) {
        if (!p.requires_grad() || !seen.insert(p.unsafeGetTensorImpl()).second)
            continue;
        group.parameters.push_back(p);
        group.offsets.push_back(group.elements);
        group.elements += p.numel();
    }
}

std::vector<std::int64_t> contiguousStrides(const std::vector<std::int64_t>& sizes)
{
    std::vector<std::int64_t> strides(sizes.size(), 1);
    for (std::size_t i = sizes.size(); i-- > 1;)
        strides[i - 1] = strides[i] * std::max<std::int64_t>(sizes[i], 1);
    return strides;
}

// Points `parameter` at its place in `flat`, keeping its shape (and its tensor object).
void pointAt(torch::Tensor& parameter, const torch::Tensor& flat, std::int64_t offset)
{
    torch::NoGradGuard noGrad;
    const auto sizes = parameter.sizes().vec();
    parameter.set_(flat.storage(), flat.storage_offset() + offset, sizes, contiguousStrides(sizes));
}

} // namespace

std::vector<ParameterGroup> flattenParameters(TrainableModel& model, int worldSize)
{
    std::vector<ParameterGroup> groups;
    std::unordered_set<const void*> seen;
    // modules() lists a module before its children: a block claims its parameters first.
    for (const auto& module : model.modules(/*include_self=*/false)) {
        auto* block = dynamic_cast<CheckpointedBlock*>(module.get());
        if (!block)
            continue;
        ParameterGroup group;
        group.block = block;
        addParameters(group, module->parameters(), seen);
        if (!group.parameters.empty())
            groups.push_back(std::move(group));
    }
    ParameterGroup rest;
    addParameters(rest, model.parameters(), seen);
    if (!rest.parameters.empty())
        groups.push_back(std::move(rest));

    torch::NoGradGuard noGrad;
    for (auto& group : groups) {
        const auto& first = group.parameters.front();
        for (const auto& p : group.parameters)
            TORCH_CHECK(p.scalar_type() == first.scalar_type() && p.device() == first.device(),
                "flat parameter groups need one dtype and device per group");
        const std::int64_t padded = roundUp(group.elements, worldSize * kShardAlignment);
        group.flat = torch::zeros({ padded }, first.options().requires_grad(false));
        for (std::size_t i = 0; i < group.parameters.size(); ++i) {
            auto& p = group.parameters[i];
            group.flat.narrow(0, group.offsets[i], p.numel()).copy_(p.detach().reshape(-1));
            pointAt(p, group.flat, group.offsets[i]);
        }
    }
    return groups;
}

std::vector<torch::Tensor> viewsInto(const ParameterGroup& group, const torch::Tensor& full)
{
    std::vector<torch::Tensor> views;
    for (std::size_t i = 0; i < group.parameters.size(); ++i) {
        const auto& p = group.parameters[i];
        views.push_back(full.narrow(0, group.offsets[i], p.numel()).view(p.sizes()));
    }
    return views;
}

void releaseStorage(ParameterGroup& group)
{
    const c10::Storage storage = group.flat.storage();
    storage.set_data_ptr_noswap(at::DataPtr(nullptr, group.flat.device()));
    storage.set_nbytes(0);
}

void materializeStorage(ParameterGroup& group)
{
    const c10::Storage storage = group.flat.storage();
    const std::size_t bytes = static_cast<std::size_t>(group.padded()) * group.flat.element_size();
    storage.set_data_ptr_noswap(storage.allocator()->allocate(bytes));
    storage.set_nbytes(bytes);
}

bool isMaterialized(const ParameterGroup& group)
{
    return group.flat.storage().nbytes() > 0;
}

void unflattenParameters(std::vector<ParameterGroup>& groups)
{
    torch::NoGradGuard noGrad;
    for (auto& group : groups)
        for (auto& p : group.parameters)
            p.set_(p.detach().clone());
}

} // namespace gpuplan::bench::distributed

#pragma once

// The model's parameters in flat, padded buffers, one per group: a group per model block (a
// CheckpointedBlock module, in forward order) and one for everything else (embeddings, final
// norm, head). The module's parameter tensors stay the same objects (autograd and the model
// keep working) but become views into their group's buffer, so a collective moves a group in
// one call and a rank's shard of a group is one contiguous slice.
//
// Each buffer is padded to a multiple of worldSize x kShardAlignment elements: every shard has
// the same size, and starts 128-byte aligned for fp32.

#include "benchmark/checkpoint.h"
#include "benchmark/models/trainable_model.h"

#include <cstdint>
#include <vector>

namespace gpuplan::bench::distributed {

inline constexpr std::int64_t kShardAlignment = 32;

struct ParameterGroup {
    std::vector<torch::Tensor> parameters; // the model's own tensors
    std::vector<std::int64_t> offsets; // element offset of each parameter in `flat`
    std::int64_t elements = 0; // parameters' elements, without padding
    torch::Tensor flat; // [padded] the values; module parameters view it
    CheckpointedBlock* block = nullptr; // nullptr: the group of parameters outside blocks

    std::int64_t padded() const { return flat.numel(); }
    std::int64_t shardSize(int worldSize) const { return padded() / worldSize; }
    torch::Tensor shardOf(const torch::Tensor& full, int rank, int worldSize) const
    {
        return full.narrow(0, rank * shardSize(worldSize), shardSize(worldSize));
    }
};

// Groups the model's parameters (tied ones once) and moves their values into flat buffers on
// the parameters' device; the module's tensors then view those buffers.
std::vector<ParameterGroup> flattenParameters(TrainableModel& model, int worldSize);

// Makes every parameter of `group` a view of `full` (same layout as group.flat), e.g. a
// gradient buffer: `views[i]` for parameter i.
std::vector<torch::Tensor> viewsInto(const ParameterGroup& group, const torch::Tensor& full);

// Frees the memory behind group.flat, keeping the tensors (and what autograd saved of them)
// pointing at the same storage, which materialize() refills. Version counters are untouched,
// so a graph that saved the parameters stays valid across a release and a re-gather: the
// storage-resize trick PyTorch's FSDP uses.
void releaseStorage(ParameterGroup& group);
void materializeStorage(ParameterGroup& group);
bool isMaterialized(const ParameterGroup& group);

// Gives every parameter storage of its own again (a copy of its current values).
void unflattenParameters(std::vector<ParameterGroup>& groups);

} // namespace gpuplan::bench::distributed

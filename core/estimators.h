#pragma once

#include "core/catalog.h"
#include "core/interconnect.h"
#include "core/training_estimate.h"

#include <optional>

namespace gpuplan {

// Implied utilisation = training FLOPs / (days * 86400 * n * peak); nullopt when no peak is
// known for the workload's precision. This is the honesty check shown on every estimate.
std::optional<double> impliedUtilization(
    const Workload& w, const GpuSpec& gpu, int gpuCount, double days);

// What training a model must hold in GPU memory at the least, before any activation: 16 bytes
// a parameter for Adam with the paper's recipes, sharded over the GPUs at most as ZeRO-3 does.
// Where it exceeds the GPUs' memory the model trains only by offloading to CPU memory (the
// paper found Pythia-6.9B infeasible on one 80 GB GPU), whose speed the analytic estimate
// cannot know. The GPUs' memory is taken as the stated GB in 10^9 bytes: about 93% of the GiB
// installed, the rest left to the CUDA context and fragmentation.
//
// By kind, as gpuplan-bench keeps them (PyTorch's automatic mixed precision: fp32 weights and
// gradients, Adam's two fp32 moments), which ZeRO's stages shard one after the other. DeepSpeed
// keeps 16-bit weights and gradients beside 12 bytes of fp32 optimizer state (Rajbhandari et
// al. 2020, "ZeRO", section 3.1), the same 16 bytes, of which ZeRO-1 and -2 shard more: this
// split may choose more sharding, and so more communication, than such a stack needs.
inline constexpr double kWeightBytesPerParameter = 4.0;
inline constexpr double kGradientBytesPerParameter = 4.0;
inline constexpr double kOptimizerBytesPerParameter = 8.0;
inline constexpr double kTrainingStateBytesPerParameter
    = kWeightBytesPerParameter + kGradientBytesPerParameter + kOptimizerBytesPerParameter;
static_assert(kTrainingStateBytesPerParameter == 16.0);
double trainingStateBytes(const Workload& w);

// The least sharding of that state (ddp, then ZeRO-1, -2, -3; `None` on one GPU) that leaves
// each of `gpuCount` GPUs within `memoryBytes`; nullopt when not even ZeRO-3's shard fits.
std::optional<Parallelism> leastShardingThatHolds(
    const Workload& w, int gpuCount, double memoryBytes);

// Each returns nullopt when the source has nothing for this (model, GPU, count): a GPU the
// paper did not test, a precision with no known peak, no measurement. An infeasible cell of a
// paper table is returned as an estimate with feasible == false, and so is an analytic one whose
// training state (trainingStateBytes) does not fit in the GPUs' memory.
std::optional<TrainingEstimate> paperEstimate(
    const Catalog& c, const Workload& w, const GpuSpec& gpu, int gpuCount, bool naive);
// `between`: the link the GPUs exchange over where it is not one machine's own (the network
// between cloud instances, core/instance_network.h); nullptr: core/interconnect.h's for the GPU.
std::optional<TrainingEstimate> analyticEstimate(const Workload& w, const GpuSpec& gpu,
    int gpuCount, double assumedUtilization, const Interconnect* between = nullptr);
// A gpuplan-bench measurement of this count on one machine (a run over several timed their
// network: the extrapolated source re-prices it).
std::optional<TrainingEstimate> measuredEstimate(
    const Catalog& c, const Workload& w, const GpuSpec& gpu, int gpuCount);
// N GPUs from a gpuplan-bench measurement on fewer (the most below N), or on N over several
// machines, whose bus bandwidth is then their network's and not carried over: the measured compute
// split over N, plus the strategy's exchanges per step (core/step_communication.h) at the bus
// bandwidth the measured ranks reached or, for a one-GPU measurement, core/interconnect.h's;
// of ddp and ZeRO-1, -2 and -3 each at the micro-batch it leaves room for
// (core/micro_batch_model.h), the fastest. Range: as much hidden behind the backward pass as
// can be (low) to nothing hidden (high); the estimate is their middle. Where no bus bandwidth
// is known (PCIe cards), the measured compute alone at the least sharding that fits, flagged
// perfect_scaling as the analytic estimate is: a measured card's speed, not an assumed one.
// nullopt without such a measurement. `between` as for analyticEstimate: it replaces the bus
// bandwidth the measured ranks reached too, which was one machine's.
std::optional<TrainingEstimate> extrapolatedEstimate(const Catalog& c, const Workload& w,
    const GpuSpec& gpu, int gpuCount, const Interconnect* between = nullptr);

// The one entry point the evaluator uses; `Best` tries measured, extrapolated, paper, analytic,
// with an extrapolation flagged perfect_scaling (no bandwidth known) after paper. With
// `between` (GPUs on several machines) `Best` tries only the two that can price that link,
// extrapolated then analytic: a measurement or a paper table of the same count timed one
// machine. `Paper` and `Measured` return their one machine's time regardless, which the caller
// tells by pricesTheLinkBetween.
std::optional<TrainingEstimate> estimateTraining(const Catalog& c, SourcePolicy policy,
    const Workload& w, const GpuSpec& gpu, int gpuCount, double analyticUtilization,
    const Interconnect* between = nullptr);

// Whether an estimate priced the GPUs' exchange over a link passed as `between`: the analytic
// and extrapolated sources do.
bool pricesTheLinkBetween(const TrainingEstimate& e);

} // namespace gpuplan

#pragma once

#include "core/catalog.h"
#include "core/training_estimate.h"

#include <optional>

namespace gpuplan {

// Implied utilisation = training FLOPs / (days * 86400 * n * peak); nullopt when no peak is
// known for the workload's precision. This is the honesty check shown on every estimate.
std::optional<double> impliedUtilization(
    const Workload& w, const GpuSpec& gpu, int gpuCount, double days);

// What training a model must hold in GPU memory at the least, before any activation: 16 bytes
// a parameter for Adam with the paper's recipes (mixed precision: 16-bit weights and gradients,
// 4-byte fp32 master weights, two 4-byte moments; fp32: 4-byte weights, gradients and two
// moments), sharded over the GPUs as ZeRO-3 does. Where it exceeds the GPUs' memory the model
// trains only by offloading to CPU memory (the paper found Pythia-6.9B infeasible on one 80 GB
// GPU), whose speed the analytic estimate cannot know. The GPUs' memory is taken as the stated
// GB in 10^9 bytes: about 93% of the GiB installed, the rest left to the CUDA context and
// fragmentation.
inline constexpr double kTrainingStateBytesPerParameter = 16.0;
double trainingStateBytes(const Workload& w);

// Each returns nullopt when the source has nothing for this (model, GPU, count): a GPU the
// paper did not test, a precision with no known peak, no measurement. An infeasible cell of a
// paper table is returned as an estimate with feasible == false, and so is an analytic one whose
// training state (trainingStateBytes) does not fit in the GPUs' memory.
std::optional<TrainingEstimate> paperEstimate(
    const Catalog& c, const Workload& w, const GpuSpec& gpu, int gpuCount, bool naive);
std::optional<TrainingEstimate> analyticEstimate(
    const Workload& w, const GpuSpec& gpu, int gpuCount, double assumedUtilization);
std::optional<TrainingEstimate> measuredEstimate(
    const Catalog& c, const Workload& w, const GpuSpec& gpu, int gpuCount);
// N GPUs from a gpuplan-bench measurement on fewer (the most below N): the measured compute
// split over N, plus the gradients' communication per step at the bus bandwidth the measured
// ranks reached or, for a one-GPU measurement, core/interconnect.h's; of ddp, ZeRO-1 and ZeRO-2
// each at the micro-batch it leaves room for (core/micro_batch_model.h), the fastest.
// Range: full overlap of the two (low) to none (high); the estimate is their middle. nullopt
// without such a measurement or without a known bus bandwidth.
std::optional<TrainingEstimate> extrapolatedEstimate(
    const Catalog& c, const Workload& w, const GpuSpec& gpu, int gpuCount);

// The one entry point the evaluator uses; `Best` tries measured, extrapolated, paper, analytic.
std::optional<TrainingEstimate> estimateTraining(const Catalog& c, SourcePolicy policy,
    const Workload& w, const GpuSpec& gpu, int gpuCount, double analyticUtilization);

} // namespace gpuplan

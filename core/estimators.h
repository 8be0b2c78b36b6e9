#pragma once

#include "core/catalog.h"
#include "core/training_estimate.h"

#include <optional>

namespace gpuplan {

// Implied utilisation = training FLOPs / (days * 86400 * n * peak); nullopt when no peak is
// known for the workload's precision. This is the honesty check shown on every estimate.
std::optional<double> impliedUtilization(
    const Workload& w, const GpuSpec& gpu, int gpuCount, double days);

// Each returns nullopt when the source has nothing for this (model, GPU, count): a GPU the
// paper did not test, a precision with no known peak, no measurement. An infeasible cell of a
// paper table is returned as an estimate with feasible == false.
std::optional<TrainingEstimate> paperEstimate(
    const Catalog& c, const Workload& w, const GpuSpec& gpu, int gpuCount, bool naive);
std::optional<TrainingEstimate> analyticEstimate(
    const Workload& w, const GpuSpec& gpu, int gpuCount, double assumedUtilization);
std::optional<TrainingEstimate> measuredEstimate(
    const Catalog& c, const Workload& w, const GpuSpec& gpu, int gpuCount);

// The one entry point the evaluator uses; `Best` tries measured, then paper, then analytic.
std::optional<TrainingEstimate> estimateTraining(const Catalog& c, SourcePolicy policy,
    const Workload& w, const GpuSpec& gpu, int gpuCount, double analyticUtilization);

} // namespace gpuplan

#pragma once

// What a data-parallel strategy exchanges per optimizer step, and how much of it the backward
// pass can hide: one model for the `analytic` and `extrapolated` estimates, after the
// collectives gpuplan-bench's strategies issue (benchmark/distributed/sharded_step.cpp).
//
// Ring collectives, nccl-tests' definitions: an all-reduce moves 2 (n - 1) / n x bytes per rank
// at the bus bandwidth, a reduce-scatter or an all-gather half that. Volumes are counted in
// all-reduces of the gradients' bytes (`allReduceSeconds`), per optimizer step of A micro-steps:
//
//   ddp    one all-reduce of the gradients, started in the last micro-step's backward;
//   zero1  one reduce-scatter of the gradients in the last backward, then one all-gather of the
//          updated parameters after the optimizer step, which the next step waits for;
//   zero2  a reduce-scatter in every micro-step's backward, then the same all-gather;
//   zero3  every micro-step gathers each block's parameters before its forward and again before
//          its backward (no prefetch: each gather is waited for) and reduce-scatters its
//          gradients in the backward.
//
// Two simplifications, one each way: the parameters outside the blocks (embeddings, head: a
// fifth of Pythia-1B's) are gathered once a micro-step under ZeRO-3, not twice as counted
// here; and their gradients are complete only at the end of the backward pass, so the window
// hides a little less of ddp's, ZeRO-1's and ZeRO-2's exchange than `best` assumes.

#include "core/parallelism.h"

#include <string_view>

namespace gpuplan {

// The backward pass's share of a step's compute: twice the forward's FLOPs (6N per token =
// 2N forward + 4N backward; Kaplan et al. 2020, "Scaling Laws for Neural Language Models",
// section 2.1). Activation checkpointing recomputes the forward inside the backward, which
// widens the window; 2/3 is the narrower of the two.
inline constexpr double kBackwardShareOfCompute = 2.0 / 3.0;

struct StepCommunication {
    // All-reduces' worth of bytes per step that run during a backward pass (the gradients'
    // all-reduce or reduce-scatters) and that the step waits for (all-gathers of parameters).
    double overlappable = 0.0;
    double exposed = 0.0;
    // The share of the step's compute the overlappable part can hide behind: the last
    // micro-step's backward where one exchange closes the step (ddp, ZeRO-1), every
    // micro-step's where each reduces its own gradients (ZeRO-2, ZeRO-3).
    double overlapWindow = 0.0;
    double total() const { return overlappable + exposed; }
};

// `accumulation`: micro-steps per optimizer step (at least 1). `parameterToGradientBytes`: the
// parameters' bytes over the gradients' (1 where both are fp32, as gpuplan-bench keeps them).
// `none` on several GPUs is ddp.
StepCommunication stepCommunication(
    Parallelism strategy, int accumulation, double parameterToGradientBytes);

// What the strategy exchanges, for an estimate's note: "an all-reduce of the gradients per
// step", "ZeRO-3: ...".
std::string_view exchangeDescription(Parallelism strategy);

// A run's days as compute and exchange: `allReduceDays` is one all-reduce of the gradients per
// step over the whole run, `exchange` what the strategy moves in those units.
struct RunDays {
    double compute = 0.0; // the micro-steps, whose backward passes the exchange may overlap
    double allReduceDays = 0.0;
    StepCommunication exchange;
    // The optimizer steps: they wait for the gradients' exchange, so nothing hides behind them.
    double update = 0.0;
    double communication() const { return allReduceDays * exchange.total(); }
    double allCompute() const { return compute + update; }
    // Everything hidden that the window can hide: compute, the waited-for part, and whatever
    // of the rest outlasts the backward passes it runs beside.
    double best() const;
    // Nothing hidden.
    double worst() const { return allCompute() + communication(); }
    double middle() const { return 0.5 * (best() + worst()); }
};

// The compute days that, beside `exchange` (allReduceDays and what the strategy moves) and an
// update of `updateDays`, make a run's central figure (`RunDays::middle`) `measuredDays`: how a
// measured multi-GPU step that timed its exchange inside it is split where nothing timed the
// two apart. 0 where the exchange alone, as modelled, takes longer than what was measured.
double computeDaysBeside(double measuredDays, double allReduceDays,
    const StepCommunication& exchange, double updateDays);

} // namespace gpuplan

#pragma once

#include <vector>

namespace gpuplan::bench {

// Median, fastest and slowest of repeated timings (seconds, days, ...).
struct Spread {
    double median = 0.0;
    double min = 0.0;
    double max = 0.0;
};

Spread spreadOf(std::vector<double> samples); // samples must not be empty

Spread scaled(const Spread& a, double factor);

// Where a long run's average step lies, given the timed samples of a step in the order they
// ran. A run of N steps takes N x its mean step, so N x the fastest and N x the slowest sample
// (min..max) bound a run in which every step is as fast or as slow as the extreme one: one step
// disturbed by another process (8x the median on the shared CPU) made that the range of a whole
// training run. This is the nominal 95% confidence interval of the mean step (Student t; the
// floor below and correlated steps lower its coverage: docs/results-format.md). Consecutive
// steps are not independent (a clock or a neighbour's load drifts), so from 20 samples on it
// comes from the means of 10 contiguous batches (batch means, 9 degrees of freedom), which a
// drift between batches widens; below that, from the samples themselves. Its low end is never
// below the fastest step timed (disturbances only add time); its high end may pass the slowest
// (three scattered samples say little). It is widened to hold the median too, the central
// figure that compute_seconds (a median) is a share of, so that every central figure a file
// gives for the step lies in its range; the bench's table, its choice of the best
// configuration and the planner go by the mean, N x the mean step being a run's time. It says
// nothing of the extrapolation from a block to a step: --validate measures that, and the planner
// widens the range by it.
struct RunRange {
    double mean = 0.0;
    double low = 0.0;
    double high = 0.0;
};
RunRange runRangeOf(const std::vector<double>& samples); // in time order, not empty

// The number of contiguous batches behind the run range's standard error, and the fewest
// samples from which they are used.
inline constexpr int kRunRangeBatches = 10;
inline constexpr int kRunRangeBatchesFrom = 2 * kRunRangeBatches;

RunRange scaled(const RunRange& a, double factor);

// The quantile of Student's t distribution that leaves 2.5% above it (a two-sided 95%
// interval), for degreesOfFreedom >= 1.
double studentT975(int degreesOfFreedom);

// One timed sample of a training step: `blockLength` micro-steps run back to back and
// synchronised once at the end (`blockSeconds`), then what closing the step takes
// (`optimizerSeconds`: the optimizer step; in a multi-process run also what the closing
// micro-step adds to a plain one, which noise can make negative).
struct StepSample {
    double blockSeconds = 0.0;
    int blockLength = 1;
    double optimizerSeconds = 0.0;
    // What the sample took, its parts together (above blockSeconds + optimizerSeconds where a
    // step's first micro-step was timed apart): the runner's time budget counts this.
    double timedSeconds = 0.0;
};

// The spreads of a configuration's step from its samples (not empty). Each sample is a whole
// step on its own, blockSeconds / blockLength x accumulation + optimizerSeconds, and the step's
// median, min and max are taken over those whole steps: one slow micro-step moves one sample by
// its own excess, not by that excess times the accumulation.
struct StepTiming {
    Spread microStep; // blockSeconds / blockLength
    Spread optimizer;
    Spread step;
    RunRange stepRun; // over the same whole-step samples as `step`
};
StepTiming stepTimingOf(const std::vector<StepSample>& samples, int accumulation);

// How many micro-steps a timed block runs: the accumulation (a whole step), at most `cap`, at
// least 1.
int blockLengthFor(int accumulation, int cap);

} // namespace gpuplan::bench

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

// One timed sample of a training step: `blockLength` micro-steps run back to back and
// synchronised once at the end (`blockSeconds`), then what closing the step takes
// (`optimizerSeconds`: the optimizer step; in a multi-process run also what the closing
// micro-step adds to a plain one).
struct StepSample {
    double blockSeconds = 0.0;
    int blockLength = 1;
    double optimizerSeconds = 0.0;
};

// The spreads of a configuration's step from its samples (not empty). Each sample is a whole
// step on its own, blockSeconds / blockLength x accumulation + optimizerSeconds, and the step's
// median, min and max are taken over those whole steps: one slow micro-step moves one sample by
// its own excess, not by that excess times the accumulation.
struct StepTiming {
    Spread microStep; // blockSeconds / blockLength
    Spread optimizer;
    Spread step;
};
StepTiming stepTimingOf(const std::vector<StepSample>& samples, int accumulation);

// How many micro-steps a timed block runs: the accumulation (a whole step), at most `cap`, at
// least 1.
int blockLengthFor(int accumulation, int cap);

} // namespace gpuplan::bench

#pragma once

// The largest micro-batch that fits, among powers of two up to the per-device target.
// The paper doubles from 1 until the first out-of-memory (up to log2(target) + 2 trial steps);
// fits are monotone in the micro-batch, so a binary search over the exponents finds the same
// answer in about log2(log2(target) + 2) trials: 4 instead of up to 12 for a target of 1024.
// A micro-batch the caller rules out beforehand (a memory model's prediction, search_pruning.h)
// counts as failing and costs no trial: a trial at a size that cannot fit is the slowest kind
// (ConvNeXt-XL's micro-batch 1024 on an H200 took 63 s, mostly cuDNN's autotuner).

#include <functional>
#include <vector>

namespace gpuplan::bench {

struct BatchSearchResult {
    int microBatch = 0; // 0: not even a micro-batch of 1 fits
    int trials = 0; // trial steps spent
    std::vector<int> ruledOut; // micro-batches taken as failing without a trial, in search order
};

// `fits(m)` runs one trial step with micro-batch m and says whether it fit in memory;
// `ruledOut(m)`, asked first where given, says that m cannot fit without a trial.
// `target` must be a power of two >= 1.
BatchSearchResult searchMicroBatch(int target, const std::function<bool(int)>& fits,
    const std::function<bool(int)>& ruledOut = {});

// Trials the paper's doubling-from-1 search spends to find `found` below `target`.
int doublingTrials(int target, int found);

bool isPowerOfTwo(long long n);

} // namespace gpuplan::bench

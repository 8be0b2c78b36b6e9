#pragma once

// The largest micro-batch that fits, among powers of two up to the per-device target.
// The paper doubles from 1 until the first out-of-memory (up to log2(target) + 2 trial steps);
// fits are monotone in the micro-batch, so a binary search over the exponents finds the same
// answer in about log2(log2(target) + 2) trials: 4 instead of up to 12 for a target of 1024.

#include <functional>

namespace gpuplan::bench {

struct BatchSearchResult {
    int microBatch = 0; // 0: not even a micro-batch of 1 fits
    int trials = 0; // trial steps spent
};

// `fits(m)` runs one trial step with micro-batch m and says whether it fit in memory.
// `target` must be a power of two >= 1.
BatchSearchResult searchMicroBatch(int target, const std::function<bool(int)>& fits);

// Trials the paper's doubling-from-1 search spends to find `found` below `target`.
int doublingTrials(int target, int found);

bool isPowerOfTwo(long long n);

} // namespace gpuplan::bench

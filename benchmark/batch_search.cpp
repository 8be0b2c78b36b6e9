#include "benchmark/batch_search.h"

namespace gpuplan::bench {

bool isPowerOfTwo(long long n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

namespace {
int log2Exact(int n)
{
    int e = 0;
    while ((1 << e) < n)
        ++e;
    return e;
}
} // namespace

BatchSearchResult searchMicroBatch(
    int target, const std::function<bool(int)>& fits, const std::function<bool(int)>& ruledOut)
{
    BatchSearchResult result;
    int fitting = -1; // largest exponent known to fit
    int failing = log2Exact(target) + 1; // smallest exponent known to fail (or past target)
    while (failing - fitting > 1) {
        const int middle = (fitting + failing + 1) / 2;
        if (ruledOut && ruledOut(1 << middle)) {
            result.ruledOut.push_back(1 << middle);
            failing = middle;
            continue;
        }
        ++result.trials;
        if (fits(1 << middle))
            fitting = middle;
        else
            failing = middle;
    }
    result.microBatch = fitting < 0 ? 0 : 1 << fitting;
    return result;
}

int doublingTrials(int target, int found)
{
    // 1, 2, 4, ... each a trial, until the first failure or the target itself.
    const int successes = found == 0 ? 0 : log2Exact(found) + 1;
    return found == target ? successes : successes + 1;
}

} // namespace gpuplan::bench

#include "core/step_communication.h"

#include <algorithm>

namespace gpuplan {

StepCommunication stepCommunication(
    Parallelism strategy, int accumulation, double parameterToGradientBytes)
{
    const double microSteps = std::max(1, accumulation);
    // A reduce-scatter or an all-gather is half an all-reduce of the same bytes.
    constexpr double kHalf = 0.5;
    const double gather = kHalf * parameterToGradientBytes;
    StepCommunication c;
    switch (strategy) {
    case Parallelism::None:
    case Parallelism::Ddp:
        c.overlappable = 1.0;
        c.overlapWindow = kBackwardShareOfCompute / microSteps;
        break;
    case Parallelism::Zero1:
        c.overlappable = kHalf;
        c.exposed = gather;
        c.overlapWindow = kBackwardShareOfCompute / microSteps;
        break;
    case Parallelism::Zero2:
        c.overlappable = kHalf * microSteps;
        c.exposed = gather;
        c.overlapWindow = kBackwardShareOfCompute;
        break;
    case Parallelism::Zero3:
        c.overlappable = kHalf * microSteps;
        c.exposed = 2.0 * gather * microSteps; // before each forward and each backward
        c.overlapWindow = kBackwardShareOfCompute;
        break;
    }
    return c;
}

std::string_view exchangeDescription(Parallelism strategy)
{
    switch (strategy) {
    case Parallelism::None:
    case Parallelism::Ddp:
        break;
    case Parallelism::Zero1:
        return "ZeRO-1: a reduce-scatter of the gradients per step, then an all-gather of the "
               "parameters that the next step waits for";
    case Parallelism::Zero2:
        return "ZeRO-2: a reduce-scatter of the gradients every micro-step, then an all-gather "
               "of the parameters that the next step waits for";
    case Parallelism::Zero3:
        return "ZeRO-3: every micro-step gathers the parameters before its forward and its "
               "backward, each gather waited for, and reduce-scatters the gradients";
    }
    return "an all-reduce of the gradients per step";
}

double RunDays::best() const
{
    const double hidden = allReduceDays * exchange.overlappable;
    return allCompute() + allReduceDays * exchange.exposed
        + std::max(0.0, hidden - compute * exchange.overlapWindow);
}

double computeDaysBeside(
    double measuredDays, double allReduceDays, const StepCommunication& exchange, double updateDays)
{
    // middle() rises with the compute (by 1, or by 1 - window / 2 while the window hides less
    // than the overlappable exchange), so a bisection over [0, measuredDays] finds the one
    // compute that gives the measured days; inverting middle() itself keeps this the exact
    // inverse of the rule the estimates price with, whatever that rule becomes.
    const auto daysWith = [&](double compute) {
        return RunDays { compute, allReduceDays, exchange, updateDays }.middle();
    };
    if (!(measuredDays > 0.0) || daysWith(0.0) >= measuredDays)
        return 0.0;
    double low = 0.0;
    double high = measuredDays;
    constexpr int kHalvings = 64; // below a double's resolution of any span of days
    for (int i = 0; i < kHalvings; ++i) {
        const double mid = 0.5 * (low + high);
        (daysWith(mid) < measuredDays ? low : high) = mid;
    }
    return 0.5 * (low + high);
}

} // namespace gpuplan

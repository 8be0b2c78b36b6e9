#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan {

enum class EstimateSource {
    Paper, // the paper's Table 1 (optimal settings), measured without GPU synchronisation
    PaperNaive, // the paper's Table 4 (off-the-shelf settings)
    Analytic, // training FLOPs / (n * peak * assumed utilisation)
    Measured, // a gpuplan-bench results file
    Extrapolated, // a gpuplan-bench measurement on fewer GPUs, scaled with the interconnect
};

// What the user asks for: one source, or `Best` = measured > extrapolated > paper > analytic per
// option (an extrapolation that leaves the GPUs' exchange out after paper: estimateTraining).
enum class SourcePolicy { Best, Paper, PaperNaive, Analytic, Measured, Extrapolated };

std::string_view toString(EstimateSource s); // "paper", "paper-naive", "analytic", "measured"
std::string_view toString(SourcePolicy p); // "best", ...
std::optional<SourcePolicy> sourcePolicyFromString(std::string_view text);

enum class EstimateFlag {
    ExceedsPeak, // implied utilisation > 1: physically impossible
    Suspect, // implied utilisation >= 0.75: far above what training reaches
    UnsynchronisedTiming, // from the paper's tables, whose timer never synchronised the GPU
    NoPeakKnown, // implied utilisation cannot be computed
    PerfectScaling, // several GPUs without a known interconnect (analytic, extrapolated): n x one
    MultiInstance, // cloud: several machines (instancesNeeded), priced at one's interconnect
    // cloud: several machines, their exchange priced at an assumed share of the network the
    // offer lists (core/instance_network.h), not a link anyone measured
    OverNetwork,
    // several GPUs that spend more of the estimate's time exchanging than computing
    // (analytic, extrapolated): the link, not the GPUs, sets the time (exchangeBound)
    ExchangeBound,
};
// The last enumerator, for code that lists every flag (the report's legend).
inline constexpr EstimateFlag kLastEstimateFlag = EstimateFlag::ExchangeBound;

std::string_view toString(EstimateFlag f); // "exceeds_peak", "suspect", ...: JSON and scripts
std::string_view label(EstimateFlag f); // "above peak", "suspect", ...: what a table shows
std::string_view describe(EstimateFlag f); // one sentence for tooltips and reports

// Thresholds for the utilisation flags. 0.75 is above the best model-FLOPs utilisation
// reported for large dense training (PaLM 46%, Megatron-LM ~55%), so anything at or over it
// deserves a second look.
inline constexpr double kSuspectUtilization = 0.75;
inline constexpr double kExceedsPeakUtilization = 1.0;

// Whether GPUs whose run takes `days`, of which `computeDays` computing, are exchange-bound:
// the exchange the backward pass does not hide is the longer part. Past that point the GPUs
// are less than half as fast together as their compute alone would make them (below 50%
// scaling efficiency), so more GPUs over that link buy little time at full price per GPU:
// Vast.ai's 8 RTX 4090s at its 500 Mbit/s minimum train Pythia-1B mostly exchanging.
bool exchangeBound(double computeDays, double days);

// How long one training run takes on one configuration, whatever the source.
struct TrainingEstimate {
    std::string modelId;
    std::string gpuId;
    int gpuCount = 0;
    EstimateSource source = EstimateSource::Analytic;
    bool feasible = true; // false: the source says it does not fit (days then meaningless)
    double days = 0.0;
    double daysLow = 0.0; // range: rounding of published tables, a measured run's range
    double daysHigh = 0.0;
    std::string configuration; // e.g. "MBS 16 x GAS 8, ZeRO-1" or "assumed utilisation 0.40"
    std::optional<double> impliedUtilization; // FLOPs / (days * 86400 * n * peak)
    // Measured only, with --validate: |extrapolated - measured step time| / measured.
    std::optional<double> validationError;
    std::vector<EstimateFlag> flags;
    std::string note;

    bool hasFlag(EstimateFlag f) const;
};

} // namespace gpuplan
